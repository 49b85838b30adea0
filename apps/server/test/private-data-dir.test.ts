// Files only the service can read, and no published password (decision 094), with real server processes: started
// under umask 000 on the embedded database, nothing under DATA_DIR nor the key file is readable or writable by
// another user; a start that finds wider modes says so and narrows them; a published ADMIN_PASSWORD stops the start
// naming the variable, as every refused configuration does (exit code 2, nothing started).
import { chmodSync, existsSync, lstatSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { keyFilePath } from '../src/lib/secret-key';
import { killStartedServers, startServerProcess } from './server-process';
import { waitFor } from './wait-for';

const scratch = mkdtempSync(path.join(tmpdir(), 'prison-private-'));
// Ports of this test (3971-3979 belong to it).
const PORTS = { first: 3971, second: 3972 };
afterAll(() => {
  killStartedServers();
  rmSync(scratch, { recursive: true, force: true });
});

// umask 000: what the engine and the code would create world-readable shows.
const startServer = (env: Record<string, string>) =>
  startServerProcess(
    { SECRET_KEY: '', BACKUP_KEY: '', ADMIN_USERNAME: 'keeper', ADMIN_PASSWORD: 'nobody else reads these files', ...env },
    { umask: '000' },
  );

const isReady = async (port: number) => (await fetch(`http://127.0.0.1:${port}/readyz`)).ok;

/** Every path under `dir` (itself included) whose mode lets group or others in, with that mode. */
function wider(dir: string): string[] {
  const found: string[] = [];
  const check = (file: string) => {
    const mode = lstatSync(file).mode;
    if (!lstatSync(file).isSymbolicLink() && (mode & 0o077) !== 0) found.push(`${file} ${(mode & 0o777).toString(8)}`);
  };
  const walk = (current: string) => {
    for (const name of readdirSync(current)) {
      const file = path.join(current, name);
      check(file);
      if (lstatSync(file).isDirectory()) walk(file);
    }
  };
  check(dir);
  if (lstatSync(dir).isDirectory()) walk(dir);
  return found;
}

const countFiles = (dir: string): number =>
  readdirSync(dir).reduce((n, name) => n + (statSync(path.join(dir, name)).isDirectory() ? countFiles(path.join(dir, name)) : 1), 0);

describe('files only the service can read', () => {
  const dataDir = path.join(scratch, 'data');
  const keyFile = keyFilePath(dataDir);

  it('under umask 000 the data directory, its database and the key file are the owner\'s alone; a wider mode found at start is said and narrowed', async () => {
    const first = startServer({ DATA_DIR: dataDir, PORT: String(PORTS.first) });
    await waitFor('the server to be ready', () => isReady(PORTS.first), 90_000, 250);
    expect(countFiles(path.join(dataDir, 'pglite'))).toBeGreaterThan(500); // the embedded database is there
    expect(existsSync(keyFile)).toBe(true);
    expect(wider(dataDir)).toEqual([]);
    expect(wider(keyFile)).toEqual([]);
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    expect(wider(dataDir)).toEqual([]);

    // Widened meanwhile (a copy, an older version, a hand): the next start says so and narrows them.
    const pgVersion = path.join(dataDir, 'pglite', 'PG_VERSION');
    chmodSync(dataDir, 0o755);
    chmodSync(path.join(dataDir, 'pglite', 'base'), 0o777);
    chmodSync(pgVersion, 0o644);
    chmodSync(keyFile, 0o644);
    const second = startServer({ DATA_DIR: dataDir, PORT: String(PORTS.second) });
    await waitFor('the restarted server to be ready', () => isReady(PORTS.second), 90_000, 250);
    const said = second
      .output()
      .split('\n')
      .filter((line) => line.includes('readable by other users'))
      .map((line) => JSON.parse(line) as { msg: string; count: number; examples: string[] });
    expect(said).toHaveLength(1);
    expect(said[0]!.msg).toBe('files in DATA_DIR or the key file were readable by other users: narrowed to the owner alone (folders 0700, files 0600)');
    expect(said[0]!.count).toBe(4);
    expect(said[0]!.examples).toEqual(expect.arrayContaining([`${keyFile} (was 0644)`, `${dataDir} (was 0755)`, `${pgVersion} (was 0644)`, `${path.join(dataDir, 'pglite', 'base')} (was 0777)`]));
    expect(wider(dataDir)).toEqual([]);
    expect(wider(keyFile)).toEqual([]);
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
  }, 240_000);
});

describe('no published password', () => {
  it('a start with the placeholder the env example used to ship refuses, naming ADMIN_PASSWORD, and opens nothing', async () => {
    const never = path.join(scratch, 'never-opened');
    const refused = startServer({ DATA_DIR: never, PORT: String(PORTS.first), ADMIN_PASSWORD: 'change this long passphrase' });
    expect(await refused.exited).toBe(2);
    const output = refused.output();
    expect(output).toContain('The configuration has a problem; nothing was started:');
    expect(output).toContain('ADMIN_PASSWORD must be a password of your own');
    expect(output).not.toContain('change this long passphrase');
    expect(existsSync(never)).toBe(false);
  }, 60_000);
});
