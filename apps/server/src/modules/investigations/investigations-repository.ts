// The stored fixes an investigation reads (decision 068): a person's track, the fixes in a set of grid cells and
// time intervals, and each tracker's last fix before a moment. Every statement runs the same on PostgreSQL and PGlite.
import { sql, type SQL } from 'drizzle-orm';
import { DEG_TO_RAD, EARTH_RADIUS_METERS, NEAR_MATCH_SECONDS, type PersonRef } from '@prison/shared';
import type { DbOrTx } from '../../db/client';
import { GRID_CELL_SQL } from '../../db/position-grid';
import { nobodyOrInCaseload, type Caseload } from '../../lib/caseload';
import type { PersonNear, TrackFix, WornFix } from './near-matching';
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
 * The statement of fixesInProbes: the candidates alone, matched in JavaScript (peopleNear). The benches time it as the
 * baseline of peopleNearInProbesSql, which matches them in the database.
 */
export function fixesInProbesSql(probes: readonly Probe[], subject: PersonRef | null, blocks: Caseload): SQL {
  const notSubject: SQL = subject
    ? sql.raw(`${subject.kind === 'prisoner' ? 'p.prisoner_id' : 'p.staff_id'} is distinct from ${Number(subject.id)}`)
    : sql`true`;
  return sql`
    select ${MS} as t, p.latitude as lat, p.longitude as lng, p.prisoner_id, p.staff_id
    from unnest(${sql.param(probes.map((p) => p.cell))}::bigint[], ${sql.param(probes.map((p) => iso(p.from)))}::timestamptz[],
      ${sql.param(probes.map((p) => iso(p.to)))}::timestamptz[]) as q(cell, t0, t1)
    cross join lateral (
      select * from positions p
      where ${GRID_CELL_SQL} = q.cell and p.recorded_at >= q.t0 and p.recorded_at <= q.t1
    ) p
    where ${notSubject} and ${nobodyOrInCaseload(sql.raw('p.prisoner_id'), blocks) ?? sql`true`}`;
}

/**
 * The fixes in the probes' cells and intervals (one index range of positions_grid_time_idx each), leaving out the
 * subject's own and the prisoners outside the caseload.
 */
export async function fixesInProbes(db: DbOrTx, probes: readonly Probe[], subject: PersonRef | null, blocks: Caseload): Promise<WornFix[]> {
  if (probes.length === 0) return [];
  const result = (await db.execute(fixesInProbesSql(probes, subject, blocks))) as unknown as Rows<WornRow>;
  return result.rows.map((r) => ({ t: Number(r.t), lat: r.lat, lng: r.lng, prisonerId: r.prisoner_id, staffId: r.staff_id }));
}

/** The great-circle distance of haversineMeters, the same float8 operations in the same order. */
function haversineSql(lat1: SQL, lng1: SQL, lat2: SQL, lng2: SQL): SQL {
  const rad = sql.raw(`${DEG_TO_RAD}::float8`);
  const sinHalf = (a: SQL, b: SQL) => sql`sin((${b} - ${a}) * ${rad} * 0.5::float8)`;
  const a = sql`${sinHalf(lat1, lat2)} * ${sinHalf(lat1, lat2)} + cos(${lat1} * ${rad}) * cos(${lat2} * ${rad}) * ${sinHalf(lng1, lng2)} * ${sinHalf(lng1, lng2)}`;
  return sql`(${sql.raw(`${2 * EARTH_RADIUS_METERS}::float8`)} * asin(sqrt(least(1::float8, ${a}))))`;
}

export interface NearSubject {
  /** The person, or null for a place. */
  person: PersonRef | null;
  /** The place (unused for a person). */
  lat?: number;
  lng?: number;
}

/**
 * Who was near, matched in the database (the rule of near-matching.ts, which it must answer exactly as): the others'
 * fixes in the probes' cells and intervals (one range of positions_grid_time_idx each), each compared with the
 * subject's fix nearest in time within NEAR_MATCH_SECONDS (the nearer of two as near), kept within radiusM, and
 * grouped per person. The subject's fixes near a candidate in time are one range of the prisoner's (or staff) time
 * index. Only the people come back, not the fixes, so the server's thread does no work per fix.
 */
