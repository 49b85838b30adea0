// Supervised cleanly, with real processes: `npm start` stops with everything it started on SIGTERM or SIGINT sent to
// its own process, also in its first second; the server stops on a signal at any moment of its start; a start refused
// for a key that does not fit the data, a schema newer than the build or a WEB_DIST without the app exits 2 with one
// line and writes nothing; TZ= starts; the start logs the migrations it applied.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { buildMigrations, openDatabase } from '../src/db/client';
import { admins } from '../src/db/schema';
import { LOCK_FILE_NAME } from '../src/lib/data-dir-lock';
import { createSecretBox } from '../src/lib/secret-box';
import { keyFilePath } from '../src/lib/secret-key';
import { createAdmin } from '../src/modules/admin/admin-service';
import { freePort, HTTP_PORTS, listening } from './cluster-kit';
import { sleep, waitFor } from './wait-for';

const root = path.resolve(import.meta.dirname, '../../..');
const scratch = mkdtempSync(path.join(tmpdir(), 'prison-supervision-'));
const started: ChildProcess[] = [];
/** Every process a start of this file made carries it in its environment, so none escapes the count. */
const TAG_VARIABLE = 'PRISON_SUPERVISION_TEST';
const fileTag = randomUUID();

afterAll(() => {
  for (const child of started) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  for (const pid of processesTagged(null)) process.kill(pid, 'SIGKILL');
  rmSync(scratch, { recursive: true, force: true });
});

/** The live processes whose environment holds this file's tag (`tag`, or any of this file's when null). */
function processesTagged(tag: string | null): number[] {
  const wanted = tag === null ? `${TAG_VARIABLE}=${fileTag}-` : `${TAG_VARIABLE}=${tag}\0`;
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z')) continue; // exited, waiting for its parent
      if (`${readFileSync(`/proc/${entry}/environ`, 'latin1')}\0`.includes(wanted)) pids.push(Number(entry));
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  return pids;
}

