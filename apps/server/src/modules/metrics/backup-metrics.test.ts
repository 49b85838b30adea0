// The age of the last good backup (decision 113): the logical kind from the newest backup's audit entry (from this
// process's start before the first), no pgBackRest series without PGBACKREST_STANZA, pgBackRest's answer read down
// to its newest backup that did not fail; and the backup command's estimate, made before it starts, from the row
// counts and a rate measured on a sample. The real `pgbackrest info` is run by test/pgbackrest-pitr.test.ts.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { describeEstimate, estimateBackup, formatDuration } from '../../backup/backup-estimate';
import { backupToFile } from '../../backup/backup-to-file';
import { newestLogicalBackupAt } from '../../backup/last-logical-backup';
import { newestGoodBackup } from '../../backup/pgbackrest-info';
import { pgliteConnection } from '../../backup/sql-connection';
import { sample } from '../../../test/metrics-sample';
import { useTestApp } from '../../../test/test-app';

const TOKEN = 'scrape-token-for-the-backup-age-test';
const dir = mkdtempSync(path.join(os.tmpdir(), 'prison-backup-age-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('prison_backup_age_seconds', () => {
  const ctx = useTestApp('pglite', { METRICS_TOKEN: TOKEN });
  const scrape = async () => (await ctx().app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } })).body;

  it('counts the logical kind from the start until a backup is written, then from its audit entry; no pgbackrest series without a stanza', async () => {
    const before = await scrape();
    expect(sample(before, 'prison_backup_age_seconds', { kind: 'logical' })).toBeLessThan(120);
    expect(sample(before, 'prison_backup_age_seconds', { kind: 'pgbackrest' })).toBeUndefined();
    expect(await newestLogicalBackupAt(ctx().database.db)).toBeNull();

    const written = Date.now();
    const connection = pgliteConnection(ctx().database.pglite!);
    await backupToFile({ kind: 'connection', connection }, path.join(dir, 'one.backup'), { key: randomBytes(32), who: { adminId: null, actor: 'test' } });
    const at = await newestLogicalBackupAt(ctx().database.db);
    expect(at!.getTime()).toBeGreaterThanOrEqual(written - 1000);
    expect(sample(await scrape(), 'prison_backup_age_seconds', { kind: 'logical' })).toBeLessThan(5);
  });

  it('estimates the backup before it starts from the rows and a rate measured on the biggest table', async () => {
    const estimate = await estimateBackup(pgliteConnection(ctx().database.pglite!));
    expect(estimate.tables).toBeGreaterThan(20);
    expect(estimate.rows).toBeGreaterThan(0);
    expect(estimate.sample.rows).toBeGreaterThan(0);
    expect(estimate.rowsPerSecond).toBeGreaterThan(0);
    expect(describeEstimate(estimate)).toMatch(/^Estimated time: (under a second|about \d+ s) for about \d+ rows in \d+ tables, at [\d,]+ rows\/s measured just now on \d+ rows of \w+\.$/);
    expect([0.2, 42, 720, 12_000].map(formatDuration)).toEqual(['under a second', 'about 42 s', 'about 12 min', 'about 3 h 20 min']);
  });
});

describe('pgbackrest info, read', () => {
  const backup = (label: string, stop: number, error = false) => ({ label, type: label.endsWith('F') ? 'full' : 'incr', error, timestamp: { start: stop - 5, stop } });

  it('answers the newest backup pgBackRest did not mark failed, null with none, and refuses an unknown stanza', () => {
    const info = [{ name: 'prison', backup: [backup('20261201-010000F', 1_796_000_000), backup('20261201-010000F_20261202-010000I', 1_796_086_400), backup('20261201-010000F_20261203-010000I', 1_796_172_800, true)] }];
    expect(newestGoodBackup(info, 'prison')).toEqual({ label: '20261201-010000F_20261202-010000I', type: 'incr', stoppedAt: new Date(1_796_086_400_000) });
    expect(newestGoodBackup([{ name: 'prison', backup: [] }], 'prison')).toBeNull();
    expect(() => newestGoodBackup(info, 'other')).toThrow('pgbackrest info knows no stanza other');
    expect(() => newestGoodBackup({}, 'prison')).toThrow('did not answer a list of stanzas');
  });
});
