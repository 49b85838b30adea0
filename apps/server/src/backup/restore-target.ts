// The database a restore writes into: the one the server would use (DATA_DIR's PGlite or DATABASE_URL). Says whether
// it is empty and clears it when forced (decision 058). A PGlite restore is made in a folder of its own beside the
// target and put in place only once complete (decision 094), so a failed one leaves the data directory as it was.
import { existsSync, readdirSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { createPglite } from '../db/client';
import { pgliteConnection, postgresConnectionOver, type SqlConnection, type SqlSession } from './sql-connection';
import { appliedMigrations, listTables, quoteIdent, type AppliedMigration } from './table-catalog';

export type RestoreTargetSpec = { kind: 'pglite'; dataDir: string } | { kind: 'postgres'; url: string };

export interface RestoreTarget {
  /** Where it is, for messages (never a password). */
  description: string;
  connection: SqlConnection;
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

const stamp = () => new Date().toISOString().replace(/[:.]/g, '-');

/** Where a PGlite restore is made before it is put in place: beside the target, on the same file system. */
export const pgliteStagingDirOf = (dataDir: string) => `${pgliteDirOf(dataDir)}.restoring-${stamp()}`;

/** Moves a forced restore's old PGlite directory aside (kept, not deleted); returns where it went. */
export function movePgliteDirAside(dataDir: string): string {
  const dir = pgliteDirOf(dataDir);
  const aside = `${dir}.before-restore-${stamp()}`;
  renameSync(dir, aside);
  return aside;
}

/** Puts a complete restore in place of the (empty or moved aside) PGlite directory. */
export function putPgliteDirInPlace(dataDir: string, staging: string): void {
  const dir = pgliteDirOf(dataDir);
  if (existsSync(dir)) rmSync(dir, { recursive: true }); // empty: pgliteDirProblem said so, or it was moved aside
  renameSync(staging, dir);
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

/** Opens the target; for PGlite, the database in `pgliteDir` (the staging folder) instead of the data directory's. */
export async function openTarget(spec: RestoreTargetSpec, pgliteDir?: string): Promise<RestoreTarget> {
  const description = describeTarget(spec);
  if (spec.kind === 'pglite') {
    const client: PGlite = await createPglite({ dataDir: pgliteDir ?? pgliteDirOf(spec.dataDir) });
    return { description, connection: pgliteConnection(client), close: () => client.close() };
  }
  const client = new pg.Client({ connectionString: spec.url, connectionTimeoutMillis: 10_000, application_name: 'prison-restore' });
  await client.connect();
  return { description, connection: postgresConnectionOver(client), close: () => client.end() };
}