interface Start {
  child: ChildProcess;
  tag: string;
  port: number;
  output: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const ADMIN = { ADMIN_USERNAME: 'supervisor', ADMIN_PASSWORD: 'stops with everything it started' };

/** `command args` in the repository with a server's settings on a port of its own. */
async function start(command: string, args: string[], env: Record<string, string>): Promise<Start> {
  const port = await freePort(HTTP_PORTS);
  const tag = `${fileTag}-${randomBytes(4).toString('hex')}`;
  const child = spawn(command, args, {
    cwd: root,
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: String(port),
      OSMAND_PORT: '0',
      DEMO: 'false',
      DATABASE_URL: '',
      REDIS_URL: '',
      WEB_DIST: '',
      LOG_LEVEL: 'info',
      ...ADMIN,
      ...env,
      [TAG_VARIABLE]: tag,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  started.push(child);
  let text = '';
  child.stdout!.on('data', (chunk) => (text += chunk));
  child.stderr!.on('data', (chunk) => (text += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  return { child, tag, port, output: () => text, exited };
}

const npmStart = (env: Record<string, string>) => start('npm', ['start'], env);
const server = (env: Record<string, string>) => start(process.execPath, ['--import', 'tsx', 'apps/server/src/server.ts'], env);

const ready = (port: number) => fetch(`http://127.0.0.1:${port}/readyz`).then((res) => res.ok, () => false);

/** Sends `signal` to the started process itself; resolves once nothing it started runs and its port is free. */
async function stopAndCount(run: Start, signal: NodeJS.Signals, withinMs: number): Promise<{ ms: number }> {
  const began = Date.now();
  run.child.kill(signal);
  await waitFor(
    `no process of the start left, port ${run.port} free`,
    async () => processesTagged(run.tag).length === 0 && !(await listening(run.port)),
    withinMs,
    100,
  );
  return { ms: Date.now() - began };
}

describe('npm start under a supervisor', () => {
  it.each(['SIGTERM', 'SIGINT'] as const)('stops with everything it started on %s to its own process, port and lock freed within 10 s', async (signal) => {
    const dataDir = path.join(scratch, `npm-${signal}`);
    const run = await npmStart({ DATA_DIR: dataDir });
    // The first start of a checkout may build the web app.
    await waitFor('npm start to serve', () => ready(run.port), 240_000, 250);
    // npm, the launcher and the server at least: all carry the tag.
    expect(processesTagged(run.tag).length).toBeGreaterThanOrEqual(3);
    expect(existsSync(path.join(dataDir, LOCK_FILE_NAME))).toBe(true);

    await stopAndCount(run, signal, 10_000);
    expect(existsSync(path.join(dataDir, LOCK_FILE_NAME))).toBe(false);
    expect(await run.exited).toEqual({ code: 0, signal: null });
  }, 300_000);

  it("stops on a SIGTERM in the server's first second, leaving nothing behind", async () => {
    const dataDir = path.join(scratch, 'npm-early');
    const run = await npmStart({ DATA_DIR: dataDir });
    // As soon as the server process exists: its first second, long before it listens.
    const isServer = (pid: number) => {
      try {
        // node running the file (not the shell whose command line merely names it)
        const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
        return path.basename(args[0] ?? '') === 'node' && args.includes('apps/server/src/server.ts');
      } catch {
        return false;
      }
    };
    await waitFor('the server process to start', () => processesTagged(run.tag).some(isServer), 60_000, 20);
    await stopAndCount(run, 'SIGTERM', 10_000);
    await run.exited;
    expect(existsSync(path.join(dataDir, LOCK_FILE_NAME))).toBe(false);
    // It never served: the signal came long before the server listened.
    expect(run.output()).not.toContain('Serving on');
  }, 60_000);
});

describe('the server stops on a signal at any moment of its start', () => {
  it.each([300, 1_200, 2_500, 4_000])('SIGTERM %i ms after it was started', async (delay) => {
    const dataDir = path.join(scratch, `early-${delay}`);
    const run = await server({ DATA_DIR: dataDir });
    await sleep(delay);
    const { ms } = await stopAndCount(run, 'SIGTERM', 15_000);
    const { code, signal } = await run.exited;
    // Before its first module ran, the signal's default action ends it; from then on its handler does, cleanly.
    expect(code === 0 || signal === 'SIGTERM', `${code} ${signal}: ${run.output()}`).toBe(true);
    expect(existsSync(path.join(dataDir, LOCK_FILE_NAME))).toBe(false);
    expect(ms).toBeLessThan(15_000);
  }, 60_000);
});

/** A data directory as a backup restores it: an administrator whose two-factor secret is sealed with `key`. */
async function dataDirSealedWith(dataDir: string, key: Buffer): Promise<void> {
  const database = await openDatabase({ dataDir });
  try {
    await database.migrate();
    const admin = await createAdmin(database.db, { username: 'two-factor', password: 'a password of the restored admin' });
    await database.db.update(admins).set({ totpSecret: createSecretBox(key).seal('JBSWY3DPEHPK3PXP') }).where(eq(admins.id, admin.id));
  } finally {
    await database.close();
  }
}

/** Exactly one line of output, holding every one of `parts`. */
function oneLine(output: string, ...parts: string[]): string {
  const lines = output.trim().split('\n');
  expect(lines, output).toHaveLength(1);
  for (const part of parts) expect(lines[0]).toContain(part);
  expect(output).not.toMatch(/\n\s+at /);
  return lines[0]!;
}

describe('a start refused for a reason a restart cannot cure: status 2, one line, nothing written', () => {
  const sealedWith = randomBytes(32);

  it('a key file that does not open the two-factor secrets of the data is named and left untouched', async () => {
    const dataDir = path.join(scratch, 'restored');
    await dataDirSealedWith(dataDir, sealedWith);
    const keyFile = keyFilePath(dataDir);
    const wrongKey = `${randomBytes(32).toString('base64')}\n`;
    writeFileSync(keyFile, wrongKey, { mode: 0o600 });
    const before = statSync(keyFile);

    const run = await server({ DATA_DIR: dataDir });
    expect(await run.exited).toEqual({ code: 2, signal: null });
    oneLine(run.output(), `The key file ${keyFile} does not open the two-factor secrets`, 'restore the key file that was backed up with the data, or set SECRET_KEY');
    expect(readFileSync(keyFile, 'utf8')).toBe(wrongKey);
    expect(statSync(keyFile).mtimeMs).toBe(before.mtimeMs);
    expect(existsSync(path.join(dataDir, LOCK_FILE_NAME))).toBe(false);

    // Without a key file: refused too, and no new (wrong) key file is written.
    rmSync(keyFile);
    const missing = await server({ DATA_DIR: dataDir });
    expect(await missing.exited).toEqual({ code: 2, signal: null });
    oneLine(missing.output(), `The key file ${keyFile} is missing`, 'restore the key file that was backed up with the data');
    expect(existsSync(keyFile)).toBe(false);

    // The key file backed up with the data: it starts, with TZ= (empty: the default zone) and nothing to migrate.
    writeFileSync(keyFile, `${sealedWith.toString('base64')}\n`, { mode: 0o600 });
    const restored = await server({ DATA_DIR: dataDir, TZ: '' });
    await waitFor('the restored data to serve', () => ready(restored.port), 90_000, 250);
    expect(restored.output()).toContain(`the database schema is current (${buildMigrations().at(-1)!.tag}); no migration applied`);
    await stopAndCount(restored, 'SIGTERM', 10_000);
    expect(await restored.exited).toEqual({ code: 0, signal: null });
  }, 240_000);

  it('a schema newer than this build is refused naming both versions', async () => {
    const dataDir = path.join(scratch, 'newer');
    const database = await openDatabase({ dataDir });
    await database.migrate();
    await database.pglite!.query(`insert into drizzle.__drizzle_migrations (hash, created_at) values ('newer build', 1795500099000)`);
    await database.close();

    const run = await server({ DATA_DIR: dataDir });
    expect(await run.exited).toEqual({ code: 2, signal: null });
    oneLine(run.output(), 'The database schema is at migration 0099 (unknown to this build)', `this build's newest, ${buildMigrations().at(-1)!.tag}`);
    expect(existsSync(keyFilePath(dataDir))).toBe(false);
  }, 120_000);

  it('a WEB_DIST without a built app is refused before anything is written', async () => {
    const dataDir = path.join(scratch, 'no-web');
    const run = await server({ DATA_DIR: dataDir, WEB_DIST: path.join(scratch, 'not-built') });
    expect(await run.exited).toEqual({ code: 2, signal: null });
    oneLine(run.output(), `WEB_DIST ${path.join(scratch, 'not-built')} holds no built web app (no index.html)`);
    expect(existsSync(dataDir)).toBe(false);
  }, 60_000);
});

describe('a first start', () => {
  it('with TZ= (empty) starts in the default zone and logs the migrations it applied', async () => {
    const dataDir = path.join(scratch, 'fresh');
    const run = await server({ DATA_DIR: dataDir, TZ: '' });
    await waitFor('the fresh start to serve', () => ready(run.port), 90_000, 250);
    const migrations = buildMigrations();
    const line = run.output().split('\n').find((text) => text.includes('database migration(s)'));
    expect(line, run.output()).toBeDefined();
    const logged = JSON.parse(line!) as { migrations: string[]; msg: string };
    expect(logged.migrations).toEqual(migrations.map((entry) => entry.tag));
    expect(logged.msg).toBe(`applied ${migrations.length} database migration(s); the schema is at ${migrations.at(-1)!.tag}`);
    await stopAndCount(run, 'SIGTERM', 10_000);
  }, 120_000);
});
