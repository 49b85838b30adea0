// Makes one backup file, from a database connection or from the running server's backup socket, written under a
// temporary name (mode 0600) and renamed only once it is complete and read back whole through its seal with this
// process's key (decision 094): a backup this key cannot open is never left as if it were one.
import { createReadStream, createWriteStream, renameSync, rmSync } from 'node:fs';
import { once } from 'node:events';
import type { AuditActor } from '../lib/audit';
import { requestBackup } from './backup-socket';
import { BackupSealError } from './backup-seal';
import { readBackupSummary } from './read-backup';
import type { SqlConnection } from './sql-connection';
import { writeBackup, type BackupProgress, type BackupSummary } from './write-backup';

export type BackupSource = { kind: 'connection'; connection: SqlConnection } | { kind: 'server'; dataDir: string };

export interface BackupToFileOptions {
  key: Buffer;
  /** Who asked, for the audit entry: the command line, or the server's timer. */
  who: AuditActor;
  progress?: BackupProgress;
}

/** Writes the backup to `file`; null when the source is the server and no server answers on its data directory. */
export async function backupToFile(source: BackupSource, file: string, options: BackupToFileOptions): Promise<BackupSummary | null> {
  const partial = `${file}.partial`;
  const out = createWriteStream(partial, { mode: 0o600 });
  try {
    // Read back whole before the backup counts: for a connection before its audit entry, from the server after it.
    const readBack = { summary: null as BackupSummary | null };
    if (source.kind === 'connection') {
      const check = async () => (readBack.summary = await readBackupSummary(createReadStream(partial), options.key));
      await writeBackup(source.connection, out, { key: options.key, progress: options.progress, audit: { who: options.who, file }, check });
    } else {
      const socket = await requestBackup(source.dataDir, out, file);
      if (!socket) {
        out.destroy();
        rmSync(partial, { force: true });
        return null;
      }
      // The tables as they arrive; the seal's last frame and the end mark tell a whole backup from a server that
      // stopped half-way, and a key this command does not share with the server fails here, at once.
      await readBackupSummary(socket, options.key, options.progress).catch((error: Error) => {
        if (!(error instanceof BackupSealError && error.kind === 'other-key')) throw error;
        throw new Error(`the server sealed the backup with another key than this command's: ${error.message}. Run it with the server's BACKUP_KEY, SECRET_KEY or key file`);
      });
      if (!out.writableFinished) await once(out, 'finish');
      readBack.summary = await readBackupSummary(createReadStream(partial), options.key);
    }
    renameSync(partial, file);
    return readBack.summary;
  } catch (error) {
    out.destroy();
    rmSync(partial, { force: true });
    throw error;
  }
}
