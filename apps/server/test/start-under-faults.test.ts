// Decision 056: a process whose Redis, database or device port is not there at start. Real server
// processes on services this test starts on its own ports (Redis 6391-6395, PostgreSQL 5441-5445), never the
// machine's 6379 or 5432 cluster (which only gives the scratch databases of the port tests).
// - Redis stopped: a cluster process starts, serves a device's fix (OsmAnd) and a browser (Socket.IO), /readyz says
//   `redis: down`; when a Redis started here appears it joins: a fix stored by another process reaches its browser.
// - PostgreSQL stopped: the process answers /healthz, /readyz 503 and 503 on the device port, and becomes ready (its
//   API logs in) once the database starts; its log names the database but never the password.
// - A device port (or the HTTP port) taken: the start fails, naming the variable and the port, never ready.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { API_PREFIX, AUTH_COOKIE, type DeviceCreated, type LocationSnapshot } from '@prison/shared';
import { browserSocket, connected, type BrowserSocket } from '../src/tracking/tracking-test-kit';
import { callApi, freePort, HTTP_PORTS, readyz, redisBinary, startChild, startRedis, startServer, stopStartedChildren, type Child, type ServerProcess } from './cluster-kit';
import { createOwnPostgresCluster, ownClusterUnavailable, type OwnPostgresCluster } from './own-postgres-cluster';
import { createScratchDatabase } from './test-db';
import { waitFor } from './wait-for';

const ADMIN = { username: 'faults', password: 'started while things were down' };
const OWN_REDIS_PORTS = { from: 6600, to: 6639 };
const OWN_POSTGRES_PORTS = [5441, 5442, 5443, 5444, 5445];
const redisServer = redisBinary();
const postgresAdminUrl = inject('postgresAdminUrl');

/** A server process (not cluster mode) with these settings; its output is kept. */
async function startPlainServer(env: NodeJS.ProcessEnv) {
  return startChild(process.execPath, ['--import', 'tsx', 'apps/server/src/server.ts'], {
    ...process.env,
    HOST: '127.0.0.1',
    DEMO: 'false',
    ADMIN_USERNAME: ADMIN.username,
    ADMIN_PASSWORD: ADMIN.password,
    LOG_LEVEL: 'warn',
    REDIS_URL: '',
    ...env,
  });
}

const exited = (child: Child) => child.process.exitCode !== null || child.process.signalCode !== null;

describe.skipIf(!redisServer || !postgresAdminUrl)('a cluster process started while Redis is down', () => {
  let database: Awaited<ReturnType<typeof createScratchDatabase>> | undefined;
  let redisPort = 0;
  let first: ServerProcess | undefined;
  let second: ServerProcess | undefined;
  let browser: BrowserSocket | undefined;

  beforeAll(async () => {
    database = await createScratchDatabase('prison_faults');
    redisPort = await freePort(OWN_REDIS_PORTS); // nothing listens there yet
  }, 30_000);

  afterAll(async () => {
    browser?.close();
    // Every process of this file, Redis and a second server still starting when the test gave up included.
    await stopStartedChildren('SIGTERM');
    await database?.drop();
  }, 30_000);

  it('serves a fix and a browser without Redis, then joins the cluster when Redis appears', async () => {
    // startServer waits for /readyz 200: ready although Redis does not answer.
    first = await startServer({ name: 'alone', databaseUrl: database!.url, redisPort, admin: ADMIN });
    const alone = await readyz(first);
    expect(alone.status).toBe(200);
    expect(alone.body.cluster).toMatchObject({ node: 'alone', redis: 'down' });

    const wearer = async (name: string) => {
      const prisoner = await callApi(first!, 'POST', '/prisoner/add', { first_name: name, last_name: 'Faults', date_of_birth: '1980-01-01', status: 'Incarcerated' });
      expect(prisoner.status, JSON.stringify(prisoner.body)).toBe(200);
      const device = await callApi(first!, 'POST', '/devices', { name: `${name} tag`, kind: 'phone', prisoner_id: prisoner.body.prisoner_id });
      expect(device.status, JSON.stringify(device.body)).toBe(201);
      return device.body as unknown as DeviceCreated;
    };
    const [here, there] = [await wearer('Here'), await wearer('There')];

    // A browser of this process (the spec client's complete sets) sees a fix its OsmAnd port stored.
    let latest: LocationSnapshot = {};
    browser = browserSocket(first.base, first.cookie);
    browser.on('locationUpdate', (snapshot) => (latest = snapshot));
    await connected(browser);
    const fix = (node: ServerProcess, device: DeviceCreated, lat: number) =>
      fetch(`${node.osmand}/?id=${device.id}&secret=${device.secret}&lat=${lat}&lon=-0.12&timestamp=${Date.now() - 1_000}`);
    expect((await fix(first, here, 51.501)).status).toBe(200);
    await waitFor('the browser to see the fix stored without Redis', () => latest[here.id]?.latitude === 51.501, 15_000);

    // Redis appears: the process joins (readyz), and a second process's fix reaches this process's browser.
    await startRedis(redisServer!, redisPort);
    await waitFor('redis: up in /readyz', async () => (await readyz(first!)).body.cluster?.redis === 'up', 20_000);
    second = await startServer({ name: 'joined', databaseUrl: database!.url, redisPort, admin: ADMIN });
    // Positions go out only while another process listens (asked every 2 s): send until the browser has it.
    await waitFor(
      "the other process's fix on this process's browser",
      async () => {
        expect((await fix(second!, there, 51.502)).status).toBe(200);
        return latest[there.id]?.latitude === 51.502;
      },
      20_000,
      1_000,
    );
    expect(exited(first.child)).toBe(false);
  }, 300_000); // up to 120 s per start (cluster-kit), two starts
});

