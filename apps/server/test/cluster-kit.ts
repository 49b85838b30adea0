// Real server processes of a cluster for the tests that start one (test/cluster.test.ts, test/cluster-alert-feed.test.ts):
// free ports, a Redis of the test's own (so it can be stopped without touching the machine's Redis at 6379), server
// processes started with tsx on one PostgreSQL database, logged in as the first administrator.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { expect } from 'vitest';
import { API_PREFIX, AUTH_COOKIE } from '@prison/shared';
import { stopProcess } from './child-exit';
import { waitFor } from './wait-for';

const root = path.resolve(import.meta.dirname, '../../..');
export const HTTP_PORTS = { from: 3500, to: 3899 };
export const REDIS_PORTS = { from: 6400, to: 6599 };

export function redisBinary(): string | null {
  if (existsSync('/usr/bin/redis-server')) return '/usr/bin/redis-server';
  try {
    return execFileSync('sh', ['-c', 'command -v redis-server'], { stdio: 'pipe' }).toString().trim() || null;
  } catch {
    return null;
  }
}

/** Whether something accepts connections on this port (a port we are about to take must not). */
export function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** Slices of each port range, one per Vitest worker (VITEST_POOL_ID counts from 1; maxWorkers is 2). */
const WORKER_SLICES = 4;

/**
 * This worker's own part of `range`. A port is free when it is picked, but the server that takes it binds it
 * seconds later: two test files in two workers picking from one range raced for a port in that gap (CI: a cluster
 * process stopped with EADDRINUSE). Files in one worker run one after another.
 */
export function workerSlice(range: { from: number; to: number }, poolId = Number(process.env.VITEST_POOL_ID ?? 1)): { from: number; to: number } {
  const size = Math.floor((range.to - range.from + 1) / WORKER_SLICES);
  const slice = (((poolId - 1) % WORKER_SLICES) + WORKER_SLICES) % WORKER_SLICES;
  return { from: range.from + slice * size, to: range.from + (slice + 1) * size - 1 };
}

/**
 * The Fetch standard's "bad ports" above 1023: fetch refuses to call them whatever listens there, so a server given
 * one could not be reached by the tests' own requests (CI: a process on 3659 never answered /readyz, "bad port").
 */
const FETCH_BAD_PORTS = new Set([1719, 1720, 1723, 2049, 3659, 4045, 4190, 5060, 5061, 6000, 6566, 6665, 6666, 6667, 6668, 6669, 6679, 6697, 10080]);
export const fetchRefuses = (port: number) => FETCH_BAD_PORTS.has(port);

const taken = new Set<number>();
/**
 * A random port of this worker's slice of the range that nothing listens on, that this worker has not handed out, and
 * that fetch will call.
 */
export async function freePort(whole: { from: number; to: number }): Promise<number> {
  const range = workerSlice(whole);
  for (let attempt = 0; attempt < 200; attempt++) {
    const port = range.from + Math.floor(Math.random() * (range.to - range.from + 1));
    if (taken.has(port) || fetchRefuses(port)) continue;
    // Claimed before the checks below wait: calls at once (two processes started together) must not both pick it.
    taken.add(port);
    if (await listening(port)) continue;
    // Bindable too (a port in TIME_WAIT or held by another user answers neither way).
    const bindable = await new Promise<boolean>((resolve) => {
      const server = net.createServer();
      server.once('error', () => resolve(false));
      server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
    });
    if (!bindable) continue;
    return port;
  }
  throw new Error(`no free port in ${range.from}-${range.to}`);
}

/** A child process whose output is kept (the last lines are shown when it fails to start). */
export interface Child {
  process: ChildProcess;
  output: string[];
}

/** The children this test file started that have not exited (each file has its own copy of this module). */
const running = new Set<Child>();

