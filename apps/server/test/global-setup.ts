// Once per tier of a test run: migrate one PGlite template and dump it, and one PostgreSQL template database when a
// server answers, for the engines the tier runs on (integration: the embedded engine; postgres: PostgreSQL; system: both).
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { createPglite, fromPglite, fromPostgres } from '../src/db/client';
import type { Engine } from './test-db';

const tmpDir = path.resolve(import.meta.dirname, '../../../.tmp');
const runId = `${process.pid}_${Date.now().toString(36)}`;

export function adminPostgresUrl(): string {
  return process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
}

function withDatabase(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.toString();
}

async function postgresReachable(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

const TIER_ENGINES: Record<string, Engine[]> = { integration: ['pglite'], postgres: ['postgres'], system: ['pglite', 'postgres'] };

export default async function setup(project: TestProject) {
  const engines = TIER_ENGINES[project.name] ?? ['pglite', 'postgres'];
  project.provide('tierEngines', engines);
  mkdirSync(tmpDir, { recursive: true });
  const templateFile = path.join(tmpDir, `pglite-template-${runId}-${project.name}.tar`);
  if (engines.includes('pglite')) {
    const client = await createPglite();
    const database = fromPglite(client);
    await database.migrate();
    // Checkpointed and uncompressed: each test database then starts without replaying the migrations' WAL or
    // unpacking gzip, a third less time per open.
    await client.query('checkpoint');
    const dump = await client.dumpDataDir('none');
    writeFileSync(templateFile, Buffer.from(await dump.arrayBuffer()));
    await client.close();
  }
  project.provide('pgliteTemplate', templateFile);

  const adminUrl = adminPostgresUrl();
  let postgresTemplate = '';
  const reachable = engines.includes('postgres') && (await postgresReachable(adminUrl));
  if (engines.includes('postgres') && !reachable && process.env.REQUIRE_POSTGRES === '1') {
    throw new Error(`REQUIRE_POSTGRES=1 but no PostgreSQL answers at ${adminUrl}`);
  }
  const admin = new pg.Client({ connectionString: adminUrl });
  if (reachable) {
    postgresTemplate = `prison_test_tpl_${runId}_${project.name}`;
    await admin.connect();
    await admin.query(`create database ${postgresTemplate}`);
    const templateDb = fromPostgres(withDatabase(adminUrl, postgresTemplate), 1);
    await templateDb.migrate();
    await templateDb.close();
  }
  project.provide('postgresAdminUrl', reachable ? adminUrl : '');
  project.provide('postgresTemplate', postgresTemplate);
  project.provide('testRunId', `${runId}_${project.name}`);

  return async () => {
    rmSync(templateFile, { force: true });
    if (!reachable) return;
    // Drop what this run created (the per-file databases first, then the template).
    const { rows } = await admin.query<{ datname: string }>(
      `select datname from pg_database where datname like $1 order by datname <> $2 desc`,
      [`prison_test_%${runId}_${project.name}%`, postgresTemplate],
    );
    for (const { datname } of rows.reverse()) {
      await admin.query(`drop database if exists ${datname} with (force)`).catch(() => undefined);
    }
    await admin.end();
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplate: string;
    postgresAdminUrl: string;
    postgresTemplate: string;
    testRunId: string;
    /** The engines this tier's suites run on. */
    tierEngines: Engine[];
  }
}
