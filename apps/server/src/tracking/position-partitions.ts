// The day partitions of `positions` (UTC days on recorded_at): made ahead of time so the default partition only ever
// holds the rare fix of a day not made yet (a late upload, a restored backup), those fixes moved into their own day,
// and whole expired days detached and dropped instead of deleted row by row.
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';

const DAY_MS = 86_400_000;
/** Days made ahead of today: a missed daily pass (a restart, a leader change) still finds tomorrow made. */
export const PARTITION_DAYS_AHEAD = 3;
const DEFAULT_PARTITION = 'positions_default';
const NAME_PATTERN = /^positions_(\d{4})(\d{2})(\d{2})$/;

/** The UTC day (00:00) holding this moment, as epoch ms. */
const dayStart = (ms: number) => Math.floor(ms / DAY_MS) * DAY_MS;
const isoDay = (dayMs: number) => new Date(dayMs).toISOString().slice(0, 10);

/** A day's partition name, positions_YYYYMMDD. */
export const partitionName = (dayMs: number) => `positions_${isoDay(dayMs).replaceAll('-', '')}`;

type Rows<T> = { rows: T[] };

/** The day partitions that exist, oldest first, by the day they hold (epoch ms of its 00:00 UTC). */
export async function listDayPartitions(db: DbOrTx): Promise<{ name: string; day: number }[]> {
  const result = (await db.execute(sql`
    select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid
    where i.inhparent = 'positions'::regclass`)) as unknown as Rows<{ name: string }>;
  const days: { name: string; day: number }[] = [];
  for (const { name } of result.rows) {
    const match = NAME_PATTERN.exec(name);
    if (match) days.push({ name, day: Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])) });
  }
  return days.sort((a, b) => a.day - b.day);
}

/**
 * Makes one day's partition: a table like positions, the fixes of that day the default partition holds moved into
 * it, then attached (which builds its indexes). The default partition is locked against writes first, so no fix of
 * that day lands there between the move and the attach (which checks the default holds none).
 */
async function makeDay(db: DbOrTx, dayMs: number): Promise<void> {
  const name = sql.identifier(partitionName(dayMs));
  const from = `${isoDay(dayMs)} 00:00:00+00`;
  const to = `${isoDay(dayMs + DAY_MS)} 00:00:00+00`;
  await db.transaction(async (tx) => {
    await tx.execute(sql`lock table ${sql.identifier(DEFAULT_PARTITION)} in exclusive mode`);
    await tx.execute(sql`create table ${name} (like positions including defaults) with (autovacuum_vacuum_insert_scale_factor = 0.01)`);
    await tx.execute(sql`
      with moved as (
        delete from ${sql.identifier(DEFAULT_PARTITION)} where recorded_at >= ${from}::timestamptz and recorded_at < ${to}::timestamptz returning *
      )
      insert into ${name} select * from moved`);
    await tx.execute(sql.raw(`alter table positions attach partition "${partitionName(dayMs)}" for values from ('${from}') to ('${to}')`));
  });
}

/** The days (00:00 UTC, epoch ms) of the fixes the default partition holds. */
async function daysInDefault(db: DbOrTx): Promise<number[]> {
  const result = (await db.execute(sql`
    select distinct floor(extract(epoch from recorded_at) / 86400)::float8 * 86400000 as day
    from ${sql.identifier(DEFAULT_PARTITION)}`)) as unknown as Rows<{ day: number | string }>;
  return result.rows.map((r) => Number(r.day));
}

/**
 * Makes every missing partition from yesterday to PARTITION_DAYS_AHEAD days ahead, and one for each day the default
 * partition holds fixes of that retention keeps (those fixes move there). Answers the partitions made.
 */
export async function ensurePositionPartitions(db: DbOrTx, { now = new Date(), keepFrom }: { now?: Date; keepFrom?: Date } = {}): Promise<string[]> {
  const today = dayStart(now.getTime());
  const wanted = new Set<number>();
  for (let d = -1; d <= PARTITION_DAYS_AHEAD; d++) wanted.add(today + d * DAY_MS);
  const oldest = keepFrom ? dayStart(keepFrom.getTime()) : -Infinity;
  for (const day of await daysInDefault(db)) if (day >= oldest) wanted.add(day);
  const existing = new Set((await listDayPartitions(db)).map((p) => p.day));
  const made: string[] = [];
  for (const day of [...wanted].sort((a, b) => a - b)) {
    if (existing.has(day)) continue;
    await makeDay(db, day);
    made.push(partitionName(day));
  }
  return made;
}

/**
 * Detaches and drops every day partition wholly before `cutoff` (the day holding the cutoff stays, so no fix younger
 * than the retention goes; older ones in it go with the next day's pass). Answers the fixes they held.
 */
export async function dropExpiredPartitions(db: DbOrTx, cutoff: Date): Promise<number> {
  let dropped = 0;
  for (const { name, day } of await listDayPartitions(db)) {
    if (day + DAY_MS > cutoff.getTime()) break;
    const table = sql.identifier(name);
    const counted = (await db.execute(sql`select count(*)::float8 as n from ${table}`)) as unknown as Rows<{ n: number | string }>;
    // Detached first: the drop then takes no lock on positions, only on the table nobody reads any more.
    await db.execute(sql`alter table positions detach partition ${table}`);
    await db.execute(sql`drop table ${table}`);
    dropped += Number(counted.rows[0]?.n ?? 0);
  }
  return dropped;
}

/** Deletes the default partition's fixes older than `cutoff`, batchSize at a time; answers how many. */
export async function deleteExpiredDefaultRows(db: DbOrTx, cutoff: Date, batchSize: number): Promise<number> {
  const table = sql.identifier(DEFAULT_PARTITION);
  let deleted = 0;
  for (;;) {
    const result = (await db.execute(sql`
      delete from ${table} where ctid = any(array(
        select ctid from ${table} where recorded_at < ${cutoff.toISOString()}::timestamptz limit ${batchSize}
      ))`)) as unknown as { rowCount?: number | null; affectedRows?: number };
    const count = result.rowCount ?? result.affectedRows ?? 0;
    deleted += count;
    if (count < batchSize) return deleted;
  }
}

const PACKED = 'packed';

/**
 * Rebuilds the indexes of each day closed for over a day, once (the day's table is then marked packed): fixes arrive
 * in time order across every tracker, so the device, prisoner and grid indexes grow by splitting pages all over and
 * end about half full; built again from the whole day they are packed. Concurrently, so readers and a late fix never
 * wait. Answers the days packed. Not inside a transaction (db is the database itself).
 */
export async function packClosedDays(db: DbOrTx, now = new Date()): Promise<string[]> {
  const closedBefore = dayStart(now.getTime()) - DAY_MS;
  const result = (await db.execute(sql`
    select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid
    where i.inhparent = 'positions'::regclass and obj_description(c.oid, 'pg_class') is distinct from ${PACKED}`)) as unknown as Rows<{ name: string }>;
  const unpacked = new Set(result.rows.map((r) => r.name));
  const packed: string[] = [];
  for (const { name, day } of await listDayPartitions(db)) {
    if (day >= closedBefore || !unpacked.has(name)) continue;
    await db.execute(sql`reindex table concurrently ${sql.identifier(name)}`);
    await db.execute(sql.raw(`comment on table "${name}" is '${PACKED}'`));
    packed.push(name);
  }
  return packed;
}
