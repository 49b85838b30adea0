// Backup and restore round trip on each engine (decision 058): a backup taken while OsmAnd fixes
// stream in is one consistent cut; restored into a fresh directory or database, then (forced) a quiet backup of the
// same source, every table of the schema (enumerated from the catalog) has the same rows and checksum as the source;
// a non-empty target is refused without --force; scheduled backups keep the newest N and only the leader takes them.
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { createPglite } from '../db/client';
import { addDevice, addPrisoner, osmandGet, useListeningApp } from '../tracking/tracking-test-kit';
import { createTestDatabase, createScratchDatabase, describeEachEngine, describeOnPglite, type Engine } from '../../test/test-db';
import { waitFor } from '../../test/wait-for';
import { requestEstimate, serveBackups } from './backup-socket';
import { backupToFile } from './backup-to-file';
import { RestoreRefused, restoreBackup } from './restore-backup';
import type { RestoreTargetSpec } from './restore-target';
import { startScheduledBackups } from './scheduled-backups';
import { pgliteConnection, postgresConnection, type SqlConnection, type SqlSession } from './sql-connection';
import { listTables, quoteIdent } from './table-catalog';

const quietLog = { info: () => undefined, error: () => undefined };
const key = randomBytes(32);
const who = { adminId: null, actor: 'test' };

/**
 * Count and an independent checksum (md5 of the rows' text in text order) of every table, and the sequences.
 * `withoutBackupEntries`: the audit trail without the entries backups and restores write (a backup's own entry is
 * written after its snapshot, a restore's into the restored database), and without its sequence.
 */
async function fingerprint(connection: SqlConnection, withoutBackupEntries = false): Promise<Record<string, { rows: number; md5: string }>> {
  return connection.transaction(async (session: SqlSession) => {
    await session.query(`set local timezone = 'UTC'`);
    const result: Record<string, { rows: number; md5: string }> = {};
    for (const table of await listTables(session)) {
      // The audit chain's head moves with the backup's and the restore's own entries, left out below.
      if (withoutBackupEntries && table.name === 'audit_chain') continue;
      const where = withoutBackupEntries && table.name === 'audit_log' ? ` where x.action not in ('backup.create', 'backup.restore')` : '';
      const [row] = await session.query<{ rows: number; md5: string }>(
        `select count(*)::int as rows, coalesce(md5(string_agg(x::text, E'\\n' order by x::text)), '') as md5 from public.${quoteIdent(table.name)} x${where}`,
      );
      result[table.name] = row!;
    }
    for (const s of await session.query<{ name: string; last_value: string | null }>(`select sequencename as name, last_value::text from pg_sequences where schemaname = 'public'`))
      if (!(withoutBackupEntries && s.name === 'audit_log_id_seq')) result[`sequence ${s.name}`] = { rows: 1, md5: s.last_value ?? 'unused' };
    return result;
  });
}

