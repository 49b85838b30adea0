// Cluster mode ("Must show"): three real server processes on one PostgreSQL database and one Redis of this
// test's own (started here, so it can be stopped and restarted without touching the machine's Redis at 6379). One
// device's OsmAnd fixes alternate between the processes; a logged-in browser socket on each process must see every
// alert exactly once; a geofence written through one process is used by another within 1 s; kill -9 of a process
// mid-stream loses no acknowledged fix and doubles no alert; with Redis down fixes are still stored and alerts raised.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type ClusterFeedEvent, type DeviceCreated, type LocationSnapshot, type ShowAlertEvent } from '@prison/shared';
import { browserSocket, connected, nextEvent, type BrowserSocket } from '../src/tracking/tracking-test-kit';
import {
  callApi,
  freePort,
  readyz,
  redisBinary,
  REDIS_PORTS,
  startRedis as startOwnRedis,
  startServer,
  stopChild,
  type Child,
  type ServerProcess,
} from './cluster-kit';
import { createScratchDatabase } from './test-db';
import { sleep, waitFor } from './wait-for';

const ADMIN = { username: 'cluster', password: 'three processes one prison' };
const METRICS_TOKEN = 'cluster-test-metrics-token';

const redisServer = redisBinary();
if (!redisServer) {
  const why = 'needs a redis-server binary (Debian package redis-server) to start a Redis of its own';
  if (process.env.REQUIRE_REDIS === '1') throw new Error(`REQUIRE_REDIS=1 but the cluster test cannot run: it ${why}`);
  console.warn(`cluster.test.ts skipped: it ${why} (REQUIRE_REDIS=1 makes this a failure)`);
}
// A missing PostgreSQL is reported by global-setup (a failure under REQUIRE_POSTGRES=1).
const postgresAdminUrl = inject('postgresAdminUrl');
if (!postgresAdminUrl)
  console.warn('cluster.test.ts skipped: no PostgreSQL answered (cluster mode needs DATABASE_URL)');

interface Node extends ServerProcess {
  socket?: BrowserSocket;
  /** Every showAlert this process's browser received, in order. */
  alerts: ShowAlertEvent[];
  /** Every clusterFeed (the browser's banner: live events of the other processes reach it or not), in order. */
  feed: ClusterFeedEvent['otherProcesses'][];
}

