// Cluster mode in a real browser (decision 036): two server processes on one PostgreSQL database and a Redis
// of this spec's own. A browser on process A gets the alert raised by a fix that reached process B; with Redis
// stopped, the page says within seconds that it is only partly live and still gets B's alerts (through PostgreSQL,
// decision 039); with Redis back, the banner goes by itself.
// Skipped (with the reason) without redis-server or PostgreSQL, unless REQUIRE_REDIS=1 (CI), which makes it fail.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import pg from 'pg';
import type { APIRequestContext } from '@playwright/test';
import { E2E_ADMIN, expect, loginThroughForm, test, unique } from '../fixtures';
import { stopProcess } from '../../apps/server/test/child-exit';
import { spawnOwnServer, stopOwnServer, waitReady } from '../own-server';
import { seedTrackedPrisoner } from './records-helpers';

const portA = Number(process.env.E2E_PORT ?? 3210) + 20;
const portB = portA + 2;
/** Chosen at start among the free ports: a fixed one can be another run's server port. */
let redisPort = 0;
const baseA = `http://localhost:${portA}`;
const baseB = `http://localhost:${portB}`;
const adminUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const hasRedis = spawnSync('redis-server', ['--version']).status === 0;

let databaseName = '';
let redis: ChildProcess | undefined;
const servers: ChildProcess[] = [];

async function postgresReachable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 3_000 });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** A port nothing listens on now (the system picks it). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

async function startRedis(): Promise<void> {
  redis = spawn('redis-server', ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  for (let i = 0; i < 50; i++) {
    if (spawnSync('redis-cli', ['-p', String(redisPort), 'ping']).stdout?.toString().trim() === 'PONG') return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('redis-server did not start');
}

async function stopRedis(): Promise<void> {
  if (!redis) return;
  await stopProcess(redis, 'SIGKILL', 5_000);
  redis = undefined;
}

test.beforeAll(async () => {
  test.setTimeout(180_000);
  const pgUp = await postgresReachable();
  if (!hasRedis || !pgUp) {
    const missing = !hasRedis ? 'redis-server is not installed' : `no PostgreSQL answers at ${adminUrl}`;
    if (process.env.REQUIRE_REDIS === '1') throw new Error(`REQUIRE_REDIS=1 but ${missing}`);
    test.skip(true, `cluster e2e skipped: ${missing}`);
  }
  databaseName = `prison_e2e_cluster_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${databaseName}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${databaseName}`;
  redisPort = await freePort();
  await startRedis();
  const env = (node: string) => ({
    DATABASE_URL: url.toString(),
    REDIS_URL: `redis://127.0.0.1:${redisPort}`,
    NODE_NAME: node,
    DATA_DIR: '',
  });
  // The first one migrates and creates the admin; then the second joins.
  servers.push(spawnOwnServer(portA, '', env('a')));
  await waitReady(baseA, servers[0]!);
  servers.push(spawnOwnServer(portB, '', env('b')));
  await waitReady(baseB, servers[1]!);
});

test.afterAll(async () => {
  // No data directory: the processes keep their data in PostgreSQL (dropped below).
  for (const server of servers) await stopOwnServer(server, '', 10_000);
  await stopRedis();
  if (databaseName) {
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`drop database if exists ${databaseName} with (force)`);
    await admin.end();
  }
});

test.use({ viewport: { width: 1440, height: 900 } });

test('a browser on one process sees the other process\'s alert; Redis down: "Partly live" banner; Redis back: live again', async ({
  page,
  playwright,
}) => {
  test.setTimeout(180_000);
  const api: APIRequestContext = await playwright.request.newContext({ baseURL: baseB });
  try {
    const login = await api.post('/api/v1/admin/login', { data: { username: E2E_ADMIN.username, password: E2E_ADMIN.password } });
    expect(login.status(), await login.text()).toBe(200);
    const prisoner = await seedTrackedPrisoner(api, { first_name: unique('Cluster'), last_name: 'Walker' });
    const fence = await api.post('/api/v1/geofence/add', {
      data: { geofence_id: unique('yard'), shape: 'Circle', name: unique('Cluster yard'), type: 'Negative', alert_type: 'Critical', radius: 100, center_lat: 51.5, center_lng: -0.12, dwell_seconds: 0 },
    });
    expect(fence.status(), await fence.text()).toBe(200);
    let clock = Date.now() - 30_000;
    const fixThroughB = async (lat: number) => {
      clock += 1_000;
      const params = new URLSearchParams({ id: prisoner.deviceId, lat: String(lat), lon: '-0.12', timestamp: String(clock) });
      const res = await fetch(`http://127.0.0.1:${portB + 1}/?${params}`);
      expect(res.status, await res.text()).toBe(200);
    };
    // A breach while the last one is still open folds into it (a repeat, no new toast): the officer closes it first,
    // so each breach below is a new alert that must reach the browser on A.
    const closeOpenAlerts = async () => {
      const res = await api.get('/api/v1/alert/prisoneralerts', { params: { prisoner_id: prisoner.prisoner_id, status: 'New', limit: 100 } });
      expect(res.status(), await res.text()).toBe(200);
      for (const alert of ((await res.json()) as { data: { id: number }[] }).data) {
        for (const step of ['acknowledge', 'resolve']) {
          const done = await api.post(`/api/v1/alert/${alert.id}/${step}`, { data: { note: 'Cluster check done' } });
          expect(done.status(), await done.text()).toBe(200);
        }
      }
    };

    await loginThroughForm(page, E2E_ADMIN.username, E2E_ADMIN.password, `${baseA}/login`);
    await expect(page).toHaveURL(`${baseA}/`);
    const indicator = page.getByTestId('feed-indicator');
    const banner = page.getByTestId('feed-banner');
    await expect(indicator).toHaveAttribute('data-state', 'live');

    // A fix that reached process B raises the alert there; the browser on process A shows it.
    await fixThroughB(51.5);
    await fixThroughB(51.51);
    const toast = page.getByTestId('alert-toast').filter({ hasText: 'left' });
    await expect(toast).toBeVisible({ timeout: 5_000 });
    await expect(toast).toHaveCount(0, { timeout: 10_000 }); // 5 s on screen, so the next one below is a new one

    // Redis stops: the page says within seconds that it is only partly live.
    await closeOpenAlerts();
    await stopRedis();
    await expect(indicator).toHaveAttribute('data-state', 'partial', { timeout: 8_000 });
    await expect(banner).toContainText('Live updates from the other servers are interrupted');
    await expect(indicator).toContainText('Partly live');
    // Fixes are still stored and judged meanwhile (process B answers 200; its /readyz says so), and B's alerts still
    // reach the browser on A, through PostgreSQL (decision 039).
    await fixThroughB(51.5);
    await fixThroughB(51.51);
    await expect(toast).toBeVisible({ timeout: 3_000 });
    await expect(toast).toHaveCount(0, { timeout: 10_000 });
    await closeOpenAlerts();
    await fixThroughB(51.5);
    const readiness = (await (await fetch(`${baseB}/readyz`)).json()) as { status: string; cluster?: { redis: string } };
    expect(readiness).toMatchObject({ status: 'ready', cluster: { redis: 'down' } });

    // Redis returns: live again without a reload, and the other process's alerts arrive again.
    await startRedis();
    await expect(indicator).toHaveAttribute('data-state', 'live', { timeout: 15_000 });
    await expect(banner).toHaveCount(0);
    await fixThroughB(51.52);
    await expect(toast).toBeVisible({ timeout: 5_000 });
  } finally {
    await api.dispose();
  }
});
