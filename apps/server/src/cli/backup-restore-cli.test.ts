// `npm run backup` and `npm run restore` as an operator runs them (decision 058): the database comes
// from DATABASE_URL through the server's config loader, progress and the outcome are printed, an existing backup file
// and a non-empty database are refused with exit code 2 and a message saying how to go on. The file is sealed with
// BACKUP_KEY (decision 094): without a key, or with a changed byte, the restore is refused and the database untouched.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createAdmin } from '../modules/admin/admin-service';
import { fromPostgres } from '../db/client';
import { auditLog } from '../db/schema';
import { createScratchDatabase } from '../../test/test-db';
import { waitFor } from '../../test/wait-for';

const root = path.resolve(import.meta.dirname, '../../../..');

function run(script: 'backup' | 'restore', args: string[], env: Record<string, string>): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    const child = execFile('npx', ['tsx', `apps/server/src/cli/${script}.ts`, ...args], { cwd: root, env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env } }, (error, stdout, stderr) =>
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, out: stdout + stderr }),
    );
    child.stdin?.end();
  });
}

/** Waits until nobody is connected to the database `name` (pg's pool ends before its sessions do). */
async function sessionsGone(name: string): Promise<void> {
  const admin = new pg.Client({ connectionString: inject('postgresAdminUrl') });
  await admin.connect();
  try {
    await waitFor(`the sessions on ${name} to end`, async () => (await admin.query<{ n: number }>('select count(*)::int as n from pg_stat_activity where datname = $1', [name])).rows[0]?.n === 0, 5_000, 20);
  } finally {
    await admin.end();
  }
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

  it('backs up DATABASE_URL sealed with BACKUP_KEY and audited, refuses a keyless backup, a changed byte and another key, restores into an empty database, refuses an existing file and a non-empty database', async () => {
    const source = await createScratchDatabase('prison_cli_src');
    const target = await createScratchDatabase('prison_cli_dst', { migrated: false });
    databases.push(source, target);
    const seeded = fromPostgres(source.url, 1);
    await createAdmin(seeded.db, { username: 'nightshift', name: 'Night Shift', password: 'a long enough passphrase' });
    await seeded.close();

    const BACKUP_KEY = randomBytes(32).toString('base64');
    // No BACKUP_KEY, no SECRET_KEY and no key file beside DATA_DIR: refused, no key made up.
    const keyless = await run('backup', [path.join(dir, 'keyless.backup')], { DATABASE_URL: source.url, DATA_DIR: path.join(dir, 'data') });
    expect(keyless.code, keyless.out).toBe(2);
    expect(keyless.out).toContain(`Backup refused: there is no backup key: no BACKUP_KEY or SECRET_KEY is set and there is no key file ${path.join(dir, 'data.key')}`);

    const file = path.join(dir, 'prison.backup');
    const backup = await run('backup', [file], { DATABASE_URL: source.url, BACKUP_KEY });
    expect(backup.code, backup.out).toBe(0);
    // How long it will take, said before it starts.
    expect(backup.out).toMatch(/^Estimated time: .* for about \d+ rows in \d+ tables, at [\d,]+ rows\/s measured just now on \d+ rows of \w+\.\nBacking up /m);
    expect(backup.out).toMatch(/admins: 1 rows/);
    expect(backup.out).toMatch(/Backup written: .*prison\.backup \(\d+ tables, \d+ rows/);
    expect(backup.out).toContain('Sealed with BACKUP_KEY: keep that key, apart from the backups.');
    const audited = fromPostgres(source.url, 1);
    const entries = await audited.db.select({ action: auditLog.action, actor: auditLog.actor, file: auditLog.entityId }).from(auditLog).orderBy(auditLog.id);
    await audited.close();
    expect(entries.filter((e) => e.action.startsWith('backup.'))).toEqual([{ action: 'backup.create', actor: 'cli', file }]);

    const again = await run('backup', [file], { DATABASE_URL: source.url, BACKUP_KEY });
    expect(again.code).toBe(2);
    expect(again.out).toContain('already exists: choose another name, or add --force to overwrite it');

    // One changed byte, or another key: refused with exit code 2, and nothing written (no migrated, empty schema).
    const bytes = readFileSync(file);
    bytes[bytes.length >> 1] = bytes[bytes.length >> 1]! ^ 0x01;
    const damaged = path.join(dir, 'damaged.backup');
    writeFileSync(damaged, bytes);
    const refusedDamaged = await run('restore', [damaged], { DATABASE_URL: target.url, BACKUP_KEY });
    expect(refusedDamaged.code, refusedDamaged.out).toBe(2);
    expect(refusedDamaged.out).toMatch(/Restore refused: .*damaged\.backup cannot be restored: it is damaged.*Nothing was written/);
    const otherKey = await run('restore', [file], { DATABASE_URL: target.url, BACKUP_KEY: randomBytes(32).toString('hex') });
    expect(otherKey.code, otherKey.out).toBe(2);
    expect(otherKey.out).toMatch(/Restore refused: .*prison\.backup cannot be restored: it was sealed with another key/);
    const untouched = fromPostgres(target.url, 1);
    const tables = (await untouched.db.execute(sql`select count(*)::int as n from pg_tables where schemaname in ('public', 'drizzle')`)) as unknown as { rows: { n: number }[] };
    await untouched.close();
    expect(tables.rows[0]!.n).toBe(0);
    await sessionsGone(target.name); // the restore refuses a database others are connected to

    const restore = await run('restore', [file], { DATABASE_URL: target.url, BACKUP_KEY });
    expect(restore.code, restore.out).toBe(0);
    expect(restore.out).toMatch(/Restored \d+ rows in \d+ tables into the database prison_cli_dst_\w+ on 127\.0\.0\.1:5432; every table's count and checksum match the backup\./);

    const refused = await run('restore', [file], { DATABASE_URL: target.url, BACKUP_KEY });
    expect(refused.code).toBe(2);
    expect(refused.out).toMatch(/Restore refused: the database prison_cli_dst_\w+ on 127\.0\.0\.1:5432 is not empty \(its table admins has rows\); add --force/);

    const usage = await run('restore', [], { DATABASE_URL: target.url });
    expect(usage.code).toBe(2);
    expect(usage.out).toContain('Usage: npm run restore -- FILE [--force] [--allow-unsealed]');
  }, 180_000);
});
