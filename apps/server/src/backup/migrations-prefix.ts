// The code's migrations up to the level a backup was taken at, so a backup from an earlier version restores into the
// schema it was written for, and the rest then bring it to this version (decision 058). They run inside the restore's
// own transaction (decision 094), as drizzle's migrator runs them and recording them where it does, so a restore
// that fails leaves no migrated, empty schema behind and the server's migrator finds them applied.
import { readMigrationFiles, type MigrationMeta } from 'drizzle-orm/migrator';
import { migrationsFolder } from '../db/client';
import type { SqlSession } from './sql-connection';
import type { AppliedMigration } from './table-catalog';

const codeMigrations = (): MigrationMeta[] => readMigrationFiles({ migrationsFolder });

/** How many of this code's migrations a backup's list matches; throws when the backup is not a prefix of them. */
export function matchingMigrations(applied: AppliedMigration[]): number {
  const hashes = codeMigrations().map((migration) => migration.hash);
  if (applied.length > hashes.length)
    throw new Error(`the backup is from a newer version (${applied.length} database migrations, this version has ${hashes.length}): restore it with that version`);
  applied.forEach((migration, index) => {
    if (migration.hash !== hashes[index])
      throw new Error(`the backup's database migration ${index + 1} differs from this version's: restore it with the version that wrote it`);
  });
  return applied.length;
}

/** Applies this code's migrations not yet recorded in the session's database, the first `upTo` of them only if given. */
export async function applyMigrations(session: SqlSession, upTo?: number): Promise<void> {
  // drizzle's record of applied migrations (drizzle-orm pg-core dialect.migrate), made the way it makes it.
  await session.query('create schema if not exists "drizzle"');
  await session.query('create table if not exists "drizzle"."__drizzle_migrations" (id serial primary key, hash text not null, created_at bigint)');
  const [last] = await session.query<{ created_at: string | null }>('select created_at from "drizzle"."__drizzle_migrations" order by created_at desc limit 1');
  for (const migration of codeMigrations().slice(0, upTo)) {
    if (last && Number(last.created_at) >= migration.folderMillis) continue;
    for (const statement of migration.sql) if (statement.trim()) await session.query(statement);
    await session.query('insert into "drizzle"."__drizzle_migrations" ("hash", "created_at") values ($1, $2)', [migration.hash, migration.folderMillis]);
  }
}
