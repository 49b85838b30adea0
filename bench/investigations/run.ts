// bench/investigations: who was near one prisoner over 1 hour and 24 hours at 10 m, and everyone
// at a moment, from a table of stored fixes; each beside its baseline, the plain query without the grid key (decision
// 068), measured in the same run. PostgreSQL, then PGlite at a smaller size.
//
//   npm run investigations -w @prison/bench                          (2,000,000 fixes on PostgreSQL, 300,000 on PGlite)
//   npm run investigations -w @prison/bench -- --fixes 50000000 --pglite-fixes 1000000
//   ... --explain                     (first EXPLAIN (ANALYZE, BUFFERS) of each statement, subject 0 at the first moment)
//
// Creates the database investigations_bench (or --database NAME) on 127.0.0.1:5432 (or BENCH_PG_URL's server) and drops
// it at the end unless BENCH_KEEP=1; --reuse measures a kept one again after applying newer migrations.
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { sql, type SQL } from 'drizzle-orm';
import { DEFAULT_DEVICE_OFFLINE_SECONDS, METERS_PER_DEGREE, NEAR_MATCH_SECONDS } from '@prison/shared';
import { createPglite, fromPglite, fromPostgres, type Database } from '../../apps/server/src/db/client';
import { everyoneAt, whoWasNear } from '../../apps/server/src/modules/investigations/investigations-service';
import { fixesInProbesSql, lastFixesAtSql, personTrack } from '../../apps/server/src/modules/investigations/investigations-repository';
import { probesFor } from '../../apps/server/src/modules/investigations/near-probes';
import { fillWalkFixes } from '../lib/walk-fixes';
import { peopleNear, type WornFix } from '../../apps/server/src/modules/investigations/near-matching';
import { percentile, printFigures, type Figure } from '../lib/report';

const { values: args } = parseArgs({
  options: {
    fixes: { type: 'string', default: '2000000' },
    'pglite-fixes': { type: 'string', default: '300000' },
    runs: { type: 'string', default: '20' },
    engines: { type: 'string', default: 'postgres,pglite' },
    /** Measure again on the database a BENCH_KEEP=1 run left, without filling it (newer migrations are applied). */
    reuse: { type: 'boolean', default: false },
    /** The PostgreSQL database the bench creates, fills and (without BENCH_KEEP=1) drops. */
    database: { type: 'string', default: 'investigations_bench' },
    /** Print EXPLAIN (ANALYZE, BUFFERS) of each statement (subject 0, 1 h and 24 h; the snapshot) before measuring. */
    explain: { type: 'boolean', default: false },
  },
});
const ADMIN_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DB_NAME = args.database;
if (!/^[a-z_][a-z0-9_]*$/.test(DB_NAME)) throw new Error(`--database: a lower-case SQL name, not ${DB_NAME}`);
const RUNS = Number(args.runs);
/** Every tracker reports once a minute (the matching rule compares fixes up to 30 s apart). */
const INTERVAL_S = 60;
/** At least 26 hours of fixes, so a 24-hour window fits; at most 10,000 trackers. */
const MIN_SPAN_S = 26 * 3600;
const START = Date.parse('2026-03-01T00:00:00Z');
const RADIUS_M = 10;
/** The bench measures how long a question takes: no budget cuts it short. */
const BUDGET_MS = 600_000;

const log = (text: string) => console.log(`[investigations bench] ${text}`);
const elapsed = (t0: number) => performance.now() - t0;

interface Layout {
  devices: number;
  perDevice: number;
}

function layoutFor(fixes: number): Layout {
  const devices = Math.max(10, Math.min(10_000, Math.floor(fixes / (MIN_SPAN_S / INTERVAL_S))));
  return { devices, perDevice: Math.floor(fixes / devices) };
}

const run = (db: Database, text: string) => db.db.execute(sql.raw(text));

/**
 * Trackers spread over a site about 1.5 km across, each roaming about 60 m around its own spot, one fix a minute at
 * its own second of the minute; inserted time-major as fixes arrive (ordered: with few trackers a planner would
 * otherwise write them tracker by tracker), the secondary indexes built afterwards.
 */
