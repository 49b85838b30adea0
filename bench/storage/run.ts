// bench/storage: what a stored fix costs on disk in the day-partitioned layout against today's plain table (the
// layout before migration 0044) in the same run, and the time to drop an expired day's partition against deleting
// the same day row by row as the retention job did (batches of 10,000 by id); last, the time migration 0044 takes to
// move the plain table's remaining fixes into day partitions.
//
//   npm run storage -w @prison/bench     (2,000 trackers, a fix every 50 s each, 3 simulated days: 10.4 million fixes)
//   STORAGE_BENCH_TRACKERS, STORAGE_BENCH_DAYS, STORAGE_BENCH_INTERVAL_S change those.
//
// Runs on a PostgreSQL cluster of its own (pg_createcluster on a port of 4732-4739, dropped at the end). The fixes
// go in through the server's own statement shape (pipeline/persist.ts): one JSON parameter per statement read with
// json_to_recordset, `on conflict (device_id, recorded_at) do nothing`, 20,000 fixes a statement; not COPY.
import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { rmSync } from 'node:fs';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import { fromPostgres } from '../../apps/server/src/db/client';
import { dropExpiredPartitions, ensurePositionPartitions, packClosedDays } from '../../apps/server/src/tracking/position-partitions';
import { createOwnPostgresCluster } from '../../apps/server/test/own-postgres-cluster';
import { migrationsBefore } from '../../apps/server/test/migrations-before';

const TRACKERS = Number(process.env.STORAGE_BENCH_TRACKERS ?? 2000);
const DAYS = Number(process.env.STORAGE_BENCH_DAYS ?? 3);
const INTERVAL_S = Number(process.env.STORAGE_BENCH_INTERVAL_S ?? 50);
const STAFF = Math.round(TRACKERS / 10);
const TICKS_PER_STATEMENT = Math.max(1, Math.floor(20_000 / TRACKERS));
const DAY_MS = 86_400_000;
const FIRST_DAY = Date.parse('2026-01-10T00:00:00Z');
const PORTS = [4732, 4733, 4734, 4735, 4736, 4737, 4738, 4739];

const log = (text: string) => console.log(`[storage bench] ${text}`);
const seconds = (t0: number) => ((performance.now() - t0) / 1000).toFixed(1);

// The columns and the statement of pipeline/persist.ts's insert of a batch's fixes.
const INSERT = `
  insert into positions (device_id, prisoner_id, staff_id, recorded_at, received_at, latitude, longitude, accuracy, speed, bearing, altitude, battery)
  select f.d, f.p, f.st, to_timestamp(f.t / 1000), to_timestamp(f.r / 1000), f.la, f.lo, f.a, f.s, f.b, f.al, f.ba
  from json_to_recordset($1::json) as f(d text, p int, st int, t float8, r float8, la float8, lo float8, a real, s real, b real, al real, ba real)
  on conflict (device_id, recorded_at) do nothing`;

/** Each tracker walks inside a prison of about 600 m by 400 m; readings as a wristband reports them. */
function trackers() {
  return Array.from({ length: TRACKERS }, (_, i) => ({
    d: `TRK-${String(i + 1).padStart(5, '0')}`,
    p: i < TRACKERS - STAFF ? i + 1 : null,
    st: i < TRACKERS - STAFF ? null : i - (TRACKERS - STAFF) + 1,
    lat: 51.5 + Math.random() * 0.004,
    lng: -0.12 + Math.random() * 0.008,
    battery: 100,
  }));
}

function tickFixes(walkers: ReturnType<typeof trackers>, at: number) {
  return walkers.map((w, i) => {
    w.lat = Math.min(51.504, Math.max(51.5, w.lat + (Math.random() - 0.5) * 4e-5));
    w.lng = Math.min(-0.112, Math.max(-0.12, w.lng + (Math.random() - 0.5) * 6e-5));
    w.battery = w.battery <= 5 ? 100 : w.battery - 0.01;
    const t = at + i * Math.floor((INTERVAL_S * 1000) / TRACKERS);
    return {
      d: w.d,
      p: w.p,
      st: w.st,
      t,
      r: t + 200 + Math.floor(Math.random() * 800),
      la: Math.round(w.lat * 1e7) / 1e7,
      lo: Math.round(w.lng * 1e7) / 1e7,
      a: Math.round((3 + Math.random() * 12) * 10) / 10,
      s: Math.round(Math.random() * 20) / 10,
      b: Math.floor(Math.random() * 360),
      al: null,
      ba: Math.round(w.battery),
    };
  });
}

