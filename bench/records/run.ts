// bench/records: the prisoner list API with 100,000 prisoners, through the real app (auth, validation, service,
// serialisation) at 50 concurrent clients, on PostgreSQL and on PGlite. Prints p50 and p99 per query beside a
// baseline measured in the same run (GET /admin/verify-token: the same request path with a trivial body), and the
// p50 of one client alone (the cost of the request without queueing).
//
//   npm run records -w @prison/bench      (RECORDS_BENCH_PRISONERS=100000 RECORDS_BENCH_REQUESTS=1000 by default)
//
// PostgreSQL: creates its own database on 127.0.0.1 (user postgres, or BENCH_PG_URL) and drops it at the end.
// PGlite: an in-memory database. RECORDS_BENCH_ENGINES=postgres or =pglite runs one engine only.
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { API_PREFIX } from '@prison/shared';
import type {} from '../../apps/server/src/types';
import { buildApp } from '../../apps/server/src/app';
import { loadConfig } from '../../apps/server/src/config';
import { fromPglite, fromPostgres, type Database } from '../../apps/server/src/db/client';
import { createAdmin } from '../../apps/server/src/modules/admin/admin-service';
import { percentile, printFigures, type Figure } from '../lib/report';

const ADMIN_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const PRISONERS = Number(process.env.RECORDS_BENCH_PRISONERS ?? 100_000);
const REQUESTS = Number(process.env.RECORDS_BENCH_REQUESTS ?? 1_000);
const CLIENTS = 50;
const ENGINES = (process.env.RECORDS_BENCH_ENGINES ?? 'postgres,pglite').split(',');

const log = (text: string) => console.log(`[records bench] ${text}`);

/** The queries of the management screen; the deep page is the middle of the list. */
const SCENARIOS = [
  { name: 'list page 1', url: '/prisoner/all?page=1' },
  { name: `deep page ${Math.ceil(PRISONERS / 40)}`, url: `/prisoner/all?page=${Math.ceil(PRISONERS / 40)}` },
  { name: 'last-name filter "Smi"', url: '/prisoner/all?last_name=Smi' },
  { name: 'status filter Released', url: '/prisoner/all?status=Released' },
];

/** 100,000 prisoners in one statement, spread over ten years of entries, with varied names, statuses and cells. */
async function fill(database: Database) {
  const t0 = performance.now();
  const exec = async (text: string) => {
    if (database.pglite) await database.pglite.exec(text);
    else await database.db.execute(sql.raw(text));
  };
  await exec(`insert into cells (cell_id, block, capacity, security_level)
    select 'B-' || c, chr(65 + c % 6), 4, (array['High','Medium','Low'])[1 + c % 3] from generate_series(1, 500) c`);
  await exec(`insert into prisoners (first_name, last_name, date_of_birth, gender, national_id, entry_date, status, cell_id, created_at)
    select (array['James','Oliver','Amelia','Piotr','Kwame','Carlos','Imran','Minh','Sophie','Liam'])[1 + i % 10],
           (array['Smith','Jones','Taylor','Brown','Nowak','Mensah','Garcia','Khan','Nguyen','Walker','Smithson','Evans'])[1 + (i / 10) % 12]
             || case when i % 7 = 0 then '' else ' ' || (i % 997) end,
           date '1960-01-01' + (i % 15000), (array['Male','Female','Other'])[1 + i % 3], 'United Kingdom',
           date '2015-01-01' + (i % 3650),
           (array['Incarcerated','Incarcerated','On Trial','Released','Transferred'])[1 + i % 5],
           case when i % 5 < 3 and i <= 2000 then 'B-' || (1 + i % 500) end,
           timestamptz '2015-01-01' + make_interval(secs => i * 3000)
    from generate_series(1, ${PRISONERS}) i`);
  await exec('vacuum analyze');
  log(
    `${database.kind}: loaded ${PRISONERS.toLocaleString('en-US')} prisoners in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );
}

async function measure(database: Database): Promise<Figure[]> {
  await fill(database);
  const app = await buildApp({
    config: { ...loadConfig({ DEMO: 'false', LOG_LEVEL: 'silent', WEB_DIST: '/nonexistent' }) },
    database,
    logger: false,
  });
  await app.ready();
  await createAdmin(database.db, { username: 'bench', password: 'bench password 123' });
  const login = await app.inject({
    method: 'POST',
    url: `${API_PREFIX}/admin/login`,
    payload: { username: 'bench', password: 'bench password 123' },
  });
  const headers = { authorization: `Bearer ${login.json<{ token: string }>().token}` };

  const once = (url: string) => app.inject({ method: 'GET', url: `${API_PREFIX}${url}`, headers });

  /** REQUESTS requests from `clients` clients, each sending its next request when the previous answers. */
  async function run(url: string, clients: number, requests = REQUESTS): Promise<number[]> {
    const times: number[] = [];
    let sent = 0;
    const client = async () => {
      while (sent < requests) {
        sent++;
        const t0 = performance.now();
        const res = await once(url);
        times.push(performance.now() - t0);
        if (res.statusCode !== 200) throw new Error(`${url} answered ${res.statusCode}: ${res.body}`);
      }
    };
    await once(url); // warm-up: plans and caches
    await Promise.all(Array.from({ length: clients }, client));
    return times.sort((a, b) => a - b);
  }

  const baseline = await run('/admin/verify-token', CLIENTS);
  const baselineAlone = await run('/admin/verify-token', 1, 200);
  const figures: Figure[] = [];
  for (const scenario of SCENARIOS) {
    const check = (await once(scenario.url)).json<{ totalPrisoners: number; prisoners: unknown[] }>();
    log(
      `${database.kind}: ${scenario.name}: ${check.prisoners.length} rows of ${check.totalPrisoners.toLocaleString('en-US')}`,
    );
    // One client alone shows the cost of the request itself; 50 at once add the queueing for CPU and connections.
    const alone = await run(scenario.url, 1, 200);
    const times = await run(scenario.url, CLIENTS);
    const target = database.kind === 'postgres' ? '≤ 50 ms' : undefined;
    const name = `${database.kind} ${scenario.name}`;
    figures.push({
      name: `${name}, 1 client, p50`,
      value: percentile(alone, 50),
      unit: 'ms',
      baseline: percentile(baselineAlone, 50),
    });
    figures.push({
      name: `${name}, ${CLIENTS} clients, p50`,
      value: percentile(times, 50),
      unit: 'ms',
      baseline: percentile(baseline, 50),
    });
    figures.push({
      name: `${name}, ${CLIENTS} clients, p99`,
      value: percentile(times, 99),
      unit: 'ms',
      baseline: percentile(baseline, 99),
      target,
    });
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
  const database = fromPglite(await PGlite.create());
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
    `Prisoner list with ${PRISONERS.toLocaleString('en-US')} prisoners, ${CLIENTS} concurrent clients, ${REQUESTS} requests per query (baseline: GET /admin/verify-token)`,
    figures,
  );
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