export function peopleNearInProbesSql(probes: readonly Probe[], subject: NearSubject, radiusM: number, blocks: Caseload): SQL {
  const person = subject.person;
  const personField = person ? (person.kind === 'prisoner' ? 'prisoner_id' : 'staff_id') : null;
  const notSubject: SQL = personField ? sql`${sql.raw(`p.${personField}`)} is distinct from ${person!.id}` : sql`true`;
  const matchMs = NEAR_MATCH_SECONDS * 1000;
  const c = (column: string) => sql.raw(`c.${column}`);
  const SMS = sql.raw(`floor(extract(epoch from sp.recorded_at) * 1000 + 0.5)::float8`);
  // A person: the subject's fix nearest in time within the match (an index range of the prisoner's or staff index
  // per candidate; the nearer of two as near). A place: the place itself.
  const nearest = personField
    ? sql`(
        select ${haversineSql(c('lat'), c('lng'), sql`sp.latitude`, sql`sp.longitude`)} as d
        from positions sp
        where ${sql.raw(`sp.${personField}`)} = ${person!.id}
          and sp.recorded_at >= c.recorded_at - interval '${sql.raw(String(matchMs + 1))} milliseconds'
          and sp.recorded_at <= c.recorded_at + interval '${sql.raw(String(matchMs + 1))} milliseconds'
          and abs(${SMS} - c.t) <= ${matchMs}
        order by abs(${SMS} - c.t), 1
        limit 1)`
    : haversineSql(c('lat'), c('lng'), sql`${subject.lat!}::float8`, sql`${subject.lng!}::float8`);
  return sql`
    with candidates as (
      select ${MS} as t, p.recorded_at, p.latitude as lat, p.longitude as lng, p.prisoner_id,
        case when p.prisoner_id is null then p.staff_id end as staff_id
      from unnest(${sql.param(probes.map((p) => p.cell))}::bigint[], ${sql.param(probes.map((p) => iso(p.from)))}::timestamptz[],
        ${sql.param(probes.map((p) => iso(p.to)))}::timestamptz[]) as q(cell, t0, t1)
      cross join lateral (
        select * from positions p
        where ${GRID_CELL_SQL} = q.cell and p.recorded_at >= q.t0 and p.recorded_at <= q.t1
      ) p
      where (p.prisoner_id is not null or p.staff_id is not null) and ${notSubject}
        and ${nobodyOrInCaseload(sql.raw('p.prisoner_id'), blocks) ?? sql`true`}
    ),
    matched as materialized (
      select c.t, c.lat, c.lng, c.prisoner_id, c.staff_id, ${nearest} as d from candidates c
    )
    select distinct on (prisoner_id, staff_id) prisoner_id, staff_id, t, lat, lng, d,
      min(t) over person as first_at, max(t) over person as last_at, count(*) over person as fixes
    from matched
    where d <= ${radiusM}
    window person as (partition by prisoner_id, staff_id)
    order by prisoner_id, staff_id, d, t`;
}

interface NearRow {
  prisoner_id: number | null;
  staff_id: number | null;
  t: number;
  lat: number;
  lng: number;
  d: number;
  first_at: number;
  last_at: number;
  fixes: number | string;
}

