// When pgBackRest last finished a good backup of a stanza, from `pgbackrest info --output=json` (decision 113). Run
// as the server's own user: it reads the repository and pgBackRest's configuration (PGBACKREST_CONFIG and its other
// variables come through the environment), writes no log file and takes no lock, so it may run at every scrape.
import { execFile } from 'node:child_process';

export interface PgBackRestBackup {
  label: string;
  type: string;
  /** When the backup finished (pgBackRest's `timestamp.stop`). */
  stoppedAt: Date;
}

interface InfoBackup {
  label?: unknown;
  type?: unknown;
  error?: unknown;
  timestamp?: { stop?: unknown };
}

interface InfoStanza {
  name?: unknown;
  backup?: unknown;
}

/** The newest backup of `stanza` in the parsed JSON that pgBackRest did not mark as failed; null when there is none. */
export function newestGoodBackup(info: unknown, stanza: string): PgBackRestBackup | null {
  if (!Array.isArray(info)) throw new Error('pgbackrest info did not answer a list of stanzas');
  const entry = (info as InfoStanza[]).find((s) => s?.name === stanza);
  if (!entry) throw new Error(`pgbackrest info knows no stanza ${stanza}`);
  let newest: PgBackRestBackup | null = null;
  for (const backup of Array.isArray(entry.backup) ? (entry.backup as InfoBackup[]) : []) {
    // `error` is true when a file failed its checksum while the backup was taken: not a backup to count on.
    if (backup.error === true || typeof backup.timestamp?.stop !== 'number') continue;
    const stoppedAt = new Date(backup.timestamp.stop * 1000);
    if (!newest || stoppedAt > newest.stoppedAt) newest = { label: String(backup.label), type: String(backup.type), stoppedAt };
  }
  return newest;
}

export interface PgBackRestInfoOptions {
  /** The pgbackrest program; `pgbackrest` from PATH by default. */
  command?: string;
  env?: NodeJS.ProcessEnv;
  timeoutMs?: number;
}

/** Runs `pgbackrest info` for the stanza and answers its newest good backup; rejects naming what went wrong. */
export function readPgBackRestInfo(stanza: string, options: PgBackRestInfoOptions = {}): Promise<PgBackRestBackup | null> {
  const args = [`--stanza=${stanza}`, '--output=json', '--log-level-console=off', '--log-level-stderr=error', '--log-level-file=off', 'info'];
  return new Promise((resolve, reject) => {
    execFile(
      options.command ?? 'pgbackrest',
      args,
      { env: options.env ?? process.env, timeout: options.timeoutMs ?? 10_000, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error) {
          const said = stderr.trim().split('\n').at(-1) ?? '';
          reject(new Error(`pgbackrest info failed: ${said || error.message}`));
          return;
        }
        try {
          resolve(newestGoodBackup(JSON.parse(stdout) as unknown, stanza));
        } catch (problem) {
          reject(problem instanceof SyntaxError ? new Error('pgbackrest info did not answer JSON') : problem);
        }
      },
    );
  });
}
