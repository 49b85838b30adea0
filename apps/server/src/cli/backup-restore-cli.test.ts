// `npm run backup` and `npm run restore` as an operator runs them (issue 23 item 3, decision 058): the database comes
// from DATABASE_URL through the server's config loader, progress and the outcome are printed, an existing backup file
// and a non-empty database are refused with exit code 2 and a message saying how to go on.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createAdmin } from '../modules/admin/admin-service';
import { fromPostgres } from '../db/client';
import { createScratchDatabase } from '../../test/test-db';

const root = path.resolve(import.meta.dirname, '../../../..');

function run(script: 'backup' | 'restore', args: string[], env: Record<string, string>): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    const child = execFile('npx', ['tsx', `apps/server/src/cli/${script}.ts`, ...args], { cwd: root, env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env } }, (error, stdout, stderr) =>
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, out: stdout + stderr }),
    );
    child.stdin?.end();
  });
}

describe.skipIf(!inject('postgresAdminUrl'))('backup and restore commands (PostgreSQL)', () => {
  const databases: { url: string; drop(): Promise<void> }[] = [];
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'prison-backup-cli-'));
  });
  afterAll(async () => {
    for (const database of databases) await database.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('backs up DATABASE_URL with progress, restores it into an empty database, refuses an existing file and a non-empty database', async () => {
    const source = await createScratchDatabase('prison_cli_src');
    const target = await createScratchDatabase('prison_cli_dst', { migrated: false });
    databases.push(source, target);
    const seeded = fromPostgres(source.url, 1);
    await createAdmin(seeded.db, { username: 'nightshift', name: 'Night Shift', password: 'a long enough passphrase' });
    await seeded.close();

    const file = path.join(dir, 'prison.gz');
    const backup = await run('backup', [file], { DATABASE_URL: source.url });
    expect(backup.code, backup.out).toBe(0);
    expect(backup.out).toMatch(/admins: 1 rows/);
    expect(backup.out).toMatch(/Backup written: .*prison\.gz \(\d+ tables, \d+ rows/);

    const again = await run('backup', [file], { DATABASE_URL: source.url });
    expect(again.code).toBe(2);
    expect(again.out).toContain('already exists: choose another name, or add --force to overwrite it');

    const restore = await run('restore', [file], { DATABASE_URL: target.url });
    expect(restore.code, restore.out).toBe(0);
    expect(restore.out).toMatch(/Restored \d+ rows in \d+ tables into the database prison_cli_dst_\w+ on 127\.0\.0\.1:5432; every table's count and checksum match the backup\./);

    const refused = await run('restore', [file], { DATABASE_URL: target.url });
    expect(refused.code).toBe(2);
    expect(refused.out).toMatch(/Restore refused: the database prison_cli_dst_\w+ on 127\.0\.0\.1:5432 is not empty \(its table admins has rows\); add --force/);

    const usage = await run('restore', [], { DATABASE_URL: target.url });
    expect(usage.code).toBe(2);
    expect(usage.out).toContain('Usage: npm run restore -- FILE [--force]');
  }, 120_000);
});
