// positions partitioned by day, on both engines: the migration from the plain table keeps every fix (a count and a
// checksum before and after); the days ahead are made and a fix of a day without a partition still lands (the default
// partition) and later moves into its day; retention drops whole days and keeps every fix younger than the retention;
// the closed days' indexes are packed once.
import { rmSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createPglite, migrationsFolder, type Db, type DbOrTx } from '../db/client';
import { migrationsBefore } from '../../test/migrations-before';
import { createScratchDatabase, createTestDatabase, describeEachEngine, type Engine } from '../../test/test-db';
import { deleteExpiredPositions } from './retention-job';
import { listDayPartitions, packClosedDays, partitionName, PARTITION_DAYS_AHEAD } from './position-partitions';

const DAY = 86_400_000;
const PARTITIONED_AT = 44;

type Rows<T> = { rows: T[] };
const rowsOf = async <T>(db: DbOrTx, query: ReturnType<typeof sql>) => ((await db.execute(query)) as unknown as Rows<T>).rows;

/** Every column of every fix of `from` (a table or a subquery), in key order, as one digest; and the count. */
async function fingerprint(db: DbOrTx, from: string): Promise<{ n: number; digest: string }> {
  const [row] = await rowsOf<{ n: number | string; digest: string | null }>(
    db,
    sql.raw(`select count(*)::int as n, md5(string_agg(concat_ws('|', device_id, prisoner_id, staff_id, extract(epoch from recorded_at),
      extract(epoch from received_at), latitude::text, longitude::text, accuracy, speed, bearing, altitude, battery), ',' order by device_id, recorded_at)) as digest
      from ${from}`),
  );
  return { n: Number(row!.n), digest: row!.digest ?? '' };
}

/** Three trackers, a fix every 7 minutes over six days, with and without a wearer and readings. */
const SEED = `
  insert into positions (device_id, prisoner_id, staff_id, recorded_at, received_at, latitude, longitude, accuracy, speed, bearing, altitude, battery)
  select 'tag-' || d, case when d < 3 then d end, case when d = 3 then 7 end,
    timestamptz '2026-03-01 00:00:00+00' + g * interval '7 minutes' + d * interval '1 second',
    timestamptz '2026-03-01 00:00:00+00' + g * interval '7 minutes' + interval '2.5 seconds',
    51.5 + g * 1e-6 + d * 0.0123456789, -0.12 - g * 1e-6, case when g % 5 = 0 then null else 4.5 end, 1.25, (g % 360)::real, 12.5, 80 - (g % 50)
  from generate_series(0, 6 * 24 * 60 / 7) g, generate_series(1, 3) d`;

/** Fixes not in the partition of their own UTC day. */
const MISPLACED = `select count(*)::int as n from positions where tableoid::regclass::text <> 'positions_' || to_char(recorded_at at time zone 'UTC', 'YYYYMMDD')`;

/** A database at the schema before partitioning: its migrate(folder) applies a folder's migrations. */
async function unmigratedDatabase(engine: Engine) {
  if (engine === 'pglite') {
    const client = await createPglite();
    const db = drizzlePglite(client);
    return { db: db as unknown as Db, migrate: (folder: string) => migratePglite(db, { migrationsFolder: folder }), close: () => client.close() };
  }
  const scratch = await createScratchDatabase('prison_partitions', { migrated: false });
  const pool = new pg.Pool({ connectionString: scratch.url, max: 2 });
  const db = drizzlePg(pool);
  return {
    db: db as unknown as Db,
    migrate: (folder: string) => migratePg(db, { migrationsFolder: folder }),
    close: async () => {
      await pool.end();
      await scratch.drop();
    },
  };
}

