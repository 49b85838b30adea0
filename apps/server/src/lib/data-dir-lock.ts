// One process per embedded database (decision 057): DATA_DIR/server.lock names the process that has it open (pid,
// when that process started, which boot), so a second one is refused naming the directory and the holder, and a
// lock left by a process that died without cleaning up (kill -9, power loss) is recognised as stale and taken over.
import { randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';

export const LOCK_FILE_NAME = 'server.lock';

/** What the lock file says about its holder. */
export interface LockHolder {
  pid: number;
  /** The kernel's start time of that process (/proc/PID/stat): a pid reused by another process does not match. */
  startTicks: string | null;
  /** The kernel's boot id: after a reboot every recorded process is gone. */
  bootId: string | null;
  host: string;
  command: string;
  since: string;
}

/** The data directory is held by a live process: the message names the directory and that process. */
export class DataDirInUseError extends Error {
  constructor(
    readonly dataDir: string,
    readonly holder: LockHolder,
  ) {
    super(
      `DATA_DIR ${dataDir} is in use by another process (pid ${holder.pid}, ${holder.command}, since ${holder.since}): ` +
        'two processes on one embedded database would corrupt it. Stop that one first, or give this one another DATA_DIR ' +
        `(lock file ${path.join(dataDir, LOCK_FILE_NAME)}).`,
    );
    this.name = 'DataDirInUseError';
  }
}

const readText = (file: string): string | null => {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return null;
  }
};

function startTicksOf(pid: number): string | null {
  // Field 22 of /proc/PID/stat; the command name (field 2, in parentheses) may hold spaces, so count after it.
  const stat = readText(`/proc/${pid}/stat`);
  return stat?.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
}

const currentBootId = () => readText('/proc/sys/kernel/random/boot_id')?.trim() ?? null;

function parseHolder(text: string): LockHolder | null {
  try {
    const holder = JSON.parse(text) as LockHolder;
    return Number.isInteger(holder.pid) && holder.pid > 0 ? holder : null;
  } catch {
    return null;
  }
}

/** Whether the process the lock names still runs; a lock nobody can name (garbage) holds nothing. */
export function holderIsAlive(holder: LockHolder | null): holder is LockHolder {
  if (!holder) return false;
  const bootId = currentBootId();
  if (holder.bootId && bootId && holder.bootId !== bootId) return false; // rebooted since
  // Our own pid in the file: a container restarted after kill -9 gives the new process the old one's pid.
  if (holder.pid === process.pid) return false;
  try {
    process.kill(holder.pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return false;
    // EPERM: it exists under another user
  }
  // The pid runs, but is it the same process? A pid is reused after its process dies.
  const ticks = startTicksOf(holder.pid);
  return !(holder.startTicks && ticks && ticks !== holder.startTicks);
}

/**
 * Removes the stale lock whose text was `staleText`, unless another process replaced it meanwhile: it is moved
 * aside first (atomic), and put back if what was moved is not what was judged stale.
 */
function removeStaleLock(file: string, staleText: string): void {
  const aside = `${file}.stale.${process.pid}.${randomBytes(4).toString('hex')}`;
  try {
    renameSync(file, aside);
  } catch {
    return; // already gone: someone else removed it
  }
  if (readText(aside) !== staleText) {
    try {
      linkSync(aside, file); // a live lock taken by mistake goes back
    } catch {
      // a third process locked meanwhile: it holds the directory
    }
  }
  unlinkSync(aside);
}

export interface DataDirLock {
  file: string;
  /** Removes the lock file if it is still ours (idempotent; also runs when the process exits). */
  release(): void;
}

/** Locks `dataDir` for this process, taking over a stale lock; throws DataDirInUseError when a live process has it. */
export function lockDataDir(dataDir: string, command = path.basename(process.argv[1] ?? 'node')): DataDirLock {
  const dir = path.resolve(dataDir);
  mkdirSync(dir, { recursive: true, mode: 0o700 }); // the owner's alone, like everything in it (decision 094)
  const file = path.join(dir, LOCK_FILE_NAME);
  const me: LockHolder = {
    pid: process.pid,
    startTicks: startTicksOf(process.pid),
    bootId: currentBootId(),
    host: hostname(),
    command,
    since: new Date().toISOString(),
  };
  const myText = `${JSON.stringify(me)}\n`;
  // Written whole, then linked into place: link fails if the file exists, so no one ever reads half a lock.
  const draft = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  writeFileSync(draft, myText, { mode: 0o600 });
  try {
    for (let attempt = 0; attempt < 5; attempt++) {
      try {
        linkSync(draft, file);
        const release = () => {
          process.off('exit', release);
          if (readText(file) !== myText) return;
          try {
            unlinkSync(file);
          } catch {
            // gone already
          }
        };
        process.on('exit', release);
        return { file, release };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      const text = readText(file);
      if (text === null) continue; // released meanwhile
      const holder = parseHolder(text);
      if (holderIsAlive(holder)) throw new DataDirInUseError(dir, holder);
      removeStaleLock(file, text);
    }
    throw new Error(`could not lock DATA_DIR ${dir}: its lock file ${file} keeps changing`);
  } finally {
    unlinkSync(draft);
  }
}

/** lockDataDir for a process: refused, it prints why (no stack trace: nothing in it is a bug) and exits with status 1. */
export function lockDataDirOrExit(dataDir: string): DataDirLock {
  try {
    return lockDataDir(dataDir);
  } catch (error) {
    const why = error instanceof DataDirInUseError ? error.message : `DATA_DIR ${path.resolve(dataDir)} cannot be locked: ${(error as Error).message}`;
    console.error(why);
    process.exit(1);
  }
}
