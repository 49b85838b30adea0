// The overdue watcher (decisions 063 and 099): every few seconds, on the cluster's leader only, it
// first puts anyone in custody not yet on the welfare schedule on it (staggered), then one indexed query finds the
// checks past due that still owe an alert: a Warning at the due time, and for high and constant
// observation a Critical half an interval later. Each alert's id is set on the schedule row under its lock, so each is
// raised once however often the watcher runs; the next check moves the due time and ends them.
import type { FastifyInstance } from 'fastify';
import { inArray, sql } from 'drizzle-orm';
import { CRITICAL_OBSERVATION_LEVELS, OCCUPYING_STATUSES, overdueAlertText, type AlertType } from '@prison/shared';
import type { DbOrTx } from '../../db/client';
import { observationLevels } from '../../db/schema';
import { insertAlerts, showAlertEvent } from '../alerts/alert-store';
import type { StoredShowAlert } from '../../cluster/alert-feed';
import type { AlertWearer, NewAlert } from '../../tracking/ports';
import { enrolUnscheduled } from './observation-enrolment';
import type { ObservationIntervals } from './observation-schedule';

export const OVERDUE_TICK_MS = 5_000;
/** Schedules one pass raises at most: a backlog (after an outage) is worked off over a few passes, never in one long lock. */
export const MAX_RAISED_PER_PASS = 500;

interface OwedRow extends Record<string, unknown> {
  prisoner_id: number;
  due_at: Date | string;
  level: string;
  needs_warning: boolean;
  needs_critical: boolean;
  first_name: string;
  prison_number: string;
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
      p.first_name, p.last_name, p.prison_number, p.cell_id, c.block, p.tracking_device_id as device_id
    from observation_levels ol
    join prisoners p on p.prisoner_id = ol.prisoner_id
    left join cells c on c.cell_id = p.cell_id
    where ol.due_at <= ${at}::timestamptz and p.archived_at is null and p.status = any(${sql.param([...OCCUPYING_STATUSES])}::text[])
      and (ol.warning_alert_id is null or (${criticalDue}))
    order by ol.due_at limit ${MAX_RAISED_PER_PASS}`)) as unknown as { rows: OwedRow[] };
  return result.rows;
}

/**
 * Raises what the schedules owe in one transaction: their rows locked, only those whose due time is still the one
 * read (a check or a level change meanwhile moved it), the alerts stored in one statement and their ids set.
 */
async function raiseOwed(db: DbOrTx, owed: OwedRow[], now: Date): Promise<StoredShowAlert[]> {
  const ids = owed.map((row) => row.prisoner_id);
  return db.transaction(async (tx) => {
    const locked = await tx
      .select({ prisonerId: observationLevels.prisonerId, dueAt: observationLevels.dueAt, warningAlertId: observationLevels.warningAlertId, criticalAlertId: observationLevels.criticalAlertId })
      .from(observationLevels)
      .where(inArray(observationLevels.prisonerId, ids))
      .for('update');
    const current = new Map(locked.map((state) => [state.prisonerId, state]));
    const drafts: NewAlert[] = [];
    const wearers: AlertWearer[] = [];
    for (const row of owed) {
      const state = current.get(row.prisoner_id);
      if (!state || state.dueAt.getTime() !== new Date(row.due_at).getTime()) continue; // checked meanwhile
      const name = `${row.first_name} ${row.last_name}`.trim();
      const levels: AlertType[] = [];
      if (row.needs_warning && state.warningAlertId === null) levels.push('Warning');
      if (row.needs_critical && state.criticalAlertId === null) levels.push('Critical');
      for (const alertType of levels) {
        drafts.push({ alertType, kind: 'observation', details: overdueAlertText(name, row.cell_id), at: now, deviceId: row.device_id, prisonerId: row.prisoner_id });
        wearers.push({ prisonerName: name, prisonNumber: row.prison_number, cellId: row.cell_id, block: row.block });
      }
    }
    const stored = await insertAlerts(tx, drafts);
    for (const alertType of ['Warning', 'Critical'] as const) {
      const of = stored.filter((alert) => alert.alertType === alertType);
      if (of.length === 0) continue;
      const column = alertType === 'Warning' ? sql.raw('warning_alert_id') : sql.raw('critical_alert_id');
      await tx.execute(sql`update observation_levels set ${column} = v.alert_id
        from (select unnest(${sql.param(of.map((a) => a.prisonerId))}::int[]) as prisoner_id, unnest(${sql.param(of.map((a) => a.id))}::int[]) as alert_id) v
        where observation_levels.prisoner_id = v.prisoner_id`);
    }
    return stored.map((alert, i) => showAlertEvent(alert, wearers[i]!));
  });
}

/** One pass at `now` (the injectable clock): the alerts it raised, stored; the caller shows them. */
export async function overduePass(db: DbOrTx, intervals: ObservationIntervals, now: Date): Promise<StoredShowAlert[]> {
  await enrolUnscheduled(db, intervals, now);
  const owed = await owedAlerts(db, intervals, now);
  if (owed.length === 0) return [];
  return raiseOwed(db, owed, now);
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
