// The local way to back up an embedded database while the server holds it (decision 058): PGlite is one process's,
// so the server listens on a Unix socket inside DATA_DIR (mode 0600: whoever may read the data directory may read the
// backup, nobody else) and writes the backup down it from its own connection, sealed with its backup key (decision
// 094), so no plain copy leaves the server. No network port, no login.
import { chmodSync, rmSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type { Writable } from 'node:stream';
import { estimateBackup, type BackupEstimate } from './backup-estimate';
import type { SqlConnection } from './sql-connection';
import { writeBackup } from './write-backup';

export const backupSocketPath = (dataDir: string) => path.resolve(dataDir, 'backup.sock');

export interface BackupSocket {
  close(): Promise<void>;
}

interface Log {
  info(object: object, message: string): void;
  error(object: object, message: string): void;
}

/** What the backup command says it writes to, for the audit entry; at most this long. */
const MAX_FILE_NAME = 1000;

/**
 * Answers `ping` (is a server here?), `estimate` (how long a backup will take, as one JSON line) and `backup [FILE]`
 * (the sealed backup's bytes, then the end of the stream; FILE is where the command writes it, for the audit entry).
 */
export async function serveBackups(connection: SqlConnection, dataDir: string, key: Buffer, log: Log): Promise<BackupSocket> {
  const socketPath = backupSocketPath(dataDir);
  rmSync(socketPath, { force: true }); // left by a process that was killed; the data directory is ours now
  const server = net.createServer((socket) => {
    socket.on('error', () => undefined);
    socket.once('data', (data) => {
      const [command, ...rest] = data.toString('utf8').trim().split('\t');
      if (command === 'ping') {
        socket.end('pong\n');
      } else if (command === 'estimate') {
        estimateBackup(connection).then(
          (estimate) => socket.end(`${JSON.stringify(estimate)}\n`),
          (error: unknown) => {
            log.error({ err: error }, 'backup estimate for the backup command failed');
            socket.end();
          },
        );
      } else if (command === 'backup') {
        const started = Date.now();
        const file = rest.join('\t').slice(0, MAX_FILE_NAME) || null;
        writeBackup(connection, socket, { key, audit: { who: { adminId: null, actor: 'cli' }, file } }).then(
          (summary) => log.info({ ...summary, ms: Date.now() - started }, 'backup written to the backup command'),
          (error: unknown) => log.error({ err: error }, 'backup through the backup socket failed'),
        );
      } else {
        socket.end();
      }
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, () => resolve());
  });
  chmodSync(socketPath, 0o600);
  return {
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        rmSync(socketPath, { force: true });
      }),
  };
}

function connect(dataDir: string): Promise<net.Socket | null> {
  return new Promise((resolve, reject) => {
    const socket = net.createConnection(backupSocketPath(dataDir));
    socket.once('connect', () => resolve(socket));
    socket.once('error', (error: NodeJS.ErrnoException) => {
      // No socket, or one left by a killed process: no server on this data directory.
      if (error.code === 'ENOENT' || error.code === 'ECONNREFUSED') resolve(null);
      else reject(error);
    });
  });
}

/** Sends one short command and reads the whole answer; null when no server answers here. */
async function ask(dataDir: string, command: string): Promise<string | null> {
  const socket = await connect(dataDir);
  if (!socket) return null;
  // Written, not ended: a half-closed socket would end the server's side before a slower answer is written.
  socket.write(`${command}\n`);
  return new Promise<string>((resolve) => {
    let text = '';
    socket.on('data', (chunk) => (text += chunk.toString('utf8')));
    socket.on('close', () => resolve(text));
    socket.on('error', () => resolve(text));
  });
}

/** True when a server answers on this data directory's backup socket. */
export async function serverAnswers(dataDir: string): Promise<boolean> {
  return (await ask(dataDir, 'ping'))?.startsWith('pong') ?? false;
}

/** The running server's estimate of a backup; null when it gives none (an older server, or it failed). */
export async function requestEstimate(dataDir: string): Promise<BackupEstimate | null> {
  try {
    return JSON.parse((await ask(dataDir, 'estimate')) ?? '') as BackupEstimate;
  } catch {
    return null;
  }
}

/** Asks the running server for a backup and pipes its bytes into `out`; null when no server answers here. */
export async function requestBackup(dataDir: string, out: Writable, file: string): Promise<net.Socket | null> {
  const socket = await connect(dataDir);
  if (!socket) return null;
  socket.write(`backup\t${file.replace(/[\t\n]/g, ' ')}\n`);
  socket.pipe(out);
  return socket;
}
