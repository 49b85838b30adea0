// The code's migrations up to the level a backup was taken at, so a backup from an earlier version restores into the
// schema it was written for, and the full migrations then bring it to this version (decision 058).
import { createHash } from 'node:crypto';
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { migrationsFolder } from '../db/client';
import type { AppliedMigration } from './table-catalog';

interface JournalEntry {
  tag: string;
  when: number;
}

function readJournal(): { journal: Record<string, unknown> & { entries: JournalEntry[] }; hashes: string[] } {
  const journal = JSON.parse(readFileSync(path.join(migrationsFolder, 'meta', '_journal.json'), 'utf8'));
  // The hash drizzle stores for each applied migration: SHA-256 of the file's text.
  const hashes = journal.entries.map((entry: JournalEntry) =>
    createHash('sha256').update(readFileSync(path.join(migrationsFolder, `${entry.tag}.sql`), 'utf8')).digest('hex'),
  );
  return { journal, hashes };
}

/** How many of this code's migrations a backup's list matches; throws when the backup is not a prefix of them. */
export function matchingMigrations(applied: AppliedMigration[]): number {
  const { hashes } = readJournal();
  if (applied.length > hashes.length)
    throw new Error(`the backup is from a newer version (${applied.length} database migrations, this version has ${hashes.length}): restore it with that version`);
  applied.forEach((migration, index) => {
    if (migration.hash !== hashes[index])
      throw new Error(`the backup's database migration ${index + 1} differs from this version's: restore it with the version that wrote it`);
  });
  return applied.length;
}

/** A temporary migrations folder holding the first `count` migrations; the caller removes `dir`. */
export function migrationsFolderUpTo(count: number): string {
  const { journal } = readJournal();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'prison-restore-migrations-'));
  mkdirSync(path.join(dir, 'meta'));
  const entries = journal.entries.slice(0, count);
  for (const entry of entries) copyFileSync(path.join(migrationsFolder, `${entry.tag}.sql`), path.join(dir, `${entry.tag}.sql`));
  writeFileSync(path.join(dir, 'meta', '_journal.json'), JSON.stringify({ ...journal, entries }));
  return dir;
}