describeEachEngine('positions partitioned by day', (engine) => {
  it('the migration from the plain table keeps every fix: the same count and checksum, each day in its partition', async () => {
    const before = migrationsBefore(PARTITIONED_AT);
    const database = await unmigratedDatabase(engine);
    try {
      await database.migrate(before);
      await database.db.execute(sql.raw(SEED));
      const plain = await fingerprint(database.db, 'positions');
      expect(plain.n).toBe(3 * (Math.floor((6 * 24 * 60) / 7) + 1));

      await database.migrate(migrationsFolder);
      expect(await fingerprint(database.db, 'positions')).toEqual(plain);
      expect(await fingerprint(database.db, 'positions_default')).toEqual({ n: 0, digest: '' });
      const days = (await listDayPartitions(database.db)).map((p) => p.name);
      for (let d = 0; d <= 5; d++) expect(days).toContain(partitionName(Date.UTC(2026, 2, 1 + d)));
      expect(await rowsOf(database.db, sql.raw(MISPLACED))).toEqual([{ n: 0 }]);
    } finally {
      await database.close();
      rmSync(before, { recursive: true, force: true });
    }
  }, 180_000); // migrates a filled table on a fresh database: slow on a loaded machine

  describeRetention(engine);
});

function describeRetention(engine: Engine) {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  beforeAll(async () => {
    database = await createTestDatabase(engine);
  });
  afterAll(() => database.close());

  it('retention drops whole expired days and keeps every fix younger than the retention; a day without a partition still takes fixes', async () => {
    const db = database.db;
    const now = Date.parse('2031-05-20T09:30:00Z');
    // A fix an hour over twelve days before now, and one the day after the days made ahead (no partition there).
    await db.execute(sql`
      insert into positions (device_id, prisoner_id, recorded_at, latitude, longitude)
      select 'kept-tag', 1, ${new Date(now).toISOString()}::timestamptz - g * interval '1 hour', 51.5, -0.12 from generate_series(0, 12 * 24) g`);
    const beyond = new Date(now + (PARTITION_DAYS_AHEAD + 2) * DAY).toISOString();
    await db.execute(sql`insert into positions (device_id, recorded_at, latitude, longitude) values ('kept-tag', ${beyond}::timestamptz, 51.5, -0.12)`);

    const cutoff = new Date(now - 7 * DAY).toISOString();
    const younger = `(select * from positions where recorded_at >= '${cutoff}'::timestamptz) y`;
    const keptBefore = await fingerprint(db, younger);
    const total = (await fingerprint(db, 'positions')).n;

    const deleted = await deleteExpiredPositions(db, 7, { now: new Date(now) });
    // Days wholly before the cutoff are gone: the fixes of 13 May 00:00 and before (the cutoff day, 13 May, stays).
    const firstKeptDay = Math.floor(Date.parse(cutoff) / DAY) * DAY;
    const days = await listDayPartitions(db);
    expect(days.every((p) => p.day >= firstKeptDay)).toBe(true);
    expect(days.map((p) => p.name)).toContain(partitionName(firstKeptDay));
    for (let d = -1; d <= PARTITION_DAYS_AHEAD; d++) expect(days.map((p) => p.name)).toContain(partitionName(Math.floor(now / DAY) * DAY + d * DAY));
    expect(await fingerprint(db, younger)).toEqual(keptBefore);
    expect(keptBefore.n).toBe(7 * 24 + 1 + 1);
    const left = (await fingerprint(db, 'positions')).n;
    expect(deleted).toBe(total - left);
    expect(deleted).toBeGreaterThan(0);
    // The day beyond the days made ahead had its partition made when retention kept its fix.
    expect((await fingerprint(db, 'positions_default')).n).toBe(0);
    expect(days.map((p) => p.name)).toContain(partitionName(Math.floor(Date.parse(beyond) / DAY) * DAY));

    // The days closed for over a day have their indexes packed, once; yesterday's are left as they are.
    const packed = await packClosedDays(db, new Date(now));
    expect(packed).toContain(partitionName(firstKeptDay));
    expect(packed).not.toContain(partitionName(Math.floor(now / DAY) * DAY - DAY));
    expect(await packClosedDays(db, new Date(now))).toEqual([]);
    expect(await fingerprint(db, younger)).toEqual(keptBefore);
  });
}
