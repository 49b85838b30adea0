// The deliveries table (decision 060): a due Critical gets one row per channel (the unique key: once across a
// cluster), a process claims due rows with a lease under FOR UPDATE SKIP LOCKED, then writes what the send did.
import { and, count, desc, eq, sql } from 'drizzle-orm';
import type { AlertDelivery, DeliveryQuery, DeliveryStatus, EscalationChannel } from '@prison/shared';
import { totalPages } from '@prison/shared';
import type { DbOrTx } from '../../db/client';
import { alertDeliveries, alerts, prisoners } from '../../db/schema';

/** A claimed row is this process's for this long; every send is bounded well below it (channels.ts). */
export const LEASE_SECONDS = 60;

/**
 * Opens a delivery per channel for every Critical alert still New `afterSeconds` after it was stored. Alerts older
 * than the retry window are left alone, so turning escalation on does not send last week's alarms.
 */
export async function openDueDeliveries(db: DbOrTx, channels: readonly EscalationChannel[], afterSeconds: number, windowSeconds: number): Promise<void> {
  if (channels.length === 0) return;
  await db.execute(sql`
    insert into alert_deliveries (alert_id, channel, status, next_attempt_at)
    select a.id, c.channel, 'pending', now()
    from alerts a cross join unnest(${`{${channels.join(',')}}`}::text[]) as c(channel)
    where a.alert_type = 'Critical' and a.status = 'New'
      and a.created_at <= now() - make_interval(secs => ${afterSeconds})
      and a.created_at > now() - make_interval(secs => ${afterSeconds + windowSeconds})
    on conflict (alert_id, channel) do nothing`);
}

export interface ClaimedDelivery {
  id: number;
  alertId: number | null;
  channel: EscalationChannel;
  /** Tries so far, this one included. */
  attempts: number;
  createdAt: Date;
}

/** Takes up to `limit` due rows for this process: no other process can take them until the lease ends. */
export async function claimDueDeliveries(db: DbOrTx, token: string, limit: number): Promise<ClaimedDelivery[]> {
  const result = (await db.execute(sql`
    update alert_deliveries set claim_token = ${token}, claimed_until = now() + make_interval(secs => ${LEASE_SECONDS}),
      attempts = attempts + 1, last_attempt_at = now()
    where id in (
      select id from alert_deliveries
      where status in ('pending', 'retrying') and next_attempt_at <= now()
        and (claimed_until is null or claimed_until < now())
      order by next_attempt_at
      limit ${limit}
      for update skip locked)
    returning id, alert_id, channel, attempts, created_at`)) as unknown as {
    rows: { id: number; alert_id: number | null; channel: EscalationChannel; attempts: number; created_at: Date | string }[];
  };
  return result.rows.map((row) => ({
    id: Number(row.id),
    alertId: row.alert_id === null ? null : Number(row.alert_id),
    channel: row.channel,
    attempts: Number(row.attempts),
    createdAt: new Date(row.created_at),
  }));
}

export type DeliveryOutcome =
  | { status: 'sent' }
  | { status: 'retrying'; nextAttemptAt: Date; error: string }
  | { status: 'failed'; error: string }
  | { status: 'cancelled'; reason: string };

/** Writes what the try did and releases the lease; only the holder of the claim can. */
export async function finishDelivery(db: DbOrTx, id: number, token: string, outcome: DeliveryOutcome): Promise<void> {
  await db
    .update(alertDeliveries)
    .set({
      status: outcome.status,
      claimToken: null,
      claimedUntil: null,
      nextAttemptAt: outcome.status === 'retrying' ? outcome.nextAttemptAt : null,
      ...(outcome.status === 'sent' ? { sentAt: sql`now()`, lastError: null } : {}),
      ...(outcome.status === 'retrying' || outcome.status === 'failed' ? { lastError: outcome.error } : {}),
      ...(outcome.status === 'cancelled' ? { lastError: outcome.reason } : {}),
    })
    .where(and(eq(alertDeliveries.id, id), eq(alertDeliveries.claimToken, token)));
}

/** A test message's row, claimed by its sender at once. */
export async function openTestDelivery(db: DbOrTx, channel: EscalationChannel, token: string): Promise<number> {
  const [row] = await db
    .insert(alertDeliveries)
    .values({ channel, status: 'pending', test: true, attempts: 1, lastAttemptAt: sql`now()`, claimToken: token, claimedUntil: sql`now() + interval '60 seconds'` })
    .returning({ id: alertDeliveries.id });
  return row!.id;
}

const iso = (at: Date | null) => at?.toISOString() ?? null;

function selectDeliveries(db: DbOrTx) {
  return db
    .select({
      delivery: alertDeliveries,
      details: alerts.details,
      prisonerId: alerts.prisonerId,
      firstName: prisoners.firstName,
      lastName: prisoners.lastName,
    })
    .from(alertDeliveries)
    .leftJoin(alerts, eq(alerts.id, alertDeliveries.alertId))
    .leftJoin(prisoners, eq(prisoners.prisonerId, alerts.prisonerId));
}

type DeliveryRow = Awaited<ReturnType<typeof selectDeliveries>>[number];

function toAlertDelivery({ delivery: d, details, prisonerId, firstName, lastName }: DeliveryRow): AlertDelivery {
  return {
    id: d.id,
    alert_id: d.alertId,
    channel: d.channel as EscalationChannel,
    status: d.status as DeliveryStatus,
    test: d.test,
    attempts: d.attempts,
    created_at: d.createdAt.toISOString(),
    last_attempt_at: iso(d.lastAttemptAt),
    next_attempt_at: iso(d.nextAttemptAt),
    sent_at: iso(d.sentAt),
    last_error: d.lastError,
    alert_details: details ?? null,
    prisoner_name: prisonerId === null || prisonerId === undefined ? null : `${firstName ?? ''} ${lastName ?? ''}`.trim(),
  };
}

export async function findDelivery(db: DbOrTx, id: number): Promise<AlertDelivery> {
  const [row] = await selectDeliveries(db).where(eq(alertDeliveries.id, id));
  return toAlertDelivery(row!);
}

/** The delivery log, newest first. */
export async function listDeliveries(db: DbOrTx, query: DeliveryQuery) {
  const where = query.status ? eq(alertDeliveries.status, query.status) : undefined;
  const [rows, [total]] = await Promise.all([
    selectDeliveries(db)
      .where(where)
      .orderBy(desc(alertDeliveries.id))
      .limit(query.limit)
      .offset((query.page - 1) * query.limit),
    db.select({ n: count() }).from(alertDeliveries).where(where),
  ]);
  return { data: rows.map(toAlertDelivery), currentPage: query.page, totalPages: totalPages(total!.n, query.limit), total: total!.n };
}