describeEachEngine('backup and restore', (engine: Engine) => {
  const ctx = useListeningApp(engine);
  let dir: string;
  let sourceUrl = '';
  const scratch: { drop(): Promise<void> }[] = [];
  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'prison-backup-test-'));
    mkdirSync(path.join(dir, 'source')); // the data directory whose backup socket the server listens on
  });
  afterAll(async () => {
    for (const database of scratch) await database.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  /** The source, seen as the backup command sees it: the PGlite through the server's socket, PostgreSQL directly. */
  async function connectSource(): Promise<SqlConnection> {
    if (engine === 'pglite') return pgliteConnection(ctx().database.pglite!);
    if (!sourceUrl) {
      // The test database's own URL: the run's server address with the database's name.
      const result = (await ctx().database.db.execute(sql`select current_database() as name`)) as unknown as { rows: { name: string }[] };
      const url = new URL(inject('postgresAdminUrl'));
      url.pathname = `/${result.rows[0]!.name}`;
      sourceUrl = url.toString();
    }
    return postgresConnection(sourceUrl);
  }
  async function takeBackup(file: string) {
    if (engine === 'pglite') {
      const socket = await serveBackups(pgliteConnection(ctx().database.pglite!), path.join(dir, 'source'), key, quietLog);
      try {
        // The command asks the running server how long it will take before it starts (decision 113).
        expect((await requestEstimate(path.join(dir, 'source')))?.rows).toBeGreaterThan(0);
        return await backupToFile({ kind: 'server', dataDir: path.join(dir, 'source') }, file, { key, who });
      } finally {
        await socket.close();
      }
    }
    const connection = await connectSource();
    try {
      return await backupToFile({ kind: 'connection', connection }, file, { key, who });
    } finally {
      await connection.close();
    }
  }
  let target: RestoreTargetSpec;
  async function openRestored(): Promise<{ connection: SqlConnection; close(): Promise<void> }> {
    if (target.kind === 'pglite') {
      const client = await createPglite({ dataDir: path.join(target.dataDir, 'pglite') });
      return { connection: pgliteConnection(client), close: () => client.close() };
    }
    const connection = await postgresConnection(target.url);
    return { connection, close: () => connection.close() };
  }

  it('a backup under ingestion restores into a fresh target as one consistent cut; a quiet one restores identical; a non-empty target is refused without --force', async () => {
    const c = ctx();
    const devices = [];
    for (let i = 0; i < 3; i++) {
      const prisoner = await addPrisoner(c);
      devices.push(await addDevice(c, { prisoner_id: prisoner.id }));
    }
    // A Critical alert (SOS), and the audit trail the API writes, besides the accounts and records above.
    expect((await osmandGet(c.osmandUrl, { id: devices[0]!.id, lat: 51.5, lon: -0.12, alarm: 'sos' })).status).toBe(200);
    const fixCount = async () => (await fingerprint(await connectSourceOnce()))['positions']!.rows;
    let sourceOnce: SqlConnection | undefined;
    async function connectSourceOnce() {
      sourceOnce ??= await connectSource();
      return sourceOnce;
    }

    // Fixes stream in through the OsmAnd port, from before the backup starts to after it ends.
    let streaming = true;
    let acked = 0;
    const stream = (async () => {
      for (let n = 0; streaming; n++) {
        const device = devices[n % devices.length]!;
        const answer = await osmandGet(c.osmandUrl, { id: device.id, lat: 51.5 + n * 1e-5, lon: -0.12, timestamp: new Date().toISOString() });
        if (answer.status === 200) acked += 1;
      }
    })();
    let before: number;
    let summary: Awaited<ReturnType<typeof takeBackup>>;
    const underIngestion = path.join(dir, 'under-ingestion.backup');
    try {
      await waitFor('fixes streaming', () => acked >= 20);
      before = await fixCount();
      summary = await takeBackup(underIngestion);
      const ackedAtBackupEnd = acked;
      await waitFor('fixes after the backup', () => acked >= ackedAtBackupEnd + 20);
    } finally {
      streaming = false;
      await stream;
    }
    const after = await fixCount();
    expect(summary!.rows).toBeGreaterThan(0);

    // A fresh target: an empty data directory, or a database nobody created anything in.
    if (engine === 'pglite') target = { kind: 'pglite', dataDir: path.join(dir, 'restored') };
    else {
      const database = await createScratchDatabase('prison_restore', { migrated: false });
      scratch.push(database);
      target = { kind: 'postgres', url: database.url };
    }
    await restoreBackup({ file: underIngestion, target, key });
    let restored = await openRestored();
    const cut = await fingerprint(restored.connection);
    // One consistent cut: the fixes of one moment (between before and after), and each device's last fix among them.
    expect(cut['positions']!.rows).toBeGreaterThanOrEqual(before);
    expect(cut['positions']!.rows).toBeLessThanOrEqual(after);
    const mismatched = await restored.connection.transaction((s) =>
      s.query(`select d.id from devices d left join (select device_id, max(recorded_at) as last from positions group by device_id) p on p.device_id = d.id where d.last_fix_at is distinct from p.last`),
    );
    expect(mismatched).toEqual([]);
    await restored.close();

    // Quiet now: a second backup, forced over the first restore, is identical to the source in every table.
    const quiet = path.join(dir, 'quiet.backup');
    await takeBackup(quiet);
    const source = await fingerprint(await connectSourceOnce(), true);
    for (const table of ['admins', 'prisoners', 'devices', 'positions', 'alerts', 'audit_log']) expect(source[table]?.rows, table).toBeGreaterThan(0);
    expect(source['positions']!.rows).toBe(after);

    await expect(restoreBackup({ file: quiet, target, key })).rejects.toThrow(RestoreRefused);
    restored = await openRestored();
    expect(await fingerprint(restored.connection)).toEqual(cut); // refused: nothing changed
    await restored.close();

    await restoreBackup({ file: quiet, target, key, force: true });
    restored = await openRestored();
    expect(await fingerprint(restored.connection, true)).toEqual(source);
    await restored.close();
    await sourceOnce?.close();
  }, 240_000);
});

describeOnPglite('scheduled backups', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'prison-scheduled-test-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('run on the timer, keep the newest BACKUP_KEEP and leave other files alone; a process that is not the leader takes none', async () => {
    const database = await createTestDatabase('pglite');
    try {
      writeFileSync(path.join(dir, 'notes.txt'), 'not a backup');
      const written: string[] = [];
      const log = { info: (o: object) => written.push((o as { file: string }).file), error: () => undefined };
      const follower = startScheduledBackups({ dir, everyHours: 0.2 / 3600, keep: 2, key, connect: async () => pgliteConnection(database.pglite!), isLeader: () => false, log });
      const leader = startScheduledBackups({ dir, everyHours: 0.2 / 3600, keep: 2, key, connect: async () => pgliteConnection(database.pglite!), isLeader: () => true, log });
      await waitFor('four scheduled backups', () => written.length >= 4, 30_000);
      await leader.stop();
      await follower.stop();
      expect(await follower.runOnce()).toBeNull();
      const kept = readdirSync(dir).filter((name) => name.startsWith('prison-backup-')).sort();
      expect(kept).toEqual(written.slice(-2).map((file) => path.basename(file)).sort());
      expect(readdirSync(dir)).toContain('notes.txt');
      expect(new Set(written).size).toBe(written.length); // each run its own file
    } finally {
      await database.close();
    }
  }, 60_000);
});
