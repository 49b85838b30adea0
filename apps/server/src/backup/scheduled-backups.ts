// Backups on a timer while the server runs (BACKUP_DIR, BACKUP_EVERY_HOURS, BACKUP_KEEP): one file per run, named by
// its UTC time, the newest BACKUP_KEEP kept. In a cluster only the leader takes them (decision 058).
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { SYSTEM_ACTOR } from '../lib/audit';
import { backupToFile } from './backup-to-file';
import type { SqlConnection } from './sql-connection';

// `.gz` were the older, unsealed files (decision 094): rotated with the new ones, so they go as the newest are kept.
const NAME = /^prison-backup-\d{8}T\d{6}(\d{3})?Z\.(backup|gz)$/;

/** `prison-backup-20261125T153000123Z.backup`: names sort as the times they were taken. */
export function scheduledBackupName(at: Date): string {
  return `prison-backup-${at.toISOString().replace(/[-:.]/g, '')}.backup`;
}

/** Removes all but the newest `keep` scheduled backups of `dir` (other files are left alone); returns the removed. */
export function rotateBackups(dir: string, keep: number): string[] {
  const backups = readdirSync(dir).filter((name) => NAME.test(name)).sort();
  const removed = backups.slice(0, Math.max(0, backups.length - keep));
  for (const name of removed) rmSync(path.join(dir, name), { force: true });
  return removed;
}

/** When the newest scheduled backup of `dir` was taken (from its name), or null when it holds none (or is missing). */
export function newestScheduledBackupAt(dir: string): Date | null {
  let names: string[];
  try {
    names = readdirSync(dir).filter((name) => NAME.test(name)).sort();
  } catch {
    return null;
  }
  const stamp = /^prison-backup-(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})(\d{3})?Z/.exec(names.at(-1) ?? '');
  if (!stamp) return null;
  const [, y, mo, d, h, mi, sec, ms] = stamp;
  return new Date(`${y}-${mo}-${d}T${h}:${mi}:${sec}.${ms ?? '000'}Z`);
}

interface Log {
  info(object: object, message: string): void;
  error(object: object, message: string): void;
}

export interface ScheduledBackupOptions {
  dir: string;
  everyHours: number;
  keep: number;
  /** The backup key every file is sealed with. */
  key: Buffer;
  /** A connection for one backup (closed after it). */
  connect(): Promise<SqlConnection>;
  /** Only the cluster's leader takes them; a single process always is. */
  isLeader(): boolean;
  log: Log;
}

export interface ScheduledBackups {
  /** One backup now (the timer's work); resolves to the file, or null when skipped. */
  runOnce(): Promise<string | null>;
  stop(): Promise<void>;
}

export function startScheduledBackups(options: ScheduledBackupOptions): ScheduledBackups {
  let running: Promise<string | null> | null = null;
  const runOnce = async (): Promise<string | null> => {
    if (running || !options.isLeader()) return null;
    running = (async () => {
      mkdirSync(options.dir, { recursive: true, mode: 0o700 });
      const file = path.join(options.dir, scheduledBackupName(new Date()));
      const started = Date.now();
      const connection = await options.connect();
      try {
        const summary = await backupToFile({ kind: 'connection', connection }, file, { key: options.key, who: SYSTEM_ACTOR });
        const removed = rotateBackups(options.dir, options.keep);
        options.log.info({ file, ...summary, ms: Date.now() - started, removed }, 'scheduled backup written');
        return file;
      } finally {
        await connection.close();
      }
    })();
    try {
      return await running;
    } catch (error) {
      options.log.error({ err: error, dir: options.dir }, 'scheduled backup failed');
      return null;
    } finally {
      running = null;
    }
  };
  const timer = setInterval(() => void runOnce(), options.everyHours * 3_600_000);
  timer.unref();
  return {
    runOnce,
    stop: async () => {
      clearInterval(timer);
      await running?.catch(() => undefined);
    },
  };
}
