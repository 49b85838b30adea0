// Makes one backup file, from a database connection or from the running server's backup socket, written under a
// temporary name (mode 0600: it holds password hashes) and renamed only once it is complete and read back whole.
import { createReadStream, createWriteStream, renameSync, rmSync } from 'node:fs';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { parseLine } from './backup-file';
import { requestBackup } from './backup-socket';
import type { SqlConnection } from './sql-connection';
import { writeBackup, type BackupProgress, type BackupSummary } from './write-backup';

export type BackupSource = { kind: 'connection'; connection: SqlConnection } | { kind: 'server'; dataDir: string };

/** Reads a backup's lines, reporting each table's end; throws unless it ends with the end mark. */
export async function readBackupSummary(input: Readable, progress?: BackupProgress): Promise<BackupSummary> {
  const lines = createInterface({ input: input.pipe(createGunzip()), crlfDelay: Infinity });
  let number = 0;
  for await (const text of lines) {
    number += 1;
    if (!text || text.startsWith('R\t')) continue;
    const line = parseLine(text, number);
    if (line.kind === 'E') progress?.table(line.value.table, line.value.rows);
    if (line.kind === 'Z') return line.value;
  }
  throw new Error('the backup is incomplete (it has no end mark)');
}

/** Writes the backup to `file`; false when the source is the server and no server answers on its data directory. */
export async function backupToFile(source: BackupSource, file: string, progress?: BackupProgress): Promise<BackupSummary | null> {
  const partial = `${file}.partial`;
  const out = createWriteStream(partial, { mode: 0o600 });
  try {
    if (source.kind === 'connection') {
      await writeBackup(source.connection, out, progress);
    } else {
      const socket = await requestBackup(source.dataDir, out);
      if (!socket) {
        out.destroy();
        rmSync(partial, { force: true });
        return null;
      }
      // The tables as they arrive; the end mark tells a whole backup from a server that stopped half-way.
      await readBackupSummary(socket, progress);
      if (!out.writableFinished) await once(out, 'finish');
    }
    const summary = await readBackupSummary(createReadStream(partial));
    renameSync(partial, file);
    return summary;
  } catch (error) {
    out.destroy();
    rmSync(partial, { force: true });
    throw error;
  }
}