async function fill(db: Database, { devices, perDevice }: Layout) {
  const { rows: indexes } = (await run(db, `select indexname, indexdef from pg_indexes where tablename = 'positions' and indexname <> 'positions_pkey'`)) as unknown as {
    rows: { indexname: string; indexdef: string }[];
  };
  for (const index of indexes) await run(db, `drop index ${index.indexname}`);
  await run(db, `insert into prisoners (prisoner_id, first_name, last_name, status)
    select d, 'Bench', 'Prisoner ' || d, 'Incarcerated' from generate_series(1, ${devices}) d`);
  await run(db, `insert into devices (id, name, secret_hash) select 'bench-' || d, 'Bench ' || d, 'x' from generate_series(1, ${devices}) d`);
  await fillWalkFixes(db, { trackers: devices, perTracker: perDevice, start: START, intervalS: INTERVAL_S, log });
  const t0 = performance.now();
  for (const index of indexes) await run(db, index.indexdef);
  log(`built ${indexes.length} indexes in ${(elapsed(t0) / 1000).toFixed(1)} s`);
  await run(db, 'vacuum analyze positions');
}

/** One registered tracker in 20 that stopped reporting after the first hour (unworn, in a drawer). */
const silentTrackers = (layout: Layout) => Math.ceil(layout.devices / 20);

/**
 * The silent trackers and their first hour of fixes, added once (a --reuse run finds them): the snapshot looks each of
 * them up and leaves it out as offline, as it does in a prison where some trackers lie unworn.
 */
async function addSilentTrackers(db: Database, layout: Layout) {
  const present = (await run(db, `select exists (select 1 from positions where device_id = 'bench-silent-1') as yes`)) as unknown as {
    rows: { yes: boolean }[];
  };
  if (present.rows[0]!.yes) return;
  const silent = silentTrackers(layout);
  await run(db, `insert into devices (id, name, secret_hash) select 'bench-silent-' || d, 'Bench silent ' || d, 'x' from generate_series(1, ${silent}) d`);
  await run(db, `
    insert into positions (device_id, recorded_at, received_at, latitude, longitude)
    select 'bench-silent-' || d, ts, ts, 51.5 + 0.0135 * (((d * 31) % 1000) / 1000.0 - 0.5), -0.12 + 0.02 * (((d * 17) % 997) / 997.0 - 0.5)
    from generate_series(0, 59) s cross join generate_series(1, ${silent}) d
    cross join lateral (select to_timestamp(${START / 1000} + s * ${INTERVAL_S} + d % ${INTERVAL_S}) as ts) t
    order by s, d`);
  await run(db, 'vacuum analyze positions');
}

/** The baseline's track and statement: every fix in the window and the subject track's box. */
async function nearPlainSql(db: Database, prisonerId: number, from: number, to: number) {
  const margin = NEAR_MATCH_SECONDS * 1000;
  const track = await personTrack(db.db, { kind: 'prisoner', id: prisonerId }, from - margin, to + margin);
  if (track.length === 0) return { track, statement: null };
  const dLat = RADIUS_M / METERS_PER_DEGREE;
  const dLng = dLat / Math.cos((track[0]!.lat * Math.PI) / 180);
  const lats = track.map((f) => f.lat);
  const lngs = track.map((f) => f.lng);
  const statement = sql`
    select floor(extract(epoch from recorded_at) * 1000 + 0.5)::float8 as t, latitude as lat, longitude as lng, prisoner_id, staff_id
    from positions
    where recorded_at >= ${new Date(from).toISOString()}::timestamptz and recorded_at <= ${new Date(to).toISOString()}::timestamptz
      and latitude between ${Math.min(...lats) - dLat} and ${Math.max(...lats) + dLat}
      and longitude between ${Math.min(...lngs) - dLng} and ${Math.max(...lngs) + dLng}
      and prisoner_id is distinct from ${prisonerId}`;
  return { track, statement };
}

/** The baseline: the plain query, matched the same way. */
async function nearPlain(db: Database, prisonerId: number, from: number, to: number) {
  const { track, statement } = await nearPlainSql(db, prisonerId, from, to);
  if (!statement) return [];
  const result = (await db.db.execute(statement)) as unknown as {
    rows: { t: number; lat: number; lng: number; prisoner_id: number | null; staff_id: number | null }[];
  };
  const fixes: WornFix[] = result.rows.map((r) => ({ t: Number(r.t), lat: r.lat, lng: r.lng, prisonerId: r.prisoner_id, staffId: r.staff_id }));
  return peopleNear(fixes, track, RADIUS_M);
}