describe.skipIf(!!ownClusterUnavailable)('a process started while PostgreSQL is down', () => {
  let postgres: OwnPostgresCluster | undefined;
  let server: Child | undefined;

  afterAll(async () => {
    await stopStartedChildren('SIGTERM');
    postgres?.drop();
  }, 30_000);

  it('answers not ready while it waits, then becomes ready when the database starts', async () => {
    postgres = await createOwnPostgresCluster('faults', OWN_POSTGRES_PORTS, 'prison_faults');
    postgres.stop();
    const [port, osmandPort] = [await freePort(HTTP_PORTS), await freePort(HTTP_PORTS)];
    // A password in the URL (trust auth ignores it) that the log must never show.
    const url = postgres.url.replace('postgres@', 'postgres:never-logged-secret@');
    server = await startPlainServer({ PORT: String(port), OSMAND_PORT: String(osmandPort), DATABASE_URL: url });
    const base = `http://127.0.0.1:${port}`;

    await waitFor('/readyz 503 while the database is down', async () => (await fetch(`${base}/readyz`)).status === 503, 30_000);
    expect(await (await fetch(`${base}/readyz`)).json()).toEqual({ status: 'database unavailable' });
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    const device = await fetch(`http://127.0.0.1:${osmandPort}/?id=x&lat=51.5&lon=-0.12`);
    expect(device.status).toBe(503);
    expect(device.headers.get('retry-after')).toBe('5');
    const api = await fetch(`${base}${API_PREFIX}/admin/login`, { method: 'POST' });
    expect(api.status).toBe(503);
    await waitFor('the log line naming the database', () => server!.output.some((line) => line.includes(`database unreachable at start: ECONNREFUSED (127.0.0.1:${postgres!.port}/prison_faults)`)), 10_000);
    expect(exited(server)).toBe(false);

    postgres.start();
    await waitFor('/readyz 200 after the database started', async () => (await fetch(`${base}/readyz`)).status === 200, 45_000, 250);
    const login = await fetch(`${base}${API_PREFIX}/admin/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(ADMIN),
    });
    expect(login.status).toBe(200);
    const cookie = `${AUTH_COOKIE}=${((await login.json()) as { token: string }).token}`;
    expect((await fetch(`${base}${API_PREFIX}/devices`, { headers: { cookie } })).status).toBe(200);
    await waitFor('the OsmAnd port of the real server', async () => (await fetch(`http://127.0.0.1:${osmandPort}/?id=x&lat=51.5&lon=-0.12`)).status === 401, 10_000);
    expect(server.output.join('\n')).not.toContain('never-logged-secret');
  }, 60_000);
});

describe.skipIf(!postgresAdminUrl)('a port that cannot be bound', () => {
  let database: Awaited<ReturnType<typeof createScratchDatabase>> | undefined;
  let blocker: net.Server | undefined;

  beforeAll(async () => {
    database = await createScratchDatabase('prison_faults');
  }, 30_000);

  afterAll(async () => {
    await new Promise((resolve) => (blocker ? blocker.close(resolve) : resolve(undefined)));
    // A server that never stopped on its taken port (the test failed) goes too.
    await stopStartedChildren('SIGTERM');
    await database?.drop();
  });

  /** Starts a server on these ports with `taken` held by another listener; it must stop, never ready. */
  async function startWithTaken(variable: 'OSMAND_PORT' | 'PORT') {
    const [port, osmandPort] = [await freePort(HTTP_PORTS), await freePort(HTTP_PORTS)];
    const taken = variable === 'PORT' ? port : osmandPort;
    blocker = net.createServer();
    await new Promise<void>((resolve) => blocker!.listen(taken, '127.0.0.1', resolve));
    const server = await startPlainServer({ PORT: String(port), OSMAND_PORT: String(osmandPort), DATABASE_URL: database!.url });
    let everReady = false;
    await waitFor(
      'the process to stop',
      async () => {
        if (variable === 'OSMAND_PORT') everReady ||= await fetch(`http://127.0.0.1:${port}/readyz`).then((r) => r.ok, () => false);
        return exited(server);
      },
      45_000,
      200,
    );
    await new Promise((resolve) => blocker!.close(resolve));
    blocker = undefined;
    return { server, taken, everReady };
  }

  it('fails the start naming the device port (OSMAND_PORT), never ready', async () => {
    const { server, taken, everReady } = await startWithTaken('OSMAND_PORT');
    expect(server.process.exitCode).toBe(1);
    expect(everReady).toBe(false);
    expect(server.output).toContain(
      `cannot listen on OSMAND_PORT ${taken} (the OsmAnd device port): another program is already listening on it (EADDRINUSE); the process stops`,
    );
  }, 60_000);

  it('fails the start naming the HTTP port (PORT)', async () => {
    const { server, taken } = await startWithTaken('PORT');
    expect(server.process.exitCode).toBe(1);
    expect(server.output.some((line) => line.startsWith(`cannot listen on PORT ${taken} (HTTP`))).toBe(true);
  }, 60_000);
});
