// bench/history: one prisoner's 24-hour track (86,400 fixes at 1 Hz) read through the real history service from a
// PostgreSQL table of about 10 million fixes. Prints p50/p95 beside baselines measured in the same run.
//
//   npm run history -w @prison/bench            (HISTORY_BENCH_DEVICES=116 HISTORY_BENCH_RUNS=40 by default)
//
// Creates its own database on 127.0.0.1 (user postgres, or BENCH_PG_URL) and drops it at the end.
import { randomBytes } from 'node:crypto';
import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { fromPostgres } from '../../apps/server/src/db/client';
import { readFixes, readHistory } from '../../apps/server/src/modules/location/history-service';
import { percentile, printFigures, type Figure } from '../lib/report';

const ADMIN_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DEVICES = Number(process.env.HISTORY_BENCH_DEVICES ?? 116);
const RUNS = Number(process.env.HISTORY_BENCH_RUNS ?? 40);
const SECONDS = 86_400;
const DAY_START = Date.parse('2026-01-15T00:00:00Z');
const PRISONER = 7;

const ms = (t0: number) => performance.now() - t0;
const log = (text: string) => console.log(`[history bench] ${text}`);

async function timed<T>(runs: number, fn: () => Promise<T>): Promise<{ times: number[]; last: T }> {
  const times: number[] = [];
  let last!: T;
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    last = await fn();
    times.push(ms(t0));
  }
  return { times: times.sort((a, b) => a - b), last };
}

async function fill(client: pg.Client) {
  // Bulk load without the secondary indexes, then build them once: the way a large import is done.
  const { rows: indexes } = await client.query<{ indexname: string; indexdef: string }>(
    `select indexname, indexdef from pg_indexes where tablename = 'positions' and indexname <> 'positions_pkey'`,
  );
  for (const index of indexes) await client.query(`drop index ${index.indexname}`);
  await client.query(`insert into prisoners (prisoner_id, first_name, last_name, status)
    select d, 'Bench', 'Prisoner ' || d, 'Incarcerated' from generate_series(1, ${DEVICES}) d`);
  // Time-major order, as fixes really arrive: every second, one fix from each device.
  const hoursPerChunk = 3;
  for (let hour = 0; hour < 24; hour += hoursPerChunk) {
    const t0 = performance.now();
    await client.query(`
      insert into positions (device_id, prisoner_id, recorded_at, received_at, latitude, longitude, speed, accuracy, battery)
      select 'bench-' || d, d, ts, ts, 51.5 + 0.004 * sin(s / 900.0 + d), -0.12 + 0.006 * cos(s / 700.0 + d), 1.2, 5, 80
      from generate_series(${hour * 3600}, ${(hour + hoursPerChunk) * 3600 - 1}) s
      cross join generate_series(1, ${DEVICES}) d
      cross join lateral (select to_timestamp(${DAY_START / 1000} + s) as ts) t`);
    log(`filled hours ${hour}-${hour + hoursPerChunk} in ${(ms(t0) / 1000).toFixed(1)} s`);
  }
  const t0 = performance.now();
  for (const index of indexes) await client.query(index.indexdef);
  log(`built ${indexes.length} indexes in ${(ms(t0) / 1000).toFixed(1)} s`);
  await client.query('vacuum analyze positions');
  // Geofences to time, and alerts in the range, like a real site.
  await client.query(`insert into geofences (geofence_id, name, shape, type, alert_type, radius, center_lat, center_lng)
    select 'bench-circle-' || g, 'Circle ' || g, 'Circle', 'Positive', 'Warning', 150 + g * 20, 51.5 + 0.001 * g, -0.12 - 0.001 * g
    from generate_series(1, 10) g`);
  await client.query(`insert into geofences (geofence_id, name, shape, type, alert_type, coordinates)
    select 'bench-poly-' || g, 'Polygon ' || g, 'Polygon', 'Negative', 'Critical',
      jsonb_build_array(jsonb_build_array(51.497 + 0.0005 * g, -0.125), jsonb_build_array(51.503, -0.124 + 0.0003 * g),
        jsonb_build_array(51.502, -0.115), jsonb_build_array(51.498, -0.117), jsonb_build_array(51.4985, -0.121))
    from generate_series(1, 10) g`);
  await client.query(`insert into alerts (alert_type, kind, details, date, timestamp, prisoner_id)
    select 'Warning', 'geofence', 'bench alert ' || i, '2026-01-15', to_timestamp(${DAY_START / 1000} + i * 1800), ${PRISONER}
    from generate_series(0, 47) i`);
}