/** The plain snapshot: every fix of the last offline period before `at`, the newest per device. */
function snapshotPlainSql(at: number) {
  return sql`
    select distinct on (device_id) device_id, prisoner_id, staff_id, latitude, longitude, recorded_at from positions
    where recorded_at <= ${new Date(at).toISOString()}::timestamptz
      and recorded_at >= ${new Date(at - DEFAULT_DEVICE_OFFLINE_SECONDS * 1000).toISOString()}::timestamptz
    order by device_id, recorded_at desc`;
}

/** The plain snapshot made into the same answer as everyoneAt's (one entry per tracker, the moment as ISO text). */
async function snapshotPlain(db: Database, at: number) {
  const result = (await db.db.execute(snapshotPlainSql(at))) as unknown as {
    rows: { device_id: string; prisoner_id: number | null; staff_id: number | null; latitude: number; longitude: number; recorded_at: string | Date }[];
  };
  return result.rows.map(({ recorded_at, ...fix }) => ({ ...fix, at: new Date(recorded_at).toISOString() }));
}

/** EXPLAIN (ANALYZE, BUFFERS) of each statement: near subject 0 over 1 h and 24 h, its baseline, the snapshot. */
async function explainAll(db: Database, layout: Layout, span: number) {
  const explain = async (title: string, statement: SQL) => {
    const result = (await db.db.execute(sql`explain (analyze, buffers) ${statement}`)) as unknown as { rows: Record<string, string>[] };
    log(`${title}\n${result.rows.map((r) => Object.values(r)[0]).join('\n')}`);
  };
  for (const window of [3_600_000, 24 * 3_600_000]) {
    const from = momentOf(0, span, window);
    const subject = { kind: 'prisoner' as const, id: subjectOf(0, layout) };
    const track = await personTrack(db.db, subject, from - NEAR_MATCH_SECONDS * 1000, from + window + NEAR_MATCH_SECONDS * 1000);
    const probes = probesFor(track, RADIUS_M, from, from + window);
    await explain(`near ${window / 3_600_000} h: ${track.length} subject fixes, ${probes.length} probes`, fixesInProbesSql(probes, subject, []));
    const plain = await nearPlainSql(db, subject.id, from, from + window);
    if (plain.statement) await explain(`near ${window / 3_600_000} h, plain`, plain.statement);
  }
  const at = momentOf(0, span, 3_600_000);
  await explain('snapshot', lastFixesAtSql(at, DEFAULT_DEVICE_OFFLINE_SECONDS, []));
  await explain('snapshot, plain', snapshotPlainSql(at));
}

async function timed(runs: number, fn: (i: number) => Promise<unknown>): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await fn(i);
    times.push(elapsed(t0));
  }
  return times.sort((a, b) => a - b);
}

/** A deterministic spread of subjects and moments, the same for the measured query and its baseline. */
const subjectOf = (i: number, layout: Layout) => 1 + ((i * 7_919) % layout.devices);
const momentOf = (i: number, span: number, window: number) => START + 3_600_000 + ((i * 104_729_000) % Math.max(1, span - window - 3_600_000));

