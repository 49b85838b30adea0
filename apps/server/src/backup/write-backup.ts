// Writes a consistent backup of every table: one REPEATABLE READ, read-only transaction (one snapshot) on
// PostgreSQL; on PGlite the transaction holds the single connection, so nothing changes while it runs (decision 058).
// The stream is sealed with the backup key, and a complete backup is written to the audit trail (decision 094).
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { Transform, type Writable } from 'node:stream';
import { createGzip } from 'node:zlib';
import { recordAuditOnSession, type AuditActor } from '../lib/audit';
import { BACKUP_FORMAT, BACKUP_FORMAT_VERSION, ROWS_PER_BATCH, TableChecksum, formatLine, type BackupLine } from './backup-file';
import { backupKeyId, sealStream } from './backup-seal';
import type { SqlConnection } from './sql-connection';
import { appliedMigrations, forEachRow, listSequences, listTables, rowsQuery } from './table-catalog';

export interface BackupProgress {
  table(name: string, rows: number): void;
}

export interface BackupSummary {
  tables: number;
  rows: number;
}

export interface WrittenBackup extends BackupSummary {
  /** SHA-256 of the sealed bytes, as written to the audit trail: `sha256sum FILE` says which entry is the file's. */
  sha256: string;
}

export interface WriteBackupOptions {
  /** The backup key (lib/secret-key.ts loadBackupKey). */
  key: Buffer;
  progress?: BackupProgress;
  /** Who asked and where it goes, for the audit entry. */
  audit: { who: AuditActor; file?: string | null };
  /** Once every byte is out and before the audit entry: reads the file back, so an entry stands for a whole backup. */
  check?: () => Promise<unknown>;
}

export const BACKUP_AUDIT_ENTITY = 'backup';
/** The audit action of a completed backup; the newest one is the last good built-in backup (last-logical-backup.ts). */
export const BACKUP_CREATED = 'backup.create';

/** Streams the backup, gzipped and sealed, into `out` and ends it; then writes the audit entry. */
export async function writeBackup(connection: SqlConnection, out: Writable, options: WriteBackupOptions): Promise<WrittenBackup> {
  const gzip = createGzip();
  const seal = sealStream(options.key);
  const hash = createHash('sha256');
  const hasher = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      done(null, chunk);
    },
  });
  gzip.pipe(seal).pipe(hasher).pipe(out);
  const finished = once(out, 'finish');
  const emit = async (line: BackupLine) => {
    if (!gzip.write(formatLine(line))) await once(gzip, 'drain');
  };
  let summary: BackupSummary;
  try {
    summary = await connection.transaction(async (session) => {
      if (connection.kind === 'postgres') await session.query('set transaction isolation level repeatable read, read only');
      // Timestamps as text the same way whatever the server's zone; the restore checks with the same setting.
      await session.query(`set local timezone = 'UTC'`);
      await emit({ kind: 'H', value: { format: BACKUP_FORMAT, version: BACKUP_FORMAT_VERSION, createdAt: new Date().toISOString(), engine: connection.kind, migrations: await appliedMigrations(session) } });
      const tables = await listTables(session);
      let total = 0;
      for (const table of tables) {
        await emit({ kind: 'T', value: { table: table.name, columns: table.columns } });
        const checksum = new TableChecksum();
        await forEachRow<{ r: string }>(session, rowsQuery(table), ROWS_PER_BATCH, async ({ r }) => {
          checksum.add(r);
          await emit({ kind: 'R', row: r });
        });
        await emit({ kind: 'E', value: { table: table.name, rows: checksum.rows, sha256: checksum.digest() } });
        options.progress?.table(table.name, checksum.rows);
        total += checksum.rows;
      }
      await emit({ kind: 'S', value: await listSequences(session) });
      await emit({ kind: 'Z', value: { tables: tables.length, rows: total } });
      return { tables: tables.length, rows: total };
    });
    gzip.end();
    await finished;
    await options.check?.();
  } catch (error) {
    gzip.destroy(error as Error);
    out.destroy(error as Error);
    throw error;
  }
  const written = { ...summary, sha256: hash.digest('hex') };
  // After the snapshot's transaction (read-only on PostgreSQL), in one of its own: the backup does not hold its entry.
  const entry = {
    action: BACKUP_CREATED,
    entity: BACKUP_AUDIT_ENTITY,
    entityId: options.audit.file ?? null,
    after: { engine: connection.kind, tables: written.tables, rows: written.rows, sha256: written.sha256, keyId: backupKeyId(options.key) },
  };
  await connection.transaction((session) => recordAuditOnSession(session, options.audit.who, entry));
  return written;
}
