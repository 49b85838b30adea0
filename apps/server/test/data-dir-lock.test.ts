// One process per data directory (decision 057), with real server processes: a second server on the same
// DATA_DIR is refused naming it and the holder, a lock left by a server killed with SIGKILL does not block the next
// start, and a refused configuration ends the process with every problem and no stack trace.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DataDirInUseError, LOCK_FILE_NAME, lockDataDir } from '../src/lib/data-dir-lock';
import { killStartedServers, startServerProcess } from './server-process';
import { waitFor } from './wait-for';

const scratch = mkdtempSync(path.join(tmpdir(), 'prison-lock-'));
// Ports of this test (3941-3959 belong to it).
const PORTS = { first: 3941, second: 3942, restart: 3943 };
afterAll(() => {
  killStartedServers();
  rmSync(scratch, { recursive: true, force: true });
});

const startServer = (env: Record<string, string>, script?: string[]) =>
  startServerProcess({ ADMIN_USERNAME: 'lockkeeper', ADMIN_PASSWORD: 'one process per data directory', ...env }, { script });

async function isReady(port: number): Promise<boolean> {
  return (await fetch(`http://127.0.0.1:${port}/readyz`)).ok;
}

const holderOf = (dataDir: string) => JSON.parse(readFileSync(path.join(dataDir, LOCK_FILE_NAME), 'utf8')) as { pid: number };

describe('a data directory belongs to one server process', () => {
  const dataDir = path.join(scratch, 'prison data');

  it('refuses a second server on the same DATA_DIR, naming it and the process that has it', async () => {
    const first = startServer({ DATA_DIR: dataDir, PORT: String(PORTS.first) });
    await waitFor('the first server to be ready', () => isReady(PORTS.first), 90_000, 250);
    expect(holderOf(dataDir).pid).toBe(first.child.pid);

    const second = startServer({ DATA_DIR: dataDir, PORT: String(PORTS.second) });
    expect(await second.exited).toBe(1);
    const refusal = second.output();
    expect(refusal).toContain(`DATA_DIR ${path.resolve(dataDir)} is in use by another process (pid ${first.child.pid}`);
    expect(refusal).not.toMatch(/\n\s+at /); // no stack trace
    // Refused before listening or opening the database: the first one still serves, its lock untouched.
    await expect(fetch(`http://127.0.0.1:${PORTS.second}/readyz`)).rejects.toThrow();
    expect(await isReady(PORTS.first)).toBe(true);
    expect(holderOf(dataDir).pid).toBe(first.child.pid);

    // The admin command line would open the same embedded database: refused too.
    const admin = startServer({ DATA_DIR: dataDir }, ['apps/server/src/cli/admin.ts', 'reset-totp', 'lockkeeper']);
    expect(await admin.exited).toBe(1);
    expect(admin.output()).toContain(`DATA_DIR ${path.resolve(dataDir)} is in use by another process (pid ${first.child.pid}`);

    // kill -9 leaves the lock file behind; the next start sees its process is gone and takes it over.
    first.child.kill('SIGKILL');
    await first.exited;
    expect(holderOf(dataDir).pid).toBe(first.child.pid);
    const restarted = startServer({ DATA_DIR: dataDir, PORT: String(PORTS.restart), LOG_LEVEL: 'info' });
    await waitFor('the restarted server to be ready', () => isReady(PORTS.restart), 90_000, 250);
    expect(holderOf(dataDir).pid).toBe(restarted.child.pid);

    // A graceful stop removes the lock.
    restarted.child.kill('SIGTERM');
    expect(await restarted.exited).toBe(0);
    expect(existsSync(path.join(dataDir, LOCK_FILE_NAME))).toBe(false);
  }, 240_000);

  it('a refused configuration stops the process with every problem, no stack trace and no password', async () => {
    const refused = startServer({
      DATA_DIR: path.join(scratch, 'never-opened'),
      PORT: 'abc',
      SESSION_IDLE_MINUTES: 'soon',
      DATABASE_URL: 'postgres://prison:Tr0ub4dor-s3cret@db.example:port/prison',
    });
    expect(await refused.exited).toBe(2);
    const output = refused.output();
    expect(output).toContain("PORT must be a whole number from 0 to 65535 (got 'abc')");
    expect(output).toContain('SESSION_IDLE_MINUTES must be a whole number from 0 to 1440');
    expect(output).toContain('DATABASE_URL must be a PostgreSQL URL');
    expect(output).not.toContain('Tr0ub4dor');
    expect(output).not.toMatch(/\n\s+at /);
    expect(existsSync(path.join(scratch, 'never-opened'))).toBe(false);
  }, 60_000);
});

describe('stale locks (in this process)', () => {
  const lockFile = (dir: string) => path.join(dir, LOCK_FILE_NAME);
  const holder = (pid: number, extra: object = {}) => JSON.stringify({ pid, startTicks: null, bootId: null, host: 'h', command: 'server.ts', since: '2026-01-01T00:00:00Z', ...extra });

  it.each([
    ['a pid no process has', holder(2 ** 22 + 12_345)],
    ['this process\'s own pid (a container restarted after kill -9 reuses it)', holder(process.pid)],
    ['a live pid that belongs to a later process (pid reuse)', holder(process.ppid, { startTicks: '1' })],
    ['an earlier boot', holder(process.ppid, { bootId: 'another-boot' })],
    ['a file no one can read as a lock', 'garbage'],
  ])('takes over a lock naming %s', (_, text) => {
    const dir = mkdtempSync(path.join(scratch, 'stale-'));
    writeFileSync(lockFile(dir), text);
    const lock = lockDataDir(dir);
    expect(holderOf(dir).pid).toBe(process.pid);
    lock.release();
    expect(existsSync(lockFile(dir))).toBe(false);
  });

  it('refuses while the process the lock names still runs, and leaves its lock alone', () => {
    const dir = mkdtempSync(path.join(scratch, 'live-'));
    const text = holder(process.ppid); // our parent: alive, and no start time to compare
    writeFileSync(lockFile(dir), text);
    expect(() => lockDataDir(dir)).toThrow(DataDirInUseError);
    expect(() => lockDataDir(dir)).toThrow(`DATA_DIR ${dir} is in use by another process (pid ${process.ppid}, server.ts`);
    expect(readFileSync(lockFile(dir), 'utf8')).toBe(text);
  });
});
