// Everyone in custody is on the welfare schedule: a prisoner in custody with no schedule row yet (just arrived, back in
// custody, or here before the schedule existed) gets one at the standard level, due at a random moment within the
// standard interval from now. Spread that way, a whole prison enrolled at once falls due over an hour, not in one
// flood of overdue alerts. One statement; idempotent (a row made meanwhile by a check or a level wins).
import { sql, type SQL } from 'drizzle-orm';
import { OCCUPYING_STATUSES } from '@prison/shared';
import type { DbOrTx } from '../../db/client';
import type { ObservationIntervals } from './observation-schedule';

/** Who set an enrolled prisoner's level: the schedule itself, not an officer. */
export const ENROLLED_BY = 'welfare schedule';

/** Which prisoners to enrol: every one in custody, one block's, or one prisoner. */
export type EnrolScope = { block: string } | { prisonerId: number } | 'all';

function scopeSql(scope: EnrolScope): SQL {
  if (scope === 'all') return sql`true`;
  if ('block' in scope) return sql`p.cell_id in (select c.cell_id from cells c where c.block = ${scope.block})`;
  return sql`p.prisoner_id = ${scope.prisonerId}`;
}

/** Enrols the prisoners in custody of `scope` that have no schedule; answers how many. */
export async function enrolUnscheduled(db: DbOrTx, intervals: ObservationIntervals, now: Date, scope: EnrolScope = 'all'): Promise<number> {
  const result = (await db.execute(sql`
    insert into observation_levels (prisoner_id, level, set_by, set_at, due_at)
    select p.prisoner_id, 'standard', ${ENROLLED_BY}, ${now.toISOString()}::timestamptz,
      ${now.toISOString()}::timestamptz + make_interval(secs => ${intervals.standard * 60}::int * random())
    from prisoners p
    where p.archived_at is null and p.status = any(${sql.param([...OCCUPYING_STATUSES])}::text[]) and ${scopeSql(scope)}
      and not exists (select 1 from observation_levels ol where ol.prisoner_id = p.prisoner_id)
    on conflict (prisoner_id) do nothing
    returning prisoner_id`)) as unknown as { rows: unknown[] };
  return result.rows.length;
}