async function load(client: pg.Client, ticks: number) {
  const walkers = trackers();
  for (let tick = 0; tick < ticks; tick += TICKS_PER_STATEMENT) {
    const fixes = [];
    for (let k = tick; k < Math.min(ticks, tick + TICKS_PER_STATEMENT); k++) fixes.push(...tickFixes(walkers, FIRST_DAY + k * INTERVAL_S * 1000));
    await client.query(INSERT, [JSON.stringify(fixes)]);
  }
}

interface Size {
  fixes: number;
  table: number;
  indexes: number;
}

/** Heap (with TOAST, free space and visibility maps) and indexes of a relation and, for a partitioned one, its partitions. */
async function sizeOf(client: pg.Client, relation: string, where = 'true'): Promise<Size> {
  const { rows } = await client.query<{ table: string; indexes: string }>(
    `select coalesce(sum(pg_table_size(relid)), 0)::text as table, coalesce(sum(pg_indexes_size(relid)), 0)::text as indexes
     from (select relid from pg_partition_tree($1::regclass) union select $1::regclass) t join pg_class c on c.oid = t.relid where c.relkind = 'r'`,
    [relation],
  );
  const counted = await client.query<{ n: string }>(`select count(*)::text as n from ${relation} where ${where}`);
  return { fixes: Number(counted.rows[0]!.n), table: Number(rows[0]!.table), indexes: Number(rows[0]!.indexes) };
}

const perFix = (size: Size) => {
  const b = (n: number) => (n / size.fixes).toFixed(1);
  return `${b(size.table + size.indexes)} bytes per stored fix (table ${b(size.table)} + indexes ${b(size.indexes)}; ${size.fixes.toLocaleString('en')} fixes, ${((size.table + size.indexes) / 1_048_576).toFixed(0)} MB)`;
};

async function indexSizes(client: pg.Client, relation: string) {
  const { rows } = await client.query<{ name: string; bytes: string }>(
    `select coalesce(pi.inhparent::regclass::text, i.indexrelid::regclass::text) as name, sum(pg_relation_size(i.indexrelid))::text as bytes
     from (select relid from pg_partition_tree($1::regclass) union select $1::regclass) t join pg_class c on c.oid = t.relid join pg_index i on i.indrelid = t.relid
     left join pg_inherits pi on pi.inhrelid = i.indexrelid
     where c.relkind = 'r' group by 1 order by 1`,
    [relation],
  );
  return rows.map((r) => `${r.name} ${(Number(r.bytes) / 1_048_576).toFixed(0)} MB`).join(', ');
}