describe.skipIf(!redisServer || !postgresAdminUrl)('cluster mode: three processes, one PostgreSQL, one Redis', () => {
  let database: Awaited<ReturnType<typeof createScratchDatabase>> | undefined;
  let databaseUrl = '';
  let redisPort = 0;
  let redis: Child | undefined;
  const nodes: Node[] = [];
  let check: pg.Client;
  let device: DeviceCreated;
  // Fix times: increasing, a few seconds behind the clock, so every fix is new, recent (the device is online) and
  // none is dated ahead of the server.
  let clock = 0;
  const nextTimestamp = () => (clock = Math.max(clock + 1, Date.now() - 10_000));
  /** Fix times (ms) that a process answered 200: each must be in the positions table. */
  const acknowledged: number[] = [];
  /** When process 1 was killed (0: not yet). */
  let killedAt = 0;

  const INSIDE = { lat: 51.5, lon: -0.12 };
  const OUTSIDE = { lat: 51.51, lon: -0.12 }; // about 1.1 km north of the zone's centre

  const startRedis = async () => {
    redis = await startOwnRedis(redisServer!, redisPort);
  };

  async function startNode(index: number): Promise<Node> {
    const server = await startServer({
      name: `node-${index}`,
      databaseUrl,
      redisPort,
      admin: ADMIN,
      env: { METRICS_TOKEN },
    });
    return { ...server, alerts: [], feed: [] };
  }

  const api = callApi;

  /** One OsmAnd fix through a process's OsmAnd port; remembered when acknowledged. */
  const sendFix = async (node: Node, at: { lat: number; lon: number }, timestamp = nextTimestamp()) => {
    const res = await fetch(`${node.osmand}/?id=${device.id}&lat=${at.lat}&lon=${at.lon}&timestamp=${timestamp}`);
    if (res.status === 200) acknowledged.push(timestamp);
    return res.status;
  };

  /** Fixes sent one after another, cycling through these processes; each must be acknowledged. */
  const alternate = async (through: Node[], at: { lat: number; lon: number }, count: number) => {
    for (let i = 0; i < count; i++) {
      const node = through[i % through.length]!;
      expect(await sendFix(node, at), `fix ${i} through ${node.name}`).toBe(200);
    }
  };

  /** A repeat of an open alert folds into it without a showAlert: resolving the device's alerts makes the next new. */
  const resolveGeofenceAlerts = () =>
    check.query(`update alerts set status = 'Resolved', resolved_at = now() where device_id = $1 and kind = 'geofence'`, [device.id]);
  const geofenceAlerts = async () =>
    (
      await check.query<{ id: number }>(
        `select id from alerts where device_id = $1 and kind = 'geofence' order by id`,
        [device.id],
      )
    ).rows.map((row) => Number(row.id));

  const live = () =>
    nodes.filter((node) => node.child.process.exitCode === null && node.child.process.signalCode === null);
  const alertCounts = (of: Node[]) => Object.fromEntries(of.map((node) => [node.name, node.alerts.length]));

  beforeAll(async () => {
    // The run's migrated template: the processes start on an up-to-date schema.
    database = await createScratchDatabase('prison_cluster');
    databaseUrl = database.url;
    check = new pg.Client({ connectionString: databaseUrl });
    await check.connect();

    redisPort = await freePort(REDIS_PORTS);
    await startRedis();

    // Process 1 first: it creates the admin and the device, so the harness does not depend on the others picking
    // up a device registered elsewhere (that is checked on its own below).
    nodes.push(await startNode(1));
    const prisoner = await api(nodes[0]!, 'POST', '/prisoner/add', {
      first_name: 'Cluster',
      last_name: 'Walker',
      date_of_birth: '1980-01-01',
      status: 'Incarcerated',
    });
    expect(prisoner.status, JSON.stringify(prisoner.body)).toBe(200);
    const created = await api(nodes[0]!, 'POST', '/devices', {
      name: 'Cluster tag',
      kind: 'phone',
      prisoner_id: prisoner.body.prisoner_id,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    device = created.body as unknown as DeviceCreated;
    // Both kept before a failure is thrown, so that afterAll stops the one that did start.
    const started = await Promise.allSettled([startNode(2), startNode(3)]);
    for (const result of started) if (result.status === 'fulfilled') nodes.push(result.value);
    for (const result of started) if (result.status === 'rejected') throw result.reason;

    for (const node of nodes) {
      node.socket = browserSocket(node.base, node.cookie, { deltas: true });
      node.socket.on('showAlert', (alert) => {
        if (alert.index === device.id) node.alerts.push(alert);
      });
      node.socket.on('clusterFeed', (status) => node.feed.push(status.otherProcesses));
      await connected(node.socket);
    }
  }, 300_000); // up to 120 s per start (cluster-kit): node 1, then nodes 2 and 3 together

  afterAll(async () => {
    for (const node of nodes) node.socket?.close();
    await Promise.all(nodes.map((node) => stopChild(node.child)));
    await stopChild(redis);
    await check?.end().catch(() => undefined);
    await database?.drop();
  }, 30_000);

  it('each process says in /readyz that it runs in cluster mode, under its own name, with Redis up, one of them leader', async () => {
    const answers = await Promise.all(nodes.map(readyz));
    for (const [i, answer] of answers.entries()) {
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({
        status: 'ready',
        cluster: { mode: 'cluster', node: `node-${i + 1}`, redis: 'up' },
      });
    }
    // The leader is elected with an advisory lock: exactly one, soon after start. Process 1 ran alone for seconds, so
    // it is the one (and killing it below moves the lead).
    const leaders = async () =>
      (await Promise.all(nodes.map(readyz)))
        .filter((a) => a.body.cluster?.leader === true)
        .map((a) => a.body.cluster!.node);
    await waitFor('exactly one leader', async () => (await leaders()).length === 1, 10_000);
    expect(await leaders()).toEqual(['node-1']);
  });

  it('every process: /metrics carries its node name and tells Redis, the change feed and the leader (decision 059)', async () => {
    for (const [i, node] of nodes.entries()) {
      const text = await (
        await fetch(`${node.base}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })
      ).text();
      const label = `node="node-${i + 1}"`;
      expect(text).toContain(`prison_redis_up{${label}} 1`);
      expect(text).toContain(`prison_change_feed_up{${label}} 1`);
      expect(text).toContain(`prison_cluster_leader{${label}} ${i === 0 ? 1 : 0}`);
      expect(text).toContain(`prison_database_up{${label}} 1`);
    }
  });

  it('acknowledges fixes of one device alternating between the three processes, storing each once', async () => {
    const before = acknowledged.length;
    await alternate(nodes, INSIDE, 9);
    const sent = acknowledged.slice(before);
    const { rows } = await check.query<{ t: string; copies: string }>(
      `select (extract(epoch from recorded_at) * 1000)::bigint::text as t, count(*)::text as copies
       from positions where device_id = $1 group by recorded_at`,
      [device.id],
    );
    const copies = new Map(rows.map((row) => [Number(row.t), Number(row.copies)]));
    expect(sent.map((t) => copies.get(t) ?? 0)).toEqual(sent.map(() => 1));
  });

  it('accepts fixes, within 1 s, of a device registered through another process', async () => {
    const other = await api(nodes[2]!, 'POST', '/devices', { name: 'Registered on node-3', kind: 'phone' });
    expect(other.status).toBe(201);
    await sleep(1_000);
    const statuses = await Promise.all(
      nodes.map(
        async (node) =>
          (await fetch(`${node.osmand}/?id=${String(other.body.id)}&lat=51.5&lon=-0.12&timestamp=${Date.now() - 1000}`))
            .status,
      ),
    );
    expect(statuses).toEqual([200, 200, 200]);
  });

  it('uses a Negative geofence created through process 2 on process 1 within 1 s; leaving it once raises one alert, shown once on each socket', async () => {
    const zone = await api(nodes[1]!, 'POST', '/geofence/add', {
      geofence_id: `cluster-${randomBytes(3).toString('hex')}`,
      shape: 'Circle',
      name: 'Cluster perimeter',
      type: 'Negative',
      alert_type: 'Critical',
      radius: 300,
      center_lat: INSIDE.lat,
      center_lng: INSIDE.lon,
      dwell_seconds: 0, // the breach at the first fix outside
    });
    expect(zone.status, JSON.stringify(zone.body)).toBe(200);
    const createdAt = Date.now();
    expect(await sendFix(nodes[2]!, INSIDE)).toBe(200);
    await sleep(Math.max(0, createdAt + 1_000 - Date.now()));

    // The first fix outside goes to process 1: the alert is stored when the fix is acknowledged.
    expect(await sendFix(nodes[0]!, OUTSIDE)).toBe(200);
    expect((await geofenceAlerts()).length, 'alerts stored after the first fix outside, sent to node-1').toBe(1);

    // Still outside, through every process: the same violation, no new alert.
    await alternate([nodes[1]!, nodes[2]!, nodes[0]!], OUTSIDE, 6);
    await waitFor(
      'a showAlert on every socket',
      async () => nodes.every((node) => node.alerts.length >= 1),
      3_000,
    ).catch(() => undefined);
    await sleep(1_000); // time for a second (wrong) alert or a repeated showAlert to arrive
    expect(await geofenceAlerts()).toHaveLength(1);
    expect(alertCounts(nodes)).toEqual({ 'node-1': 1, 'node-2': 1, 'node-3': 1 });
    expect(nodes.map((node) => node.alerts[0]?.alert_type)).toEqual(['critical', 'critical', 'critical']);
  });

  it('loses no acknowledged fix when process 1 is killed (SIGKILL) mid-stream; the device goes on through the others and its next violation alerts once', async () => {
    const [node1, node2, node3] = nodes as [Node, Node, Node];
    await resolveGeofenceAlerts();
    const alertsBefore = await geofenceAlerts();
    const shownBefore = alertCounts([node2, node3]);

    // One sender per process, back inside the zone (the violation ends), as fast as each is acknowledged.
    let streaming = true;
    const acknowledgedAfterKill = new Map<string, number>();
    const sender = async (node: Node) => {
      while (streaming) {
        try {
          const status = await sendFix(node, INSIDE);
          if (status === 200 && killedAt && Date.now() > killedAt)
            acknowledgedAfterKill.set(node.name, (acknowledgedAfterKill.get(node.name) ?? 0) + 1);
        } catch {
          if (node === node1) return; // the killed process
          throw new Error(`${node.name} refused a connection`);
        }
      }
    };
    const senders = Promise.all(nodes.map(sender));
    await sleep(1_500);
    killedAt = Date.now();
    await stopChild(node1.child, 'SIGKILL');
    await sleep(1_500);
    streaming = false;
    await senders;

    expect(acknowledgedAfterKill.get('node-2') ?? 0, 'fixes acknowledged by node-2 after the kill').toBeGreaterThan(0);
    expect(acknowledgedAfterKill.get('node-3') ?? 0, 'fixes acknowledged by node-3 after the kill').toBeGreaterThan(0);
    const { rows } = await check.query<{ t: string }>(
      `select (extract(epoch from recorded_at) * 1000)::bigint::text as t from positions where device_id = $1`,
      [device.id],
    );
    const stored = new Set(rows.map((row) => Number(row.t)));
    expect(
      acknowledged.filter((t) => !stored.has(t)),
      'acknowledged fixes missing from positions',
    ).toEqual([]);
    expect(await geofenceAlerts(), 'no alert while back inside').toEqual(alertsBefore);

    // Out again: the first two fixes outside reach both survivors at once (the race one evaluation per fix must
    // win), then more alternate between them. Exactly one new alert, shown once on each surviving socket.
    const [first, second] = [nextTimestamp(), nextTimestamp()];
    expect(await Promise.all([sendFix(node2, OUTSIDE, first), sendFix(node3, OUTSIDE, second)])).toEqual([200, 200]);
    await alternate([node2, node3], OUTSIDE, 6);
    await waitFor(
      'a new showAlert on both surviving sockets',
      async () => [node2, node3].every((node) => node.alerts.length > shownBefore[node.name]!),
      3_000,
    ).catch(() => undefined);
    await sleep(1_000);
    expect(await geofenceAlerts()).toHaveLength(alertsBefore.length + 1);
    expect(alertCounts([node2, node3])).toEqual({
      'node-2': shownBefore['node-2']! + 1,
      'node-3': shownBefore['node-3']! + 1,
    });
  }, 30_000);

  it('moves the lead (singleton jobs) from the killed process 1 to exactly one survivor within 10 s', async () => {
    expect(killedAt, 'process 1 was killed').toBeGreaterThan(0);
    const leaders = async () => (await Promise.all(live().map(readyz))).filter((a) => a.body.cluster?.leader === true);
    await waitFor(
      'one leader among the survivors',
      async () => (await leaders()).length === 1,
      Math.max(0, killedAt + 10_000 - Date.now()),
    );
  });

  it("reconnects a browser of the killed process to a survivor, whose snapshot has the device's latest fix stored by another process", async () => {
    const [node1, node2, node3] = nodes as [Node, Node, Node];
    const last = nextTimestamp();
    expect(await sendFix(node3, OUTSIDE, last)).toBe(200);
    // Positions are shared every 100 ms; on a loaded machine later. The browser connects again until node-2 has it.
    let seen: LocationSnapshot[string] | undefined;
    await waitFor(
      'the fix stored by node-3 in a snapshot of node-2',
      async () => {
        const socket = browserSocket(node2.base, node1.cookie, { deltas: true });
        try {
          // Each attempt is bounded, so a snapshot that never comes (nor a connection) fails the wait at its deadline.
          seen = (await nextEvent<LocationSnapshot>(socket, 'locationUpdate', () => true, 2_000))[device.id];
          return seen?.at === new Date(last).toISOString();
        } finally {
          socket.close();
        }
      },
      10_000,
      200,
    );
    expect(seen).toMatchObject({ latitude: OUTSIDE.lat, longitude: OUTSIDE.lon, at: new Date(last).toISOString() });
  });

  it('with Redis stopped stores fixes and raises alerts, says redis down in /readyz; with Redis back, fans out again and says up', async () => {
    const survivors = live();
    expect(survivors.map((node) => node.name)).toEqual(['node-2', 'node-3']);
    await stopChild(redis, 'SIGKILL');
    await waitFor(
      '/readyz redis down on the survivors',
      async () =>
        (await Promise.all(survivors.map(readyz))).every((a) => a.status === 200 && a.body.cluster?.redis === 'down'),
      10_000,
    );
    await waitFor(
      'the feed banner (clusterFeed interrupted) on both sockets',
      async () => survivors.every((node) => node.feed.at(-1) === 'interrupted'),
      5_000,
    );

    // The violation ends and starts again while Redis is down: stored, evaluated, alerted once.
    await resolveGeofenceAlerts();
    const alertsBefore = (await geofenceAlerts()).length;
    await alternate(survivors, INSIDE, 4);
    await alternate(survivors, OUTSIDE, 4);
    expect(await geofenceAlerts(), 'one alert for the violation that started while Redis was down').toHaveLength(
      alertsBefore + 1,
    );

    await startRedis();
    await waitFor(
      '/readyz redis up on the survivors',
      async () =>
        (await Promise.all(survivors.map(readyz))).every((a) => a.status === 200 && a.body.cluster?.redis === 'up'),
      15_000,
    );
    await waitFor(
      'clusterFeed ok on both sockets',
      async () => survivors.every((node) => node.feed.at(-1) === 'ok'),
      5_000,
    );
    const shownBefore = alertCounts(survivors);
    await resolveGeofenceAlerts();
    await alternate(survivors, INSIDE, 4);
    await alternate(survivors, OUTSIDE, 4);
    await waitFor(
      'a showAlert on both sockets after Redis returned',
      async () => survivors.every((node) => node.alerts.length > shownBefore[node.name]!),
      3_000,
    ).catch(() => undefined);
    await sleep(1_000);
    expect(await geofenceAlerts()).toHaveLength(alertsBefore + 2);
    expect(alertCounts(survivors)).toEqual({
      'node-2': shownBefore['node-2']! + 1,
      'node-3': shownBefore['node-3']! + 1,
    });

    // Every fix acknowledged in the whole run is stored.
    const { rows } = await check.query<{ t: string }>(
      `select (extract(epoch from recorded_at) * 1000)::bigint::text as t from positions where device_id = $1`,
      [device.id],
    );
    const stored = new Set(rows.map((row) => Number(row.t)));
    expect(acknowledged.filter((t) => !stored.has(t))).toEqual([]);
  }, 40_000);
});
