// Fresh, migrated databases for a test file: PGlite always, PostgreSQL when the run found one.
import { readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { describe, inject, it } from 'vitest';
import { createPglite, fromPglite, fromPostgres, type Database } from '../src/db/client';
import { waitFor } from './wait-for';

export type Engine = 'pglite' | 'postgres';

/** The migrated template, read once per worker (the server tiers do not isolate files; vitest.config.ts). */
let template: Blob | undefined;

export async function createTestDatabase(engine: Engine): Promise<Database> {
  if (engine === 'pglite') {
    template ??= new Blob([readFileSync(inject('pgliteTemplate'))]);
    const blob = template;
    return fromPglite(await createPglite({ loadDataDir: blob }));
  }
  const scratch = await createScratchDatabase('prison_test');
  const database = fromPostgres(scratch.url, 10);
  const close = database.close;
  database.close = async () => {
    await close();
    await scratch.drop();
  };
  return database;
}

/**
 * A PostgreSQL database of a test's own, made from the run's migrated template (or empty), for tests that hand its
 * URL to several apps or server processes (the cluster tests). `drop` removes it, whoever is still connected.
 */
export async function createScratchDatabase(prefix: string, options: { migrated?: boolean } = {}): Promise<{ name: string; url: string; drop(): Promise<void> }> {
  const adminUrl = inject('postgresAdminUrl');
  const name = `${prefix}_${inject('testRunId')}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`create database ${name}${options.migrated === false ? '' : ` template ${inject('postgresTemplate')}`}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    drop: async () => {
      const dropper = new pg.Client({ connectionString: adminUrl });
      await dropper.connect();
      // pg's Pool.end() resolves before its sockets have closed. Forcing the drop at once terminates those backends
      // mid-goodbye, and the FATAL they send becomes the ended pool's unhandled 'error' (an uncaught exception in
      // the test). So connections still closing get up to 2 s; only what is left after that is forced.
      const closed = async () => (await dropper.query<{ n: number }>('select count(*)::int as n from pg_stat_activity where datname = $1', [name])).rows[0]?.n === 0;
      await waitFor(`the connections to ${name} to close`, closed, 2_000, 20).catch(() => undefined);
      await dropper.query(`drop database if exists ${name} with (force)`).catch(() => undefined);
      await dropper.end();
    },
  };
}

/**
 * The engines this tier runs on (vitest.config.ts): the integration tier runs on the embedded engine, the postgres
 * tier on PostgreSQL when the run found one, the system tier on both.
 */
export function availableEngines(): Engine[] {
  const reachable: Engine[] = inject('postgresAdminUrl') ? ['pglite', 'postgres'] : ['pglite'];
  return reachable.filter((engine) => inject('tierEngines').includes(engine));
}

/** Runs the suite once per engine of this tier; the body gets the engine name. */
export function describeEachEngine(name: string, body: (engine: Engine) => void) {
  const engines = availableEngines();
  for (const engine of engines) describe(`${name} [${engine}]`, () => body(engine));
  // A tier without any of the file's engines (PostgreSQL not reachable) still reports the file, as skipped.
  if (engines.length === 0) describe.skip(`${name} [no engine of this tier answers]`, () => it('is skipped', () => undefined));
}

/** A suite written for the embedded engine only: it runs in the tiers that run the embedded engine. */
export function describeOnPglite(name: string, body: () => void) {
  if (inject('tierEngines').includes('pglite')) describe(name, body);
}

/** A suite written for PostgreSQL only: it runs in the tiers that run PostgreSQL, skipped when none answers. */
export function describeOnPostgres(name: string, body: () => void) {
  if (inject('tierEngines').includes('postgres')) describe.skipIf(!inject('postgresAdminUrl'))(name, body);
}
