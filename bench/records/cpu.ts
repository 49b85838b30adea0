// bench/records/cpu.ts: where a list request's time goes, in CPU rather than latency (which swings with the machine's
// load). The real app in this process on a PostgreSQL database of its own with the records bench's 100,000 prisoners;
// wrk plays 50 clients on each URL in turn, and the run prints, per request, the CPU time of this process (the
// server's thread) and of the database's PostgreSQL backends (/proc/PID/stat), beside the bare authenticated route.
//
//   npx tsx records/cpu.ts                      (from bench/; needs wrk)
//   RECORDS_CPU_DB=name          use (and keep) this database, filled on first use; without it a new one is dropped at the end
//   RECORDS_CPU_ROUNDS=3 RECORDS_CPU_SECONDS=8  measured runs per URL, alternating between the URLs
//   RECORDS_CPU_URLS=/admin/verify-token,/prisoner/all?page=1,/prisoner/all?page=*
//                                a URL ending in `page=*` asks each time for a random page of the first 2,500
//                                (random-page.lua), so concurrent requests rarely share a read (decision 070)
//   RECORDS_CPU_CLIENTS=50       wrk's connections
//   RECORDS_CPU_SQL=1            print every statement one request of each URL sends, with EXPLAIN ANALYZE of each
//   RECORDS_CPU_PROFILE=DIR      write a .cpuprofile of the server's thread for each URL's first measured run
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { API_PREFIX } from '@prison/shared';
import type {} from '../../apps/server/src/types';
import { fromPostgres } from '../../apps/server/src/db/client';
import { fill } from './fill';
import { startBenchServer } from './bench-server';
import { allAnswered, runWrk, type WrkResult } from '../lib/wrk';

const ADMIN_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const PRISONERS = Number(process.env.RECORDS_BENCH_PRISONERS ?? 100_000);
const SECONDS = Number(process.env.RECORDS_CPU_SECONDS ?? 8);
const ROUNDS = Number(process.env.RECORDS_CPU_ROUNDS ?? 3);
const CLIENTS = Number(process.env.RECORDS_CPU_CLIENTS ?? 50);
const URLS = (process.env.RECORDS_CPU_URLS ?? '/admin/verify-token,/prisoner/all?page=1').split(',');
const KEPT_DB = process.env.RECORDS_CPU_DB;
const PROFILE_DIR = process.env.RECORDS_CPU_PROFILE;
const WRK_REPORT = path.join(path.dirname(fileURLToPath(import.meta.url)), 'wrk-report.lua');
const RANDOM_PAGE = path.join(path.dirname(fileURLToPath(import.meta.url)), 'random-page.lua');
const RANDOM_PAGES = 2_500;
const CLOCK_TICK_US = 1e6 / 100; // USER_HZ on Linux

const log = (text: string) => console.log(`[records cpu] ${text}`);

async function wrk(url: string, token: string, clients: number, seconds: number): Promise<WrkResult> {
  const randomPage = url.endsWith('page=*');
  const target = new URL(url.replace(/\*$/, ''));
  const result = await runWrk({
    url: randomPage ? target.origin : url,
    clients,
    seconds,
    script: randomPage ? RANDOM_PAGE : WRK_REPORT,
    headers: [`Authorization: Bearer ${token}`],
    env: { WRK_REPORT, RECORDS_PAGES: String(RANDOM_PAGES), RECORDS_PATH: `${target.pathname}${target.search}` },
  });
  return allAnswered(url, result);
}

/** CPU time (µs) of the database's backends now, by pid. */
async function backendCpu(monitor: pg.Client, database: string): Promise<Map<number, number>> {
  const { rows } = await monitor.query<{ pid: number }>(
    'select pid from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
    [database],
  );
  const cpu = new Map<number, number>();
  for (const { pid } of rows) {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      cpu.set(pid, (Number(fields[11]) + Number(fields[12])) * CLOCK_TICK_US); // utime, stime
    } catch {
      // ended meanwhile
    }
  }
  return cpu;
}

function backendCpuSpent(before: Map<number, number>, after: Map<number, number>): number {
  let spent = 0;
  for (const [pid, us] of after) spent += us - (before.get(pid) ?? 0);
  return spent;
}

/** Every statement the app sends through node-postgres while `run` runs. */
async function statementsOf(run: () => Promise<unknown>) {
  const sent: { text: string; values: unknown[] }[] = [];
  const original = pg.Client.prototype.query;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  (pg.Client.prototype as any).query = function (this: pg.Client, ...args: any[]) {
    const [first, second] = args;
    const text = typeof first === 'string' ? first : first?.text;
    const values = (typeof first === 'object' && first?.values) || (Array.isArray(second) ? second : []);
    if (text) sent.push({ text, values });
    return (original as (...a: unknown[]) => unknown).apply(this, args);
  };
  try {
    await run();
  } finally {
    pg.Client.prototype.query = original;
  }
  return sent;
}