export function startChild(command: string, args: string[], env: NodeJS.ProcessEnv): Child {
  const child = spawn(command, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const output: string[] = [];
  const keep = (chunk: Buffer) => {
    output.push(...chunk.toString().split('\n').filter(Boolean));
    if (output.length > 200) output.splice(0, output.length - 200);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const started = { process: child, output };
  running.add(started);
  child.once('exit', () => running.delete(started));
  return started;
}

/**
 * Stops every child this test file started that is still running, those a test never got hold of included: one whose
 * start the test gave up on (its timeout) is otherwise left to its own 120 s wait for /readyz.
 */
export async function stopStartedChildren(signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  await Promise.all([...running].map((child) => stopChild(child, signal)));
}

/**
 * Stops the child and waits for it to exit. A gentler signal than SIGKILL gets `graceMs` (a server stops within 15 s
 * on its own), then SIGKILL: an afterAll must never outwait its hook timeout, which fails the file after its tests passed.
 */
export async function stopChild(child: Child | undefined, signal: NodeJS.Signals = 'SIGKILL', graceMs = 10_000): Promise<void> {
  if (child) await stopProcess(child.process, signal, graceMs);
}

/** A redis-server of the test's own on this port, no persistence; resolves once it listens. */
export async function startRedis(binary: string, port: number): Promise<Child> {
  const redis = startChild(binary, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], process.env);
  await waitFor('Redis to listen', () => listening(port), 10_000);
  return redis;
}

/** One server process of the cluster, logged in as the administrator. */
export interface ServerProcess {
  name: string;
  base: string;
  osmand: string;
  child: Child;
  cookie: string;
}

export interface ServerOptions {
  name: string;
  databaseUrl: string;
  redisPort: number;
  admin: { username: string; password: string };
  /** More settings for this process. */
  env?: NodeJS.ProcessEnv;
}

/** Starts `apps/server/src/server.ts` in cluster mode and logs in (the first process creates the administrator). */
export async function startServer({ name, databaseUrl, redisPort, admin, env = {} }: ServerOptions): Promise<ServerProcess> {
  const [port, osmandPort] = [await freePort(HTTP_PORTS), await freePort(HTTP_PORTS)];
  const child = startChild(process.execPath, ['--import', 'tsx', 'apps/server/src/server.ts'], {
    ...process.env,
    NODE_NAME: name,
    PORT: String(port),
    HOST: '127.0.0.1',
    OSMAND_PORT: String(osmandPort),
    DATABASE_URL: databaseUrl,
    REDIS_URL: `redis://127.0.0.1:${redisPort}`,
    DEMO: 'false',
    DEVICE_SECRET_REQUIRED: 'false', // fixes by device id; credentials: ingest/device-credentials.test.ts
    ADMIN_USERNAME: admin.username,
    ADMIN_PASSWORD: admin.password,
    LOG_LEVEL: 'warn',
    DEVICE_OFFLINE_SECONDS: '600',
    OFFLINE_GRACE_SECONDS: '0',
    LOGIN_RATE_LIMIT_PER_MINUTE: '1000',
    ...env,
  });
  const base = `http://127.0.0.1:${port}`;
  const started = Date.now();
  // What the last probe saw, for the failure message: a start that prints nothing (LOG_LEVEL warn) is otherwise
  // indistinguishable from one that never listened, or one whose database probe fails.
  let lastProbe = 'no answer yet';
  const ready = async () => {
    try {
      const res = await fetch(`${base}/readyz`, { signal: AbortSignal.timeout(10_000) });
      lastProbe = `${res.status} ${(await res.text()).slice(0, 300)}`;
      return res.ok;
    } catch (error) {
      lastProbe = String((error as Error).cause ?? error);
      return false;
    }
  };
  try {
    // Generous: on a loaded 2-core CI machine several tsx processes start at once beside the other worker's tests.
    await waitFor(`${name} /readyz`, ready, 120_000, 250);
    await waitFor(`${name} OsmAnd port`, () => listening(osmandPort), 10_000);
  } catch (error) {
    const state = child.process.exitCode ?? child.process.signalCode ?? 'still running';
    // Not left running when the test gives up on it.
    await stopChild(child);
    throw new Error(
      `${(error as Error).message} after ${Math.round((Date.now() - started) / 1000)} s (process: ${state}; last /readyz: ${lastProbe}); its output:\n${child.output.slice(-30).join('\n')}`,
    );
  }
  const login = await fetch(`${base}${API_PREFIX}/admin/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(admin),
  });
  expect(login.status, `${name} login`).toBe(200);
  const cookie = `${AUTH_COOKIE}=${((await login.json()) as { token: string }).token}`;
  return { name, base, osmand: `http://127.0.0.1:${osmandPort}`, child, cookie };
}

/** A JSON request to a process's API with its administrator's cookie. */
export async function callApi(node: ServerProcess, method: string, route: string, body?: unknown) {
  const res = await fetch(`${node.base}${API_PREFIX}${route}`, {
    method,
    headers: { cookie: node.cookie, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** The process's /readyz answer (its cluster part: Redis up or down, leader or not). */
export async function readyz(node: ServerProcess) {
  const res = await fetch(`${node.base}/readyz`);
  return {
    status: res.status,
    body: (await res.json()) as { status: string; cluster?: { mode: string; node: string; redis: 'up' | 'down'; leader: boolean } },
  };
}
