// A reader not heard for READER_SILENT_SECONDS raises one Warning alert "Reader NAME is silent" (once per silence);
// the alert ends when it reports again. Run by the leader only in cluster mode (every process writes what it heard).
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { alerts, readers } from '../../db/schema';
import { insertAlerts, showAlertEvent } from '../alerts/alert-store';
import type { ShowAlertEvent } from '@prison/shared';

export const silentReaderMessage = (name: string) => `Reader ${name} is silent`;

export interface SilenceSweep {
  raised: (ShowAlertEvent & { alertId: number })[];
  ended: number;
}

/** Raises the alerts of readers gone silent and ends those of readers heard again. */
export async function sweepSilentReaders(db: DbOrTx, silentSeconds: number, now = new Date()): Promise<SilenceSweep> {
  const sinceText = new Date(now.getTime() - silentSeconds * 1000).toISOString();
  return db.transaction(async (tx) => {
    // A reader never heard is silent that long after it was registered. Locked: one alert per silence however many
    // sweeps overlap.
    const gone = await tx
      .select({ id: readers.id, name: readers.name })
      .from(readers)
      .where(and(isNull(readers.silentAlertId), sql`coalesce(${readers.lastSeenAt}, ${readers.createdAt}) < ${sinceText}::timestamptz`))
      .for('update', { skipLocked: true });
    const raised: SilenceSweep['raised'] = [];
    const stored = await insertAlerts(
      tx,
      gone.map((reader) => ({ alertType: 'Warning', kind: 'reader_silent', details: silentReaderMessage(reader.name), at: now, deviceId: null, prisonerId: null })),
    );
    for (const [i, alert] of stored.entries()) {
      await tx.update(readers).set({ silentAlertId: alert.id }).where(eq(readers.id, gone[i]!.id));
      raised.push(showAlertEvent(alert, { prisonerName: null, cellId: null, block: null }));
    }
    await tx
      .update(readers)
      .set({ silentAlertId: null })
      .where(and(sql`${readers.silentAlertId} is not null`, sql`${readers.lastSeenAt} >= ${sinceText}::timestamptz`));
    // Open silence alerts no reader holds any more (heard again, or removed) end now.
    const ended = await tx
      .update(alerts)
      .set({ endedAt: now })
      .where(and(eq(alerts.kind, 'reader_silent'), isNull(alerts.endedAt), sql`not exists (select 1 from readers r where r.silent_alert_id = ${alerts.id})`))
      .returning({ id: alerts.id });
    return { raised, ended: ended.length };
  });
}
