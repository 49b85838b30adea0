// One database API over two engines: embedded PGlite (default, data in DATA_DIR) or a PostgreSQL server (DATABASE_URL).
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite, type PGliteOptions } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { keepToOwner } from '../lib/private-files';
import * as schema from './schema';
import { StartRefusal } from '../lib/start-refusal';

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
/** A transaction handle: services accept `Db | Tx` so they compose inside one transaction. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type DbOrTx = Db | Tx;

export interface PoolStats {
  max: number;
  total: number;
  idle: number;
  /** Requests waiting for a connection. */
  waiting: number;
}

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /**
   * Runs the committed SQL migrations (idempotent) and answers which it applied; a schema migrated by a newer build
   * is refused (SchemaTooNewError) before anything is applied.
   */
  migrate(): Promise<MigrationReport>;
  /** True when the database answers a trivial query. */
  ping(): Promise<boolean>;
  close(): Promise<void>;
  /** PostgreSQL's connection pool now (monitoring, decision 059); none for PGlite, which has one connection. */
  poolStats?(): PoolStats;
  /** The PGlite instance, when embedded (tests dump and load it). */
  pglite?: PGlite;
}

export const migrationsFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

export interface MigrationReport {
  /** The tags of the migrations this call applied, oldest first (none: the schema was current). */
  applied: string[];
  /** The newest migration of this build, which the schema is at now. */
  schema: string;
}

interface JournalEntry {
  when: number;
  tag: string;
}

/** This build's migrations, oldest first, from drizzle's journal (`when` is what drizzle records as created_at). */
export function buildMigrations(folder = migrationsFolder): JournalEntry[] {
  const journal = JSON.parse(readFileSync(path.join(folder, 'meta/_journal.json'), 'utf8')) as { entries: JournalEntry[] };
  return journal.entries.map(({ when, tag }) => ({ when, tag }));
}

/** Migrations are numbered by hand and dated 17955000NN000 (NN their number) since 0014; older ones are known by tag. */
function migrationName(when: number, known: JournalEntry[]): string {
  const tag = known.find((entry) => entry.when === when)?.tag;
  if (tag) return tag;
  const number = (when - 1_795_500_000_000) / 1000;
  return Number.isInteger(number) && number > 0 && number < 10_000
    ? `${String(number).padStart(4, '0')} (unknown to this build)`
    : `one dated ${new Date(when).toISOString()} (unknown to this build)`;
}

/** The database was migrated by a newer build: this one would misread it, and must not write to it. */
export class SchemaTooNewError extends StartRefusal {
  constructor(databaseNewest: number, known: JournalEntry[]) {
    super(
      `The database schema is at migration ${migrationName(databaseNewest, known)}, newer than this build's newest, ` +
        `${known.at(-1)?.tag ?? 'none'}: a newer build has run on it. Start that build (or a newer one), or restore a ` +
        'backup made by this version; nothing was changed',
    );
    this.name = 'SchemaTooNewError';
  }
}

/**
 * Migrates with `apply` after checking, through `newestApplied` (drizzle's own table, null when never migrated), that
 * the schema is not newer than this build. drizzle applies every migration dated after the newest applied one.
 */
async function migrateChecked(newestApplied: () => Promise<number | null>, apply: () => Promise<unknown>): Promise<MigrationReport> {
  const known = buildMigrations();
  const before = await newestApplied();
  const newestKnown = known.at(-1)?.when ?? 0;
  if (before !== null && before > newestKnown) throw new SchemaTooNewError(before, known);
  await apply();
  return { applied: known.filter((entry) => before === null || entry.when > before).map((entry) => entry.tag), schema: known.at(-1)?.tag ?? 'none' };
}

// Two statements: a relation that does not exist fails the parse of any statement naming it, even in a dead branch.
const MIGRATIONS_TABLE_EXISTS = `select to_regclass('drizzle.__drizzle_migrations') is not null as found`;
const NEWEST_APPLIED = 'select max(created_at)::text as newest from drizzle.__drizzle_migrations';