async function main() {
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  const name = KEPT_DB ?? `prison_bench_cpu_${randomBytes(4).toString('hex')}`;
  const exists = (await admin.query('select 1 from pg_database where datname = $1', [name])).rows.length > 0;
  if (!exists) await admin.query(`create database ${name}`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  const database = fromPostgres(url.toString());
  const monitor = new pg.Client({ connectionString: url.toString() });
  await monitor.connect();
  try {
    await database.migrate();
    const filled = (await monitor.query('select count(*)::int as n from prisoners')).rows[0].n as number;
    if (filled === 0) await fill(database, PRISONERS, log);
    else log(`${name}: ${filled.toLocaleString('en-US')} prisoners already there`);

    const { app, origin, token } = await startBenchServer(database, `cpu${randomBytes(3).toString('hex')}`);
    const headers = { authorization: `Bearer ${token}` };

    for (const target of URLS) await wrk(`${origin}${target}`, token, CLIENTS, 2); // warm-up: JIT, plans, caches

    if (process.env.RECORDS_CPU_SQL) {
      for (const target of URLS) {
        const sent = await statementsOf(() =>
          app.inject({ method: 'GET', url: `${API_PREFIX}${target.replace(/\*$/, '2')}`, headers }),
        );
        log(`${target}: ${sent.length} statement(s)`);
        for (const { text, values } of sent) {
          console.log(`--- ${text.replace(/\s+/g, ' ')}\n    values ${JSON.stringify(values).slice(0, 300)}`);
          if (!/^\s*(select|with)/i.test(text)) continue;
          const plan = await monitor.query({ text: `explain (analyze, buffers) ${text}`, values });
          for (const row of plan.rows as { 'QUERY PLAN': string }[]) console.log(`    ${row['QUERY PLAN']}`);
        }
      }
    }

    const idleStart = process.cpuUsage();
    const idleDb = await backendCpu(monitor, name);
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const idleUs = process.cpuUsage(idleStart);
    log(
      `idle 3 s: server ${Math.round((idleUs.user + idleUs.system) / 3)} µs/s, PostgreSQL ${Math.round(backendCpuSpent(idleDb, await backendCpu(monitor, name)) / 3)} µs/s`,
    );

    const results = new Map<string, { server: number[]; db: number[]; rate: number[]; p50: number[]; p99: number[] }>();
    for (let round = 0; round < ROUNDS; round++) {
      for (const target of URLS) {
        const profile = PROFILE_DIR && round === 0 ? new Session() : undefined;
        if (profile) {
          profile.connect();
          await profile.post('Profiler.enable');
          await profile.post('Profiler.setSamplingInterval', { interval: 200 });
          await profile.post('Profiler.start');
        }
        const dbBefore = await backendCpu(monitor, name);
        const cpuBefore = process.cpuUsage();
        const result = await wrk(`${origin}${target}`, token, CLIENTS, SECONDS);
        const cpu = process.cpuUsage(cpuBefore);
        const dbSpent = backendCpuSpent(dbBefore, await backendCpu(monitor, name));
        if (profile) {
          const { profile: taken } = await profile.post('Profiler.stop');
          mkdirSync(PROFILE_DIR!, { recursive: true });
          const file = path.join(PROFILE_DIR!, `${target.replace(/[^a-z0-9]+/gi, '_')}.cpuprofile`);
          writeFileSync(file, JSON.stringify(taken));
          profile.disconnect();
          log(`profile: ${file}`);
        }
        const figures = results.get(target) ?? { server: [], db: [], rate: [], p50: [], p99: [] };
        results.set(target, figures);
        figures.server.push((cpu.user + cpu.system) / result.requests);
        figures.db.push(dbSpent / result.requests);
        figures.rate.push(result.requests / (result.durationUs / 1e6));
        figures.p50.push(result.p50 / 1000);
        figures.p99.push(result.p99 / 1000);
        log(
          `round ${round + 1} ${target}: ${result.requests} requests, ${Math.round(result.requests / (result.durationUs / 1e6))}/s, ` +
            `server ${Math.round((cpu.user + cpu.system) / result.requests)} µs, PostgreSQL ${Math.round(dbSpent / result.requests)} µs per request, ` +
            `p50 ${(result.p50 / 1000).toFixed(2)} ms, p99 ${(result.p99 / 1000).toFixed(2)} ms`,
        );
      }
    }
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
    console.table(
      [...results].map(([target, f]) => ({
        url: target,
        'server µs/request': Math.round(median(f.server)),
        'PostgreSQL µs/request': Math.round(median(f.db)),
        'requests/s': Math.round(median(f.rate)),
        'p50 ms': median(f.p50).toFixed(2),
        'p99 ms': median(f.p99).toFixed(2),
      })),
    );
    console.log(`(medians of ${ROUNDS} runs of ${SECONDS} s at ${CLIENTS} clients)`);
    await app.close();
  } finally {
    await monitor.end();
    await database.close();
    if (!KEPT_DB) await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