async function main() {
  const name = `prison_bench_history_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  const database = fromPostgres(url.toString(), 4);
  const client = new pg.Client({ connectionString: url.toString() });
  try {
    await database.migrate();
    await client.connect();
    const tFill = performance.now();
    await fill(client);
    const fillSeconds = ms(tFill) / 1000;
    const {
      rows: [stats],
    } = await client.query<{ n: string; size: string }>(
      `select count(*)::text as n, pg_size_pretty(pg_total_relation_size('positions')) as size from positions`,
    );
    log(
      `${Number(stats!.n).toLocaleString('en-US')} fixes (${stats!.size} with indexes), filled in ${fillSeconds.toFixed(0)} s`,
    );

    const from = new Date(DAY_START).toISOString();
    const to = new Date(DAY_START + SECONDS * 1000 - 1).toISOString();
    const query = { prisoner_id: PRISONER, from, to, max_points: 2000 };
    await timed(3, () => readHistory(database.db, query)); // warm-up

    const thinned = await timed(RUNS, () => readHistory(database.db, query));
    const thinnedBytes = JSON.stringify(thinned.last).length;
    log(
      `thinned answer: ${thinned.last.points.length} of ${thinned.last.total} fixes, ${(thinnedBytes / 1024).toFixed(0)} KiB JSON, ` +
        `${(thinned.last.distance_m / 1000).toFixed(1)} km, ${thinned.last.geofence_time.length} geofences, ${thinned.last.alerts.length} alerts`,
    );

    // Baseline 1: the same service without thinning, i.e. every fix sent to the browser (timed with its JSON).
    const unthinned = await timed(Math.max(5, Math.floor(RUNS / 4)), async () => {
      const full = await readHistory(database.db, { ...query, max_points: 100_000 });
      return JSON.stringify(full).length;
    });
    const thinnedWithJson = await timed(
      Math.max(5, Math.floor(RUNS / 4)),
      async () => JSON.stringify(await readHistory(database.db, query)).length,
    );

    // Baseline 2: the service's fixes query alone, with the index, and on a connection that may not use indexes.
    const indexed = await timed(RUNS, () => readFixes(database.db, PRISONER, new Date(from), new Date(to)));
    const noIndexUrl = new URL(url);
    noIndexUrl.searchParams.set(
      'options',
      '-c enable_indexscan=off -c enable_indexonlyscan=off -c enable_bitmapscan=off',
    );
    const noIndexDb = fromPostgres(noIndexUrl.toString(), 1);
    const noIndex = await timed(3, () => readFixes(noIndexDb.db, PRISONER, new Date(from), new Date(to)));
    await noIndexDb.close();
    // Where the time goes on a busy machine: the database's own execution time of the packed read (the same SQL as
    // readFixes), and the CPU this process spends per history call (neither counts time spent waiting for a core).
    const { rows: plan } = await client.query(
      `explain (analyze, costs off) select string_agg(float8send(date_part('epoch', recorded_at) * 1000) || float8send(latitude)
         || float8send(longitude) || coalesce(float4send(speed), decode('7fc00000', 'hex')) || coalesce(float4send(accuracy), decode('7fc00000', 'hex')),
         ''::bytea order by recorded_at) from positions where prisoner_id = ${PRISONER} and recorded_at >= '${from}' and recorded_at <= '${to}'`,
    );
    const planText = plan.map((r) => Object.values(r)[0] as string);
    log(`plan: ${planText.join(' | ')}`);
    const dbMs = Number(/Execution Time: ([\d.]+) ms/.exec(planText.join('\n'))?.[1] ?? NaN);
    const cpu: number[] = [];
    for (let i = 0; i < 10; i++) {
      const before = process.cpuUsage();
      await readHistory(database.db, query);
      const used = process.cpuUsage(before);
      cpu.push((used.user + used.system) / 1000);
    }
    cpu.sort((a, b) => a - b);
    if (thinned.last.total !== SECONDS) throw new Error(`expected ${SECONDS} fixes, read ${thinned.last.total}`);

    const figures: Figure[] = [
      {
        name: 'history p50 (thinned to 2,000 points)',
        value: percentile(thinned.times, 50),
        unit: 'ms',
        baseline: percentile(unthinned.times, 50),
      },
      {
        name: 'history p95 (thinned to 2,000 points)',
        value: percentile(thinned.times, 95),
        unit: 'ms',
        baseline: percentile(unthinned.times, 95),
        target: '<= 300 ms',
      },
      {
        name: 'history p95 incl. JSON (thinned vs all 86,400)',
        value: percentile(thinnedWithJson.times, 95),
        unit: 'ms',
        baseline: percentile(unthinned.times, 95),
      },
      {
        name: 'answer size (thinned vs all 86,400)',
        value: thinnedBytes / 1024,
        unit: 'KiB',
        baseline: unthinned.last / 1024,
      },
      {
        name: 'fixes query p50 (index vs no index)',
        value: percentile(indexed.times, 50),
        unit: 'ms',
        baseline: percentile(noIndex.times, 50),
      },
      {
        name: 'fixes query p95 (index vs no index)',
        value: percentile(indexed.times, 95),
        unit: 'ms',
        baseline: percentile(noIndex.times, 95),
      },
      { name: 'database execution of the packed read', value: dbMs, unit: 'ms' },
      { name: 'server CPU per history call (p50)', value: percentile(cpu, 50), unit: 'ms' },
    ];
    printFigures(
      `Location history: 24 h of 1 Hz fixes (86,400) of one prisoner from ${Number(stats!.n).toLocaleString('en-US')} stored fixes, PostgreSQL, ${RUNS} runs`,
      figures,
    );
    const p95 = percentile(thinned.times, 95);
    console.log(p95 <= 300 ? `PASS: p95 ${p95.toFixed(0)} ms <= 300 ms` : `MISS: p95 ${p95.toFixed(0)} ms > 300 ms`);
    // Figures on a shared machine mean little without its load beside them.
    console.log(
      `load average at the end of the run: ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')} on ${cpus().length} cores`,
    );
  } finally {
    await client.end().catch(() => undefined);
    await database.close();
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