async function measure(engine: string, db: Database, layout: Layout) {
  await addSilentTrackers(db, layout);
  const stored = Number(((await run(db, 'select count(*)::float8 as n from positions')) as unknown as { rows: { n: number }[] }).rows[0]!.n);
  const span = layout.perDevice * INTERVAL_S * 1000;
  const hour = 3_600_000;
  const day = 24 * hour;
  if (args.explain) await explainAll(db, layout, span);
  const near = (window: number) => (i: number) => {
    const from = momentOf(i, span, window);
    return whoWasNear(
      db,
      { prisoner_id: subjectOf(i, layout), from: new Date(from).toISOString(), to: new Date(from + window).toISOString(), radius_m: RADIUS_M },
      [],
      BUDGET_MS,
    );
  };
  const plain = (window: number) => (i: number) => {
    const from = momentOf(i, span, window);
    return nearPlain(db, subjectOf(i, layout), from, from + window);
  };
  // The grid answer and the plain one name the same people (a check, not a figure). Subjects and moments after the
  // measured ones, so the check warms the code and the connection, not the pages the measured runs read.
  for (let i = RUNS; i < RUNS + 3; i++) {
    const a = (await near(hour)(i)).data.map((p) => p.prisoner_id).sort();
    const b = (await plain(hour)(i)).map((p) => p.prisonerId).sort();
    if (JSON.stringify(a) !== JSON.stringify(b)) throw new Error(`near answers differ: ${a} vs ${b}`);
  }
  const dayRuns = Math.max(3, Math.floor(RUNS / 4));
  const near1h = await timed(RUNS, near(hour));
  const plain1h = await timed(Math.max(3, Math.floor(RUNS / 4)), plain(hour));
  const near24h = await timed(dayRuns, near(day));
  const plain24h = await timed(3, plain(day));
  const snapshotAt = (i: number) => momentOf(i, span, hour);
  // One untimed snapshot of each kind first, at a moment not measured (as the check does for near): the first call
  // of a code path in Node and in the database backend is not what an operator waits for.
  await everyoneAt(db, new Date(snapshotAt(RUNS)).toISOString(), DEFAULT_DEVICE_OFFLINE_SECONDS, [], BUDGET_MS);
  await snapshotPlain(db, snapshotAt(RUNS));
  const snapshot = await timed(RUNS, (i) => everyoneAt(db, new Date(snapshotAt(i)).toISOString(), DEFAULT_DEVICE_OFFLINE_SECONDS, [], BUDGET_MS));
  const snapshotBase = await timed(Math.max(3, Math.floor(RUNS / 4)), (i) => snapshotPlain(db, snapshotAt(i)));
  const found = (await near(hour)(0)).data.length;
  const figures: Figure[] = [
    { name: 'near, 1 h at 10 m, p95', value: percentile(near1h, 95), unit: 'ms', baseline: percentile(plain1h, 95), target: engine === 'postgres' ? '<= 300 ms' : '' },
    { name: 'near, 1 h at 10 m, p50', value: percentile(near1h, 50), unit: 'ms', baseline: percentile(plain1h, 50) },
    { name: 'near, 24 h at 10 m, p95', value: percentile(near24h, 95), unit: 'ms', baseline: percentile(plain24h, 95), target: engine === 'postgres' ? '<= 2,000 ms' : '' },
    { name: `snapshot of ${layout.devices + silentTrackers(layout)} trackers, p95`, value: percentile(snapshot, 95), unit: 'ms', baseline: percentile(snapshotBase, 95), target: engine === 'postgres' ? '<= 200 ms' : '' },
  ];
  printFigures(
    `Investigations on ${engine}: ${stored.toLocaleString('en-US')} stored fixes (${layout.devices} trackers x ${layout.perDevice}, one a minute; ` +
      `${silentTrackers(layout)} more silent after the first hour), ` +
      `${RUNS} runs (24 h: ${dayRuns}); baseline = the plain query without the grid key; people near subject 0 in 1 h: ${found}`,
    figures,
  );
}

async function onPostgres(fixes: number) {
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  if (!args.reuse) {
    await admin.query(`drop database if exists ${DB_NAME}`);
    await admin.query(`create database ${DB_NAME}`);
  }
  const url = new URL(ADMIN_URL);
  url.pathname = `/${DB_NAME}`;
  const db = fromPostgres(url.toString(), 2);
  try {
    const layout = layoutFor(fixes);
    await db.migrate();
    if (!args.reuse) {
      const t0 = performance.now();
      await fill(db, layout);
      log(`PostgreSQL filled in ${(elapsed(t0) / 1000).toFixed(0)} s`);
    }
    await measure('postgres', db, layout);
  } finally {
    await db.close();
    // BENCH_KEEP=1 keeps the database to look at plans with psql (drop it after).
    if (!process.env.BENCH_KEEP) await admin.query(`drop database if exists ${DB_NAME}`);
    await admin.end();
  }
}

async function onPglite(fixes: number) {
  const db = fromPglite(await createPglite());
  try {
    await db.migrate();
    const layout = layoutFor(fixes);
    const t0 = performance.now();
    await fill(db, layout);
    log(`PGlite filled in ${(elapsed(t0) / 1000).toFixed(0)} s`);
    await measure('pglite', db, layout);
  } finally {
    await db.close();
  }
}

async function main() {
  const engines = args.engines.split(',');
  if (engines.includes('postgres')) await onPostgres(Number(args.fixes));
  if (engines.includes('pglite')) await onPglite(Number(args['pglite-fixes']));
  console.log(`load average at the end: ${loadavg().map((l) => l.toFixed(1)).join(' ')} (2 cores, shared)`);
}

await main();
