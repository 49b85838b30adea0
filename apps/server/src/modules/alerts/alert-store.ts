// Writing alerts: the insert the tracking core's batch statement embeds (decision 080), the same insert on its own for
// the features that raise alerts (counts, observations, readers), the end of a device's open alerts of a kind, and
// the live event (`showAlert`) a stored alert is pushed as. composition.ts hands these to the core as its AlertStore.
import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { alertLevelOf, type ShowAlertEvent } from '@prison/shared';
import type { DbOrTx } from '../../db/client';
import { namedStatement } from '../../db/named-statements';
import { alerts } from '../../db/schema';
import type { AlertKind, AlertWearer, NewAlert, StoredAlert } from '../../tracking/ports';

export type { AlertKind, AlertWearer, NewAlert, StoredAlert };

export const isoDay = (at: Date) => at.toISOString().slice(0, 10);

/**
 * An insert of the drafts in `json` (`alertsJson`) for which `where` holds, answering their ids; `with ordinality`
 * keeps the ids in the drafts' order (ascending). A statement of its own here, and a part of the tracking core's
 * batch statement (decision 080), which passes it its own JSON placeholder and guard.
 */
export function insertAlertsSql(json: SQL, where: SQL = sql`true`): SQL {
  return sql`insert into alerts (alert_type, kind, details, date, timestamp, device_id, prisoner_id, geofence_id, nearby_staff)
    select j.ty, j.k, j.de, j.day::date, to_timestamp(j.t / 1000), j.dv, j.p, j.g, j.ns
    from rows from (json_to_recordset(${json}::json) as (ty text, k text, de text, day text, t float8, dv text, p int, g text, ns jsonb))
      with ordinality as j(ty, k, de, day, t, dv, p, g, ns, ord)
    where ${where}
    order by j.ord
    returning id`;
}

/** The drafts as `insertAlertsSql`'s one JSON parameter. */
export function alertsJson(drafts: NewAlert[]): string {
  return JSON.stringify(
    drafts.map((d) => ({
      ty: d.alertType,
      k: d.kind,
      de: d.details,
      day: isoDay(d.at),
      t: d.at.getTime(),
      dv: d.deviceId,
      p: d.prisonerId,
      g: d.geofenceId ?? null,
      ns: d.nearbyStaff ?? null,
    })),
  );
}

const INSERT_ALERTS = namedStatement<{ drafts: string }, { id: number }>(
  'insert-alerts',
  insertAlertsSql(sql`${sql.placeholder('drafts')}`),
);

/**
 * Stores alerts in one statement; ids come back in input order. The drafts travel as one JSON parameter under a name
 * (decision 077): a batch of fixes raises alerts in most batches, and Drizzle's insert builder cost more of the
 * server's CPU than PostgreSQL's insert did.
 */
export async function insertAlerts(db: DbOrTx, drafts: NewAlert[]): Promise<StoredAlert[]> {
  if (drafts.length === 0) return [];
  const result = await INSERT_ALERTS(db, { drafts: alertsJson(drafts) });
  return drafts.map((d, i) => ({ ...d, id: result.rows[i]!.id }));
}

/** The live event (docs/CLIENT-CONTRACT.md: index, alert_type as a lowercase level, message) plus what the toast and the alerts screen use. */
export function showAlertEvent(
  alert: StoredAlert,
  wearer: AlertWearer,
): ShowAlertEvent & { alertId: number; block?: string | null } {
  return {
    index: alert.deviceId ?? '',
    // Lowercase, as docs/CLIENT-CONTRACT.md names the levels and the spec's client compares them (decision 105).
    alert_type: alertLevelOf(alert.alertType),
    message: alert.details,
    alertId: alert.id,
    ...(wearer.prisonerName ? { prisonerName: wearer.prisonerName } : {}),
    ...(alert.prisonerId !== null ? { prisonerId: alert.prisonerId, cellId: wearer.cellId, block: wearer.block } : {}),
    ...(alert.prisonerId !== null && wearer.prisonNumber ? { prisonNumber: wearer.prisonNumber } : {}),
    timestamp: alert.at.toISOString(),
  };
}

/** Ends open alerts of one kind for a device (an offline alert ends when the device reports again). */
export async function endOpenAlerts(db: DbOrTx, deviceIds: string[], kind: AlertKind, at: Date): Promise<void> {
  if (deviceIds.length === 0) return;
  await db
    .update(alerts)
    .set({ endedAt: at })
    .where(and(inArray(alerts.deviceId, deviceIds), eq(alerts.kind, kind), sql`${alerts.endedAt} is null`));
}
