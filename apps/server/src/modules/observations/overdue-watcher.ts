// The overdue watcher (issue 24 item 3, decision 063): every few seconds, on the cluster's leader only, one indexed
// query finds the checks past due that still owe an alert: a Warning at the due time, and for high and constant
// observation a Critical half an interval later. Each alert's id is set on the schedule row under its lock, so each is
// raised once however often the watcher runs; the next check moves the due time and ends them.
import type { FastifyInstance } from 'fastify';
import { and, eq, sql } from 'drizzle-orm';
import { CRITICAL_OBSERVATION_LEVELS, overdueAlertText, type AlertType } from '@prison/shared';
import type { DbOrTx } from '../../db/client';
import { observationLevels } from '../../db/schema';
import { insertAlerts, showAlertEvent } from '../alerts/alert-service';
import type { StoredShowAlert } from '../../cluster/alert-feed';
import type { ObservationIntervals } from './observation-schedule';

export const OVERDUE_TICK_MS = 5_000;

interface OwedRow extends Record<string, unknown> {
  prisoner_id: number;
  due_at: Date | string;
  level: string;
  needs_warning: boolean;
  needs_critical: boolean;
  first_name: string;
  last_name: string;
  cell_id: string | null;
  block: string | null;
  device_id: string | null;
}

/** The interval in force of each row, in SQL: the prisoner's own, else his level's from the configuration. */
const intervalSql = (intervals: ObservationIntervals) => sql`coalesce(ol.interval_minutes, case ol.level
  when 'standard' then ${intervals.standard}::int when 'enhanced' then ${intervals.enhanced}::int
  when 'high' then ${intervals.high}::int else ${intervals.constant}::int end)`;

/** One statement: the schedules past due that owe a Warning, or a Critical now. */
async function owedAlerts(db: DbOrTx, intervals: ObservationIntervals, now: Date): Promise<OwedRow[]> {
  const at = now.toISOString();
  const criticalLevels = sql.param([...CRITICAL_OBSERVATION_LEVELS]);
  const criticalDue = sql`ol.level = any(${criticalLevels}::text[]) and ol.critical_alert_id is null
    and ol.due_at + make_interval(secs => ${intervalSql(intervals)} * 30) <= ${at}::timestamptz`;
  const result = (await db.execute(sql`
    select ol.prisoner_id, ol.due_at, ol.level, ol.warning_alert_id is null as needs_warning, (${criticalDue}) as needs_critical,
      p.first_name, p.last_name, p.cell_id, c.block, p.tracking_device_id as device_id
    from observation_levels ol
    join prisoners p on p.prisoner_id = ol.prisoner_id
    left join cells c on c.cell_id = p.cell_id
    where ol.due_at <= ${at}::timestamptz and p.archived_at is null
      and (ol.warning_alert_id is null or (${criticalDue}))`)) as unknown as { rows: OwedRow[] };
  return result.rows;
}

/** Raises what one schedule owes, under its row lock, if its due time is still the one read. */
async function raiseOwed(db: DbOrTx, row: OwedRow, now: Date): Promise<StoredShowAlert[]> {
  const dueAt = new Date(row.due_at);
  return db.transaction(async (tx) => {
    const [state] = await tx
      .select()
      .from(observationLevels)
      .where(and(eq(observationLevels.prisonerId, row.prisoner_id), eq(observationLevels.dueAt, dueAt)))
      .for('update');
    if (!state) return []; // checked (or re-levelled) meanwhile
    const levels: AlertType[] = [];
    if (row.needs_warning && state.warningAlertId === null) levels.push('Warning');
    if (row.needs_critical && state.criticalAlertId === null) levels.push('Critical');
    if (levels.length === 0) return [];
    const name = `${row.first_name} ${row.last_name}`.trim();
    const stored = await insertAlerts(
      tx,
      levels.map((alertType) => ({ alertType, kind: 'observation' as const, details: overdueAlertText(name, row.cell_id), at: now, deviceId: row.device_id, prisonerId: row.prisoner_id })),
    );
    const ids = Object.fromEntries(stored.map((alert) => [alert.alertType, alert.id]));
    await tx
      .update(observationLevels)
      .set({ ...(ids.Warning !== undefined && { warningAlertId: ids.Warning }), ...(ids.Critical !== undefined && { criticalAlertId: ids.Critical }) })
      .where(eq(observationLevels.prisonerId, row.prisoner_id));
    const wearer = { prisonerName: name, cellId: row.cell_id, block: row.block };
    return stored.map((alert) => showAlertEvent(alert, wearer));
  });
}

/** One pass at `now` (the injectable clock): the alerts it raised, stored; the caller shows them. */
export async function overduePass(db: DbOrTx, intervals: ObservationIntervals, now: Date): Promise<StoredShowAlert[]> {
  const owed = await owedAlerts(db, intervals, now);
  const raised: StoredShowAlert[] = [];
  for (const row of owed) raised.push(...(await raiseOwed(db, row, now)));
  return raised;
}

export interface OverdueWatcher {
  /** One pass now (or at `now`), shown to the browsers; passes never overlap. */
  tick(now?: Date): Promise<StoredShowAlert[]>;
  start(): void;
  stop(): Promise<void>;
}

export function createOverdueWatcher(app: FastifyInstance, intervals: ObservationIntervals, clock: () => Date = () => new Date()): OverdueWatcher {
  // Passes run one after another: a test's pass at its own clock waits for the timer's.
  let last: Promise<unknown> = Promise.resolve();
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;
  const pass = async (now: Date): Promise<StoredShowAlert[]> => {
    // One process raises them in a cluster (decision 036): the leader; a single process always is.
    if (stopped || !app.cluster.isLeader()) return [];
    try {
      const raised = await overduePass(app.db, intervals, now);
      if (raised.length > 0) {
        await app.cluster.alerts.raised(raised);
        app.realtime.toBrowsers().emit('dataChanged', 'observations');
      }
      return raised;
    } catch (error) {
      app.databaseHealth.failed(error, 'observation overdue watcher');
      return [];
    }
  };
  let busy = false;
  const tick = (now?: Date) => {
    const next = last.then(() => pass(now ?? clock()));
    last = next;
    return next;
  };
  return {
    tick,
    start() {
      // The timer skips a beat rather than queue passes behind a slow database.
      timer = setInterval(() => {
        if (busy) return;
        busy = true;
        void tick().finally(() => {
          busy = false;
        });
      }, OVERDUE_TICK_MS);
      timer.unref();
    },
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      await last;
    },
  };
}
