// A copy of the migrations folder whose journal stops before a given migration: a database migrated with it has the
// schema an existing install had, for tests and benchmarks of the migrations after it. The caller removes the folder.
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { migrationsFolder } from '../src/db/client';

export function migrationsBefore(idx: number): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'prison-migrations-'));
  cpSync(migrationsFolder, dir, { recursive: true });
  const journalFile = path.join(dir, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(journalFile, 'utf8')) as { entries: { idx: number }[] };
  journal.entries = journal.entries.filter((e) => e.idx < idx);
  writeFileSync(journalFile, JSON.stringify(journal));
  return dir;
}