async function main() {
  const ticks = Math.round((DAYS * DAY_MS) / (INTERVAL_S * 1000));
  log(`${TRACKERS} trackers, a fix every ${INTERVAL_S} s each, ${DAYS} days: ${(ticks * TRACKERS).toLocaleString('en')} fixes per layout; load ${loadavg().map((l) => l.toFixed(1)).join(' ')} on ${cpus().length} cores`);
  const cluster = await createOwnPostgresCluster('bench_storage', PORTS, 'storage_today');
  const before = migrationsBefore(44);
  // Stopped by hand: the cluster goes too.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      cluster.drop();
      process.exit(130);
    });
  }
  try {
    const admin = new pg.Client({ connectionString: cluster.url });
    await admin.connect();
    for (const setting of ["shared_buffers = '1GB'", "maintenance_work_mem = '512MB'", "max_wal_size = '8GB'", 'synchronous_commit = off', "checkpoint_timeout = '30min'"]) {
      await admin.query(`alter system set ${setting}`);
    }
    await admin.query('create database storage_days');
    await admin.end();
    cluster.stop();
    cluster.start();

    const todayUrl = cluster.url;
    const daysUrl = cluster.url.replace(/storage_today$/, 'storage_days');
    const todayPool = new pg.Pool({ connectionString: todayUrl, max: 1 });
    await migrate(drizzle(todayPool), { migrationsFolder: before });
    await todayPool.end();
    const daysDb = fromPostgres(daysUrl, 1);
    await daysDb.migrate();
    // The days the run covers are made the way the server makes them ahead.
    await ensurePositionPartitions(daysDb.db, { now: new Date(FIRST_DAY + DAY_MS) });
    for (let d = 2; d < DAYS; d++) await ensurePositionPartitions(daysDb.db, { now: new Date(FIRST_DAY + d * DAY_MS) });

    const today = new pg.Client({ connectionString: todayUrl });
    const days = new pg.Client({ connectionString: daysUrl });
    await Promise.all([today.connect(), days.connect()]);
    let t0 = performance.now();
    await Promise.all([load(today, ticks).then(() => log(`today's layout loaded in ${seconds(t0)} s`)), load(days, ticks).then(() => log(`day partitions loaded in ${seconds(t0)} s`))]);
    t0 = performance.now();
    await today.query('vacuum analyze positions');
    await days.query('vacuum analyze positions');
    log(`vacuumed in ${seconds(t0)} s`);

    const todaySize = await sizeOf(today, 'positions');
    const daysSize = await sizeOf(days, 'positions');
    const firstDay = `positions_${new Date(FIRST_DAY).toISOString().slice(0, 10).replaceAll('-', '')}`;
    const closedDay = await sizeOf(days, firstDay);
    console.log(`today's layout (one table, 6 indexes)     ${perFix(todaySize)}`);
    console.log(`  ${await indexSizes(today, 'positions')}`);
    console.log(`day partitions (migration 0044)          ${perFix(daysSize)}`);
    console.log(`  one closed day (${firstDay})  ${perFix(closedDay)}`);
    t0 = performance.now();
    const packed = await packClosedDays(daysDb.db, new Date(FIRST_DAY + DAYS * DAY_MS));
    log(`${packed.join(', ')} packed (indexes rebuilt concurrently) in ${seconds(t0)} s`);
    console.log(`  the closed day packed                 ${perFix(await sizeOf(days, firstDay))}`);
    console.log(`  every closed day packed               ${perFix(await sizeOf(days, 'positions'))}`);
    console.log(`  ${await indexSizes(days, 'positions')}`);

    // Retention of the first day: a whole partition dropped, against the same day deleted row by row.
    const cutoff = new Date(FIRST_DAY + DAY_MS);
    t0 = performance.now();
    const dropped = await dropExpiredPartitions(daysDb.db, cutoff);
    const dropMs = performance.now() - t0;
    t0 = performance.now();
    let deleted = 0;
    for (;;) {
      const result = await today.query(
        `delete from positions where id in (select id from positions where recorded_at < $1::timestamptz limit 10000)`,
        [cutoff.toISOString()],
      );
      deleted += result.rowCount ?? 0;
      if ((result.rowCount ?? 0) < 10_000) break;
    }
    const deleteMs = performance.now() - t0;
    console.log(`drop a day's partition (count, detach, drop)  ${(dropMs / 1000).toFixed(2)} s for ${dropped.toLocaleString('en')} fixes`);
    console.log(`delete the same day row by row (baseline)     ${(deleteMs / 1000).toFixed(2)} s for ${deleted.toLocaleString('en')} fixes`);

    // The upgrade: migration 0044 on what the plain table still holds, as an existing install would run it at start.
    await Promise.all([today.end(), days.end(), daysDb.close()]);
    const upgraded = fromPostgres(todayUrl, 1);
    t0 = performance.now();
    await upgraded.migrate();
    const migrateS = seconds(t0);
    const moved = (await upgraded.db.execute(sql`select count(*)::float8 as n from positions`)) as unknown as { rows: { n: number }[] };
    await upgraded.close();
    console.log(`migration 0044 (plain table -> day partitions)  ${migrateS} s for ${Number(moved.rows[0]!.n).toLocaleString('en')} fixes`);
  } finally {
    rmSync(before, { recursive: true, force: true });
    cluster.drop();
  }
}

await main();
