// bench/records: the prisoner list API with 100,000 prisoners, served over HTTP by the real app (auth, validation,
// service, serialisation) started in this process, on PostgreSQL and on PGlite. wrk, a C load generator, plays the
// 50 concurrent clients (each sends its next request when the previous one answers), so the clients' own work does
// not share the server's one JavaScript thread. Prints p50 and p99 per query beside a baseline measured in the same
// run (GET /admin/verify-token: the same request path, session only), and the p50 of one client alone.
//
//   npm run records -w @prison/bench      (needs wrk: apt-get install -y wrk)
//   RECORDS_BENCH_PRISONERS=100000 RECORDS_BENCH_SECONDS=10 RECORDS_BENCH_ENGINES=postgres,pglite by default
//
// PostgreSQL: creates its own database on 127.0.0.1 (user postgres, or BENCH_PG_URL) and drops it at the end.
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { API_PREFIX } from '@prison/shared';
import type {} from '../../apps/server/src/types';
import { createPglite, fromPglite, fromPostgres, type Database } from '../../apps/server/src/db/client';
import { printFigures, type Figure } from '../lib/report';
import { allAnswered, runWrk, type WrkResult } from '../lib/wrk';
import { fill } from './fill';
import { startBenchServer } from './bench-server';

const ADMIN_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const PRISONERS = Number(process.env.RECORDS_BENCH_PRISONERS ?? 100_000);
const SECONDS = Number(process.env.RECORDS_BENCH_SECONDS ?? 10);
const CLIENTS = 50;
const ENGINES = (process.env.RECORDS_BENCH_ENGINES ?? 'postgres,pglite').split(',');

const log = (text: string) => console.log(`[records bench] ${text}`);

/** The queries of the management screen (the deep page is the middle of the list) and the home page's overview. */
const SCENARIOS = [
  // The first page, which every list opens on, at <= 15 ms p99; the rest at <= 50 ms (11).
  { name: 'list page 1', url: '/prisoner/all?page=1', target: '≤ 15 ms' },
  { name: `deep page ${Math.ceil(PRISONERS / 40)}`, url: `/prisoner/all?page=${Math.ceil(PRISONERS / 40)}` },
  { name: 'last-name filter "Smi"', url: '/prisoner/all?last_name=Smi' },
  { name: 'status filter Released', url: '/prisoner/all?status=Released' },
  { name: 'operations overview', url: '/overview' },
];

const WRK_REPORT = path.join(path.dirname(fileURLToPath(import.meta.url)), 'wrk-report.lua');

/** `clients` connections for `seconds`, each sending its next request when the previous one answers. */
async function wrk(url: string, token: string, clients: number, seconds: number): Promise<WrkResult> {
  const headers = [`Authorization: Bearer ${token}`];
  return allAnswered(url, await runWrk({ url, clients, seconds, script: WRK_REPORT, headers }));
}

async function measure(database: Database): Promise<Figure[]> {
  await fill(database, PRISONERS, log);
  const { app, origin, token } = await startBenchServer(database, 'bench');

  /** One client alone (the cost of the request itself), then 50 at once (plus the queueing for CPU). */
  async function run(url: string) {
    await wrk(`${origin}${url}`, token, CLIENTS, 2); // warm-up: JIT, plans, caches
    const alone = await wrk(`${origin}${url}`, token, 1, 3);
    const busy = await wrk(`${origin}${url}`, token, CLIENTS, SECONDS);
    log(
      `${database.kind}: ${url}: ${busy.requests.toLocaleString('en-US')} requests at ${CLIENTS} clients, ` +
        `${Math.round(busy.requests / (busy.durationUs / 1e6)).toLocaleString('en-US')}/s`,
    );
    return { alone, busy };
  }

  const baseline = await run('/admin/verify-token');
  const figures: Figure[] = [];
  for (const scenario of SCENARIOS) {
    const check = (
      await app.inject({
        method: 'GET',
        url: `${API_PREFIX}${scenario.url}`,
        headers: { authorization: `Bearer ${token}` },
      })
    ).json<{ totalPrisoners?: number; prisoners?: unknown[] }>();
    log(
      `${database.kind}: ${scenario.name}: ` +
        (check.prisoners
          ? `${check.prisoners.length} rows of ${check.totalPrisoners!.toLocaleString('en-US')}`
          : JSON.stringify(check).slice(0, 400)),
    );
    const { alone, busy } = await run(scenario.url);
    const target = database.kind === 'postgres' ? (scenario.target ?? '≤ 50 ms') : undefined;
    const name = `${database.kind} ${scenario.name}`;
    const ms = (us: number) => us / 1000;
    figures.push(
      { name: `${name}, 1 client, p50`, value: ms(alone.p50), unit: 'ms', baseline: ms(baseline.alone.p50) },
      { name: `${name}, ${CLIENTS} clients, p50`, value: ms(busy.p50), unit: 'ms', baseline: ms(baseline.busy.p50) },
      {
        name: `${name}, ${CLIENTS} clients, p99`,
        value: ms(busy.p99),
        unit: 'ms',
        baseline: ms(baseline.busy.p99),
        target,
      },
    );
  }
  await app.close();
  return figures;
}

async function onPostgres(): Promise<Figure[]> {
  const name = `prison_bench_records_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  const database = fromPostgres(url.toString());
  try {
    await database.migrate();
    return await measure(database);
  } finally {
    await database.close();
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}

async function onPglite(): Promise<Figure[]> {
  const database = fromPglite(await createPglite());
  try {
    await database.migrate();
    return await measure(database);
  } finally {
    await database.close();
  }
}

async function main() {
  const figures: Figure[] = [];
  if (ENGINES.includes('postgres')) figures.push(...(await onPostgres()));
  if (ENGINES.includes('pglite')) figures.push(...(await onPglite()));
  printFigures(
    `Prisoner list and operations overview with ${PRISONERS.toLocaleString('en-US')} prisoners over HTTP, ${CLIENTS} concurrent clients for ${SECONDS} s per query (baseline: GET /admin/verify-token)`,
    figures,
  );
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