/** The people near the subject in the probes (peopleNearInProbesSql), in no particular order. */
export async function peopleNearInProbes(
  db: DbOrTx,
  probes: readonly Probe[],
  subject: NearSubject,
  radiusM: number,
  blocks: Caseload,
): Promise<PersonNear[]> {
  if (probes.length === 0) return [];
  const result = (await db.execute(peopleNearInProbesSql(probes, subject, radiusM, blocks))) as unknown as Rows<NearRow>;
  return result.rows.map((r) => ({
    prisonerId: r.prisoner_id,
    staffId: r.staff_id,
    firstAt: Number(r.first_at),
    lastAt: Number(r.last_at),
    minDistanceM: r.d,
    fixes: Number(r.fixes),
    closest: { t: Number(r.t), lat: r.lat, lng: r.lng },
  }));
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
 * A worn tracker reports at least every 60 s (decision 068), so the last minute before a moment holds the last fix of
 * nearly every tracker: read as one time range (the fixes are stored in about the order they arrive, so that range
 * is a few neighbouring pages), not as one descent per tracker into a different page of the (device, time) index.
 */
export const SNAPSHOT_RECENT_SECONDS = 60;

/**
 * Each known tracker's last fix at or before `at` and not older than offlineSeconds before it, in one pass over the
 * trackers: those with a fix in the last SNAPSHOT_RECENT_SECONDS take the newest of that time range of
 * positions_recorded_idx (a BRIN: `recent`); only the others (silent for a minute: unworn, switched off, out of range) cost a
 * backward descent of the (device, time) index, the lateral's `r.device_id is null` being checked once per tracker
 * before it. Exactly one of `r` and `o` holds a fix, so coalesce picks that fix's columns. The age is checked in the
 * lateral too, so the descent visits only the day partitions of the offline window, not every day kept; and outside
 * it, for the fixes of `recent`.
 */
export function lastFixesAtSql(at: number, offlineSeconds: number, blocks: Caseload): SQL {
  const recentFrom = iso(at - Math.min(offlineSeconds, SNAPSHOT_RECENT_SECONDS) * 1000);
  return sql`
    with recent as materialized (
      select distinct on (p.device_id) p.device_id, p.prisoner_id, p.staff_id, p.latitude, p.longitude, p.recorded_at
      from positions p
      where p.recorded_at > ${recentFrom}::timestamptz and p.recorded_at <= ${iso(at)}::timestamptz
      order by p.device_id, p.recorded_at desc
    )
    select p.device_id, p.prisoner_id, p.staff_id, p.latitude, p.longitude, ${MS} as t
    from (
      select d.id as device_id, coalesce(r.prisoner_id, o.prisoner_id) as prisoner_id, coalesce(r.staff_id, o.staff_id) as staff_id,
        coalesce(r.latitude, o.latitude) as latitude, coalesce(r.longitude, o.longitude) as longitude,
        coalesce(r.recorded_at, o.recorded_at) as recorded_at
      from devices d
      left join recent r on r.device_id = d.id
      left join lateral (
        select o.prisoner_id, o.staff_id, o.latitude, o.longitude, o.recorded_at from positions o
        where r.device_id is null and o.device_id = d.id and o.recorded_at <= ${recentFrom}::timestamptz
          and o.recorded_at >= ${iso(at - offlineSeconds * 1000)}::timestamptz
        order by o.recorded_at desc limit 1
      ) o on true
    ) p
    where p.recorded_at >= ${iso(at - offlineSeconds * 1000)}::timestamptz and ${nobodyOrInCaseload(sql.raw('p.prisoner_id'), blocks) ?? sql`true`}
    order by p.device_id`;
}

/** Each known tracker's last fix at `at` (lastFixesAtSql). */
export async function lastFixesAt(db: DbOrTx, at: number, offlineSeconds: number, blocks: Caseload): Promise<LastFix[]> {
  const result = (await db.execute(lastFixesAtSql(at, offlineSeconds, blocks))) as unknown as Rows<LastFix>;
  return result.rows.map((r) => ({ ...r, t: Number(r.t) }));
}

export interface PersonName {
  name: string;
  /** null for staff. */
  prisonNumber: string | null;
}

/** The names of these people, `First Last`, by `prisoner:ID` / `staff:ID`; a prisoner's prison number beside it. */
export async function peopleNames(db: DbOrTx, prisonerIds: number[], staffIds: number[]): Promise<Map<string, PersonName>> {
  const names = new Map<string, PersonName>();
  if (prisonerIds.length > 0) {
    const rows = (await db.execute(sql`select prisoner_id as id, first_name || ' ' || last_name as name, prison_number from prisoners
      where prisoner_id = any(${sql.param(prisonerIds)}::int[])`)) as unknown as Rows<{ id: number; name: string; prison_number: string }>;
    for (const r of rows.rows) names.set(`prisoner:${r.id}`, { name: r.name.trim(), prisonNumber: r.prison_number });
  }
  if (staffIds.length > 0) {
    const rows = (await db.execute(sql`select staff_id as id, first_name || ' ' || last_name as name from staff
      where staff_id = any(${sql.param(staffIds)}::int[])`)) as unknown as Rows<{ id: number; name: string }>;
    for (const r of rows.rows) names.set(`staff:${r.id}`, { name: r.name.trim(), prisonNumber: null });
  }
  return names;
}
