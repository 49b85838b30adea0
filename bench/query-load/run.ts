// bench/query-load: no query stalls the prison. A week of stored fixes on PostgreSQL, the real server, trackers
// sending live fixes; it measures who was near over 7 days and over 1 hour, and the fix acknowledgement and /readyz
// while four officers each ask a 7-day question at once. Baseline, same run: the former way (every candidate fix
// matched in JavaScript), timed on the same questions.
//
//   npm run query-load -w @prison/bench                       (2,000 trackers x 7 days + 2 h, one fix a minute)
//   npm run query-load -w @prison/bench -- --reuse            (measure the week the bench's cluster already holds)
//
// The cluster is the bench's own (pg_createcluster query_load_bench on port 4910, needs root and a PostgreSQL server
// package); it is kept for --reuse unless --drop.
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { fromPostgres } from '../../apps/server/src/db/client';
import { ensureCluster } from './own-cluster';
import { fillWeek, type Layout } from './fill';

const { values: args } = parseArgs({
  options: {
    trackers: { type: 'string', default: '2000' },
    /** Seconds between two fixes of a tracker. */
    interval: { type: 'string', default: '60' },
    /** Days of stored fixes (2 hours more, so a 7-day window fits with room). */
    days: { type: 'string', default: '7' },
    port: { type: 'string', default: '4910' },
    reuse: { type: 'boolean', default: false },
    'fill-only': { type: 'boolean', default: false },
    drop: { type: 'boolean', default: false },
    /** Seconds of each measured phase. */
    seconds: { type: 'string', default: '30' },
  },
});

const DB_NAME = 'query_load';
const log = (text: string) => console.log(`[query-load] ${new Date().toISOString().slice(11, 19)} ${text}`);

async function main() {
  const cluster = ensureCluster('query_load_bench', Number(args.port));
  const admin = new pg.Client({ connectionString: cluster.url });
  await admin.connect();
  const exists = (await admin.query('select 1 from pg_database where datname = $1', [DB_NAME])).rows.length > 0;
  const reuse = args.reuse && exists;
  if (!reuse) {
    await admin.query(`drop database if exists ${DB_NAME}`);
    await admin.query(`create database ${DB_NAME}`);
  }
  await admin.end();
  const url = new URL(cluster.url);
  url.pathname = `/${DB_NAME}`;
  const database = fromPostgres(url.toString());
  try {
    await database.migrate();
    const intervalS = Number(args.interval);
    const perTracker = Math.ceil(((Number(args.days) * 24 + 2) * 3600) / intervalS);
    let layout: Layout = {
      trackers: Number(args.trackers),
      perTracker,
      intervalS,
      start: Math.floor((Date.now() - perTracker * intervalS * 1000) / 60_000) * 60_000,
    };
    if (reuse) {
      const { rows } = (await database.db.execute(
        sql.raw(`select (select count(*)::int from prisoners) as trackers, (select min(recorded_at) from positions)::text as first`),
      )) as unknown as { rows: { trackers: number; first: string }[] };
      layout = { ...layout, trackers: rows[0]!.trackers, start: Date.parse(rows[0]!.first) };
      log(`reusing ${layout.trackers} trackers from ${new Date(layout.start).toISOString()}`);
    } else {
      const t0 = performance.now();
      log(`filling ${(layout.trackers * layout.perTracker).toLocaleString('en-US')} fixes: ${layout.trackers} trackers, one every ${intervalS} s, ${args.days} days + 2 h`);
      await fillWeek(database, layout, log);
      log(`filled in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
    }
    if (!args['fill-only']) await (await import('./measure')).measure(database, layout, { seconds: Number(args.seconds), log });
  } finally {
    await database.close();
    if (args.drop) cluster.drop();
  }
  console.log(`load average at the end: ${loadavg().map((l) => l.toFixed(1)).join(' ')} (2 cores, shared)`);
}

await main();
