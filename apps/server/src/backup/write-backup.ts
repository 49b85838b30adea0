// Writes a consistent backup of every table: one REPEATABLE READ, read-only transaction (one snapshot) on
// PostgreSQL; on PGlite the transaction holds the single connection, so nothing changes while it runs (decision 058).
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { createGzip } from 'node:zlib';
import { BACKUP_FORMAT, BACKUP_FORMAT_VERSION, ROWS_PER_BATCH, TableChecksum, formatLine, type BackupLine } from './backup-file';
import type { SqlConnection } from './sql-connection';
import { appliedMigrations, forEachRow, listSequences, listTables, rowsQuery } from './table-catalog';

export interface BackupProgress {
  table(name: string, rows: number): void;
}

export interface BackupSummary {
  tables: number;
  rows: number;
}

/** Streams the backup, gzipped, into `out` and ends it. */
export async function writeBackup(connection: SqlConnection, out: Writable, progress?: BackupProgress): Promise<BackupSummary> {
  const gzip = createGzip();
  gzip.pipe(out);
  const finished = once(out, 'finish');
  const emit = async (line: BackupLine) => {
    if (!gzip.write(formatLine(line))) await once(gzip, 'drain');
  };
  try {
    const summary = await connection.transaction(async (session) => {
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
        progress?.table(table.name, checksum.rows);
        total += checksum.rows;
      }
      await emit({ kind: 'S', value: await listSequences(session) });
      await emit({ kind: 'Z', value: { tables: tables.length, rows: total } });
      return { tables: tables.length, rows: total };
    });
    gzip.end();
    await finished;
    return summary;
  } catch (error) {
    gzip.destroy(error as Error);
    out.destroy(error as Error);
    throw error;
  }
}
