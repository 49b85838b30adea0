// The stored fixes an investigation reads (decision 068): a person's track, the fixes in a set of grid cells and
// time intervals, and each tracker's last fix before a moment. Every statement runs the same on PostgreSQL and PGlite.
import { sql, type SQL } from 'drizzle-orm';
import type { PersonRef } from '@prison/shared';
import type { DbOrTx } from '../../db/client';
import { GRID_CELL_SQL } from '../../db/position-grid';
import { nobodyOrInCaseload, type Caseload } from '../../lib/caseload';
import type { TrackFix, WornFix } from './near-matching';
import type { Probe } from './near-probes';

const iso = (ms: number) => new Date(ms).toISOString();
/** Epoch milliseconds of a timestamptz, rounded as the fixes were stored. */
const MS = sql.raw(`floor(extract(epoch from p.recorded_at) * 1000 + 0.5)::float8`);

type Rows<T> = { rows: T[] };

/** A person's fixes in [from, to], oldest first, through the prisoner or the staff index. */
export async function personTrack(db: DbOrTx, person: PersonRef, from: number, to: number): Promise<TrackFix[]> {
  const column = sql.raw(person.kind === 'prisoner' ? 'p.prisoner_id' : 'p.staff_id');
  const result = (await db.execute(sql`
    select ${MS} as t, p.latitude as lat, p.longitude as lng from positions p
    where ${column} = ${person.id} and p.recorded_at >= ${iso(from)}::timestamptz and p.recorded_at <= ${iso(to)}::timestamptz
    order by p.recorded_at`)) as unknown as Rows<TrackFix>;
  return result.rows.map((r) => ({ t: Number(r.t), lat: r.lat, lng: r.lng }));
}

interface WornRow {
  t: number;
  lat: number;
  lng: number;
  prisoner_id: number | null;
  staff_id: number | null;
}

/**
 * The fixes in the probes' cells and intervals (one index range of positions_grid_time_idx each), leaving out the
 * subject's own and the prisoners outside the caseload.
 */
export async function fixesInProbes(db: DbOrTx, probes: readonly Probe[], subject: PersonRef | null, blocks: Caseload): Promise<WornFix[]> {
  if (probes.length === 0) return [];
  const notSubject: SQL = subject
    ? sql.raw(`${subject.kind === 'prisoner' ? 'p.prisoner_id' : 'p.staff_id'} is distinct from ${Number(subject.id)}`)
    : sql`true`;
  const result = (await db.execute(sql`
    select ${MS} as t, p.latitude as lat, p.longitude as lng, p.prisoner_id, p.staff_id
    from unnest(${sql.param(probes.map((p) => p.cell))}::bigint[], ${sql.param(probes.map((p) => iso(p.from)))}::timestamptz[],
      ${sql.param(probes.map((p) => iso(p.to)))}::timestamptz[]) as q(cell, t0, t1)
    cross join lateral (
      select * from positions p
      where ${GRID_CELL_SQL} = q.cell and p.recorded_at >= q.t0 and p.recorded_at <= q.t1
    ) p
    where ${notSubject} and ${nobodyOrInCaseload(sql.raw('p.prisoner_id'), blocks) ?? sql`true`}`)) as unknown as Rows<WornRow>;
  return result.rows.map((r) => ({ t: Number(r.t), lat: r.lat, lng: r.lng, prisonerId: r.prisoner_id, staffId: r.staff_id }));
}

export interface LastFix {
  device_id: string;
  prisoner_id: number | null;
  staff_id: number | null;
  latitude: number;
  longitude: number;
  t: number;
}

/**
 * Each tracker's last fix at or before `at` and not older than offlineSeconds before it: one descent of the
 * (device, time) index per known tracker. The age is checked outside the lateral so that index is the only one
 * that fits it (with the age inside, a planner may scan the time index for every tracker).
 */
export async function lastFixesAt(db: DbOrTx, at: number, offlineSeconds: number, blocks: Caseload): Promise<LastFix[]> {
  const result = (await db.execute(sql`
    select d.id as device_id, p.prisoner_id, p.staff_id, p.latitude, p.longitude, ${MS} as t
    from devices d cross join lateral (
      select * from positions p
      where p.device_id = d.id and p.recorded_at <= ${iso(at)}::timestamptz
      order by p.recorded_at desc limit 1
    ) p
    where p.recorded_at >= ${iso(at - offlineSeconds * 1000)}::timestamptz and ${nobodyOrInCaseload(sql.raw('p.prisoner_id'), blocks) ?? sql`true`}
    order by d.id`)) as unknown as Rows<LastFix>;
  return result.rows.map((r) => ({ ...r, t: Number(r.t) }));
}

/** The names of these people, `First Last`, by `prisoner:ID` / `staff:ID`. */
export async function peopleNames(db: DbOrTx, prisonerIds: number[], staffIds: number[]): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  if (prisonerIds.length > 0) {
    const rows = (await db.execute(sql`select prisoner_id as id, first_name || ' ' || last_name as name from prisoners
      where prisoner_id = any(${sql.param(prisonerIds)}::int[])`)) as unknown as Rows<{ id: number; name: string }>;
    for (const r of rows.rows) names.set(`prisoner:${r.id}`, r.name.trim());
  }
  if (staffIds.length > 0) {
    const rows = (await db.execute(sql`select staff_id as id, first_name || ' ' || last_name as name from staff
      where staff_id = any(${sql.param(staffIds)}::int[])`)) as unknown as Rows<{ id: number; name: string }>;
    for (const r of rows.rows) names.set(`staff:${r.id}`, r.name.trim());
  }
  return names;
}
