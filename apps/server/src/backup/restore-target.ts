// The database a restore writes into: the one the server would use (DATA_DIR's PGlite or DATABASE_URL). Says whether
// it is empty, clears it when forced, and migrates it to a given level (decision 058).
import { existsSync, mkdirSync, readdirSync, renameSync } from 'node:fs';
import path from 'node:path';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { createPglite, migrationsFolder } from '../db/client';
import { pgliteConnection, postgresConnectionOver, type SqlConnection, type SqlSession } from './sql-connection';
import { appliedMigrations, listTables, quoteIdent, type AppliedMigration } from './table-catalog';

export type RestoreTargetSpec = { kind: 'pglite'; dataDir: string } | { kind: 'postgres'; url: string };

export interface RestoreTarget {
  /** Where it is, for messages (never a password). */
  description: string;
  connection: SqlConnection;
  /** Runs drizzle's migrator over the given folder (the backup's level, or this version's). */
  migrate(folder?: string): Promise<void>;
  close(): Promise<void>;
}

/** The PGlite directory inside DATA_DIR, as db/client.ts opens it. */
export const pgliteDirOf = (dataDir: string) => path.resolve(dataDir, 'pglite');

export function describeTarget(spec: RestoreTargetSpec): string {
  if (spec.kind === 'pglite') return `the data directory ${pgliteDirOf(spec.dataDir)}`;
  const url = new URL(spec.url);
  return `the database ${url.pathname.slice(1) || '(default)'} on ${url.hostname}:${url.port || 5432}`;
}

/** Why the PGlite directory is not empty, or null. */
export function pgliteDirProblem(dataDir: string): string | null {
  const dir = pgliteDirOf(dataDir);
  return existsSync(dir) && readdirSync(dir).length > 0 ? `${dir} already holds a database` : null;
}

/** Moves a forced restore's old PGlite directory aside (kept, not deleted); returns where it went. */
export function movePgliteDirAside(dataDir: string): string {
  const dir = pgliteDirOf(dataDir);
  const aside = `${dir}.before-restore-${new Date().toISOString().replace(/[:.]/g, '-')}`;
  renameSync(dir, aside);
  return aside;
}

/** Why a database is not empty (rows in a table, or migrations beyond the backup's), or null. */
export async function databaseProblem(session: SqlSession, backupMigrations: AppliedMigration[]): Promise<string | null> {
  const applied = await appliedMigrations(session);
  if (applied.length > backupMigrations.length || applied.some((m, i) => m.hash !== backupMigrations[i]?.hash))
    return 'it was migrated by another version than the backup';
  for (const table of await listTables(session)) {
    const rows = await session.query<{ found: boolean }>(`select exists (select 1 from public.${quoteIdent(table.name)}) as found`);
    if (rows[0]?.found) return `its table ${table.name} has rows`;
  }
  return null;
}

/** Other sessions on a PostgreSQL database (a running server would be one). */
export async function otherSessions(session: SqlSession): Promise<number> {
  const rows = await session.query<{ n: number }>(
    'select count(*)::int as n from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
  );
  return rows[0]?.n ?? 0;
}

/** Drops what the migrations created in a PostgreSQL database (a forced restore); the extension stays. */
export async function clearDatabase(session: SqlSession): Promise<void> {
  for (const table of await listTables(session)) await session.query(`drop table if exists public.${quoteIdent(table.name)} cascade`);
  const types = await session.query<{ name: string }>(
    `select t.typname as name from pg_type t join pg_namespace n on n.oid = t.typnamespace where n.nspname = 'public' and t.typtype = 'e'`,
  );
  for (const type of types) await session.query(`drop type if exists public.${quoteIdent(type.name)} cascade`);
  await session.query('drop schema if exists drizzle cascade');
}

export async function openTarget(spec: RestoreTargetSpec): Promise<RestoreTarget> {
  const description = describeTarget(spec);
  if (spec.kind === 'pglite') {
    mkdirSync(pgliteDirOf(spec.dataDir), { recursive: true });
    const client: PGlite = await createPglite({ dataDir: pgliteDirOf(spec.dataDir) });
    return {
      description,
      connection: pgliteConnection(client),
      migrate: (folder = migrationsFolder) => migratePglite(drizzlePglite(client), { migrationsFolder: folder }),
      close: () => client.close(),
    };
  }
  const client = new pg.Client({ connectionString: spec.url, connectionTimeoutMillis: 10_000, application_name: 'prison-restore' });
  await client.connect();
  return {
    description,
    connection: postgresConnectionOver(client),
    migrate: (folder = migrationsFolder) => migratePg(drizzlePg(client), { migrationsFolder: folder }),
    close: () => client.end(),
  };
}