/** The newest applied migration's date (drizzle's created_at), null for a database never migrated. */
async function newestAppliedWith(query: <Row>(sql: string) => Promise<Row[]>): Promise<number | null> {
  if (!(await query<{ found: boolean }>(MIGRATIONS_TABLE_EXISTS))[0]?.found) return null;
  const newest = (await query<{ newest: string | null }>(NEWEST_APPLIED))[0]?.newest;
  return newest == null ? null : Number(newest);
}

/**
 * Every embedded database is opened here, with the extensions the migrations use (pg_trgm for prisoner search). A
 * directory on disk is its owner's alone (decision 094): PGlite writes most of its files 0666 whatever the umask, so
 * they are narrowed once it has opened; the files the engine creates later are 0600 already.
 */
export async function createPglite(options: Omit<PGliteOptions, 'extensions'> = {}): Promise<PGlite> {
  const dir = options.dataDir && !options.dataDir.includes('://') ? options.dataDir : null;
  if (dir) mkdirSync(dir, { recursive: true, mode: 0o700 });
  const client = await PGlite.create({ ...options, extensions: { pg_trgm } });
  if (dir) keepToOwner(dir);
  return client;
}

export function fromPglite(client: PGlite): Database {
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  return {
    db,
    kind: 'pglite',
    pglite: client,
    migrate: () =>
      migrateChecked(
        () => newestAppliedWith(async (sql) => (await client.query(sql)).rows as never),
        () => migratePglite(drizzlePglite(client, { schema }), { migrationsFolder }),
      ),
    ping: async () => (await client.query('select 1 as ok')).rows.length === 1,
    close: () => client.close(),
  };
}

/** Advisory lock keys of the application (any constants nothing else uses; the leader's is in cluster/leader.ts). */
export const MIGRATION_LOCK_KEY = 7_300_101;
export const FIRST_ADMIN_LOCK_KEY = 7_300_102;
/** Held by a change that could leave no active administrator (demote, disable), so two cannot cross (decision 050). */
export const ADMINISTRATORS_LOCK_KEY = 7_300_103;

export function fromPostgres(connectionString: string, poolSize = 10): Database {
  // A connection that cannot be opened within 5 s fails (503 to the client) instead of queueing requests forever.
  const pool = new pg.Pool({ connectionString, max: poolSize, connectionTimeoutMillis: 5_000 });
  // An idle client that loses its connection (the server stopped) must not crash the process; the pool drops it and
  // the next query opens a new one, so the app recovers when the server returns. The loss itself is seen and logged
  // by the database health probe (lib/database-health), once, not per client.
  pool.on('error', () => undefined);
  // A client checked out between statements (inside a transaction) has no pool listener: its connection error would
  // be an uncaught exception. The statement that follows fails instead, and the pool discards the client.
  pool.on('connect', (client) => client.on('error', () => undefined));
  const nodeDb = drizzlePg(pool, { schema });
  return {
    db: nodeDb as unknown as Db,
    kind: 'postgres',
    migrate: async () => {
      // Several processes of a cluster may start at once: one migrates at a time, the others then find nothing to do.
      // The lock on a connection of its own: the pool may hold a single connection, which the migrator needs.
      const lock = new pg.Client({ connectionString, connectionTimeoutMillis: 5_000 });
      lock.on('error', () => undefined);
      await lock.connect();
      try {
        await lock.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
        return await migrateChecked(
          () => newestAppliedWith(async (sql) => (await lock.query(sql)).rows as never),
          () => migratePg(nodeDb, { migrationsFolder }),
        );
      } finally {
        await lock.end().catch(() => undefined); // ending the session releases the lock
      }
    },
    ping: async () => (await pool.query('select 1 as ok')).rows.length === 1,
    poolStats: () => ({ max: poolSize, total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    close: () => pool.end(),
  };
}

export interface DatabaseOptions {
  databaseUrl?: string;
  dataDir: string;
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.databaseUrl) return fromPostgres(options.databaseUrl);
  const dir = path.resolve(options.dataDir, 'pglite');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const client = await createPglite({ dataDir: dir });
  return fromPglite(client);
}
