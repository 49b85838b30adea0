// Cluster mode's rules about two trackers (decision 036), with two apps in this process standing for two server
// processes on one PostgreSQL database and the machine's Redis: a keep-apart meeting and a failed escort whose two
// trackers report to different processes, at the same time, raise exactly one alert each (the pair's row decides),
// and a device given to another wearer is not judged with the previous wearer's stored state.
// Skipped without PostgreSQL or Redis at 127.0.0.1:6379, unless REQUIRE_REDIS=1.
import net from 'node:net';
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { destinationPoint } from '@prison/shared';
import { API_PREFIX, AUTH_COOKIE } from '@prison/shared';
import { buildApp, type App } from '../src/app';
import { fromPostgres, type Database } from '../src/db/client';
import { alerts, devices, geofenceStates } from '../src/db/schema';
import { createAdmin } from '../src/modules/admin/admin-service';
import { testConfig, TEST_ADMIN } from './test-app';
import { createScratchDatabase } from './test-db';
import { sleep } from './wait-for';

const REDIS = { host: '127.0.0.1', port: 6379 };
const adminUrl = inject('postgresAdminUrl');

function redisAnswers(): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(REDIS, () => {
      socket.end();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
    socket.setTimeout(1_000, () => {
      socket.destroy();
      resolve(false);
    });
  });
}

const redisUp = await redisAnswers();
if ((!redisUp || !adminUrl) && process.env.REQUIRE_REDIS === '1') throw new Error('REQUIRE_REDIS=1 but Redis or PostgreSQL does not answer on 127.0.0.1');

interface Node {
  app: App;
  database: Database;
  api(method: string, url: string, body?: unknown): Promise<{ statusCode: number; json(): any }>; // eslint-disable-line @typescript-eslint/no-explicit-any
}

describe.skipIf(!redisUp || !adminUrl)('cluster: alerts about two trackers on two processes', () => {
  let database: Awaited<ReturnType<typeof createScratchDatabase>> | undefined;
  const nodes: Node[] = [];
  const base: [number, number] = [51.5, -0.12];

  beforeAll(async () => {
    database = await createScratchDatabase('prison_cluster_rules');
    for (const node of ['one', 'two']) nodes.push(await startNode(node));
  }, 60_000);

  async function startNode(node: string): Promise<Node> {
    const url = new URL(database!.url);
    {
      const database = fromPostgres(url.toString(), 5);
      const app = await buildApp({
        config: testConfig({ DATABASE_URL: url.toString(), REDIS_URL: `redis://${REDIS.host}:${REDIS.port}`, NODE_NAME: node }),
        database,
        logger: false,
      });
      await app.ready();
      if (node === 'one') await createAdmin(database.db, TEST_ADMIN);
      await app.tracking.checkSilence(); // the leader's first tick (adopting what a former instance left)
      const login = await app.inject({ method: 'POST', url: `${API_PREFIX}/admin/login`, payload: { username: TEST_ADMIN.username, password: TEST_ADMIN.password } });
      const cookie = `${AUTH_COOKIE}=${login.json<{ token: string }>().token}`;
      return {
        app,
        database,
        api: (method, path, body) => app.inject({ method: method as 'GET', url: `${API_PREFIX}${path}`, payload: body as Record<string, unknown>, headers: { cookie } }),
      };
    }
  }

  afterAll(async () => {
    for (const node of nodes) {
      await node.app.close();
      await node.database.close();
    }
    await database?.drop();
  });

  const [one, two] = [() => nodes[0]!, () => nodes[1]!];
  let counter = 0;
  const prisoner = async (first: string) => {
    const res = await one().api('POST', '/prisoner/add', { first_name: first, last_name: `Cluster${++counter}`, date_of_birth: '1980-01-01', status: 'Incarcerated' });
    expect(res.statusCode).toBe(200);
    return (res.json() as { prisoner_id: number }).prisoner_id;
  };
  const device = async (body: Record<string, unknown>) => {
    const res = await one().api('POST', '/devices', { name: `Tag ${++counter}`, kind: 'phone', ...body });
    expect(res.statusCode).toBe(201);
    return (res.json() as { id: string }).id;
  };
  const at = (metresEast: number) => destinationPoint(base[0], base[1], metresEast, 90);
  const submit = (node: Node, deviceId: string, metresEast: number, t: number) => {
    const [latitude, longitude] = at(metresEast);
    return node.app.tracking.submit([{ deviceId, latitude, longitude, recordedAt: new Date(t) }]);
  };
  const ofKind = async (kind: string, ...prisonerIds: number[]) =>
    (await one().database.db.select().from(alerts).where(and(eq(alerts.kind, kind), inArray(alerts.prisonerId, prisonerIds)))).length;
  const settle = () => sleep(300);
  /** A prisoner wearing a tracker, and a Negative home zone of their own `metresEast` of the base, heard by both processes. */
  const wearerWithHome = async (first: string, metresEast: number) => {
    const p = await prisoner(first);
    const deviceId = await device({ prisoner_id: p });
    const [lat, lng] = at(metresEast);
    const fence = { geofence_id: `home-${++counter}`, name: 'Home', shape: 'Circle', type: 'Negative', alert_type: 'Critical', radius: 100, center_lat: lat, center_lng: lng, applies_to: { prisoner_ids: [p] }, dwell_seconds: 0 };
    expect((await one().api('POST', '/geofence/add', fence)).statusCode).toBe(200);
    await settle();
    return { p, deviceId, fence };
  };

  it('a keep-apart meeting seen by both processes at once raises one alert', async () => {
    const a = await prisoner('Ada');
    const b = await prisoner('Bo');
    const da = await device({ prisoner_id: a });
    const db = await device({ prisoner_id: b });
    expect((await one().api('POST', '/keep-apart', { prisoner_a: a, prisoner_b: b, reason: 'Threat', scope: 'block' })).statusCode).toBe(200);
    await settle(); // the pair and the devices reach process two through the change feed
    let t = Date.now() - 60_000;
    // Apart first, each on its own process, and each process hears the other's position.
    await Promise.all([submit(one(), da, 0, (t += 1000)), submit(two(), db, 500, t)]);
    await settle();
    // Then together, fixes of both arriving at both processes at the same moment, several times.
    for (let round = 0; round < 5; round++) {
      t += 1000;
      await Promise.all([submit(one(), da, 0, t), submit(two(), db, 5, t)]);
      await Promise.all([submit(two(), da, 1, t + 500), submit(one(), db, 4, t + 500)]);
    }
    await settle();
    expect(await ofKind('keep_apart', a, b)).toBe(1); // on the tracker of whichever fix brought them together
    // Parted beyond the hysteresis and together again: the next meeting alerts once more, once.
    t += 1000;
    await Promise.all([submit(one(), da, 0, t), submit(two(), db, 300, t)]);
    await settle();
    for (let round = 0; round < 3; round++) {
      t += 1000;
      await Promise.all([submit(two(), da, 0, t), submit(one(), db, 3, t)]);
    }
    await settle();
    expect(await ofKind('keep_apart', a, b)).toBe(2);
  });

  it('a process that missed the other\'s positions (a Redis hiccup) still raises no second alert for the same meeting', async () => {
    const a = await prisoner('Gus');
    const b = await prisoner('Hal');
    const da = await device({ prisoner_id: a });
    const db = await device({ prisoner_id: b });
    expect((await one().api('POST', '/keep-apart', { prisoner_a: a, prisoner_b: b, reason: 'Threat', scope: 'cell' })).statusCode).toBe(200);
    await settle();
    const tracking = two().app.tracking;
    const shared = tracking.applySharedPositions.bind(tracking);
    tracking.applySharedPositions = () => undefined; // process two hears nothing of process one's fixes
    try {
      let t = Date.now() - 60_000;
      await submit(one(), da, 0, (t += 1000));
      await submit(one(), db, 5, (t += 1000)); // process one: the meeting starts, one alert
      expect(await ofKind('keep_apart', a, b)).toBe(1);
      await submit(two(), da, 1, (t += 1000));
      await submit(two(), db, 4, (t += 1000)); // process two sees them meet for the first time: the pair's row says no
      expect(await ofKind('keep_apart', a, b)).toBe(1);
    } finally {
      tracking.applySharedPositions = shared;
    }
  });

  it('an escort failing on both processes at once raises one unescorted alert', async () => {
    const p = await prisoner('Cy');
    const badge = String(Date.now() % 1_000_000_000).slice(-6) + String(++counter).padStart(3, '0');
    const officerRes = await one().api('POST', '/staff/add', { first_name: 'Di', last_name: `Officer${counter}`, role: 'Police', badge_number: badge });
    expect(officerRes.statusCode, JSON.stringify(officerRes.json())).toBe(200);
    const officer = (officerRes.json() as { staff_id: number }).staff_id;
    const dp = await device({ prisoner_id: p });
    const ds = await device({ staff_id: officer });
    const from = new Date(Date.now() - 300_000).toISOString();
    expect((await one().api('POST', '/escorts', { prisoner_id: p, staff_id: officer, max_distance_m: 50, from })).statusCode).toBe(200);
    await settle();
    let t = Date.now() - 120_000;
    await Promise.all([submit(one(), ds, 0, (t += 1000)), submit(two(), dp, 10, t)]);
    await settle();
    // Apart for longer than 30 s, the fixes of both reaching both processes.
    for (let round = 0; round < 6; round++) {
      t += 10_000;
      await Promise.all([submit(one(), dp, 200, t), submit(two(), ds, 0, t), submit(two(), dp, 201, t + 1), submit(one(), ds, 1, t + 1)]);
    }
    await settle();
    await Promise.all([one().app.tracking.checkSilence(), two().app.tracking.checkSilence()]);
    expect(await ofKind('unescorted', p)).toBe(1);
  });

  it('a dwell timer runs out on the process that holds the device\'s latest state only: one alert', async () => {
    const p = await prisoner('Ivy');
    const dd = await device({ prisoner_id: p });
    const yard = `dwell-${++counter}`;
    const [lat, lng] = at(5_000);
    const fence = { geofence_id: yard, name: 'Dwell yard', shape: 'Circle', type: 'Positive', alert_type: 'Warning', radius: 100, center_lat: lat, center_lng: lng, dwell_seconds: 30 };
    expect((await two().api('POST', '/geofence/add', fence)).statusCode).toBe(200);
    await settle();
    const t = Date.now() - 60_000;
    await submit(one(), dd, 5_000, t); // inside: the dwell starts on process one
    await submit(two(), dd, 5_001, t + 1_000); // the next fix on process two, which takes over the running dwell
    await settle();
    // Both processes' timers run past the dwell; only process two still holds the device's latest state.
    await Promise.all([one().app.tracking.checkSilence(new Date(t + 40_000)), two().app.tracking.checkSilence(new Date(t + 40_000))]);
    expect(await ofKind('geofence', p)).toBe(1);
  });

  it('the timers of a process that is gone are adopted by the leader: its running dwell still raises, once', async () => {
    const third = await startNode('three');
    const p = await prisoner('Jo');
    const dd = await device({ prisoner_id: p });
    const [lat, lng] = at(9_000);
    const fence = { geofence_id: `dwell-${++counter}`, name: 'Far yard', shape: 'Circle', type: 'Positive', alert_type: 'Warning', radius: 100, center_lat: lat, center_lng: lng, dwell_seconds: 30 };
    expect((await one().api('POST', '/geofence/add', fence)).statusCode).toBe(200);
    await settle();
    const t = Date.now() - 60_000;
    await submit(third, dd, 9_000, t); // the dwell starts on process three
    // Process three goes away (its connections close, as with kill -9) before the dwell runs out.
    await third.app.close();
    await third.database.close();
    await Promise.all([one().app.tracking.checkSilence(new Date(t + 40_000)), two().app.tracking.checkSilence(new Date(t + 40_000))]);
    expect(await ofKind('geofence', p)).toBe(1);
  });

  it('a process that starts takes every device\'s stored engine memory at once: no takeover at its first fix, no second alert (decision 047)', async () => {
    const { p, deviceId: dh, fence } = await wearerWithHome('Hal', 20_000);
    let t = Date.now() - 60_000;
    await submit(one(), dh, 20_000, (t += 1000));
    await submit(one(), dh, 20_500, (t += 1000)); // left: the violation runs, one alert
    expect(await ofKind('geofence', p)).toBe(1);
    const fourth = await startNode('four');
    try {
      const [stored] = await one().database.db.select({ revision: devices.revision }).from(devices).where(eq(devices.id, dh));
      // Started at the stored revision with the stored engine memory (not -1, which would take it over at the first fix).
      expect(fourth.app.tracking.registry.get(dh)?.revision).toBe(stored!.revision);
      expect(fourth.app.geofenceEngine.activeViolations(dh).map((g) => g.geofence_id)).toEqual([fence.geofence_id]);
      expect((await submit(fourth, dh, 20_600, (t += 1000)))[0]).toBe('stored'); // still outside: nothing new
      expect(await ofKind('geofence', p)).toBe(1);
      await submit(fourth, dh, 20_000, (t += 1000)); // back home, then out again: a new violation, one alert
      await submit(fourth, dh, 20_500, (t += 1000));
      expect(await ofKind('geofence', p)).toBe(2);
    } finally {
      await fourth.app.close();
      await fourth.database.close();
    }
  });

  it('an alert planned on a stale revision is not stored by the guarded statement; after the takeover it is stored once (decision 080)', async () => {
    const { p, deviceId: di, fence } = await wearerWithHome('Ivy', 40_000);
    let t = Date.now() - 60_000;
    await submit(one(), di, 40_000, (t += 1000)); // home, on process one
    await submit(two(), di, 40_010, (t += 1000)); // home, on process two: one's revision is stale now
    const revisionOnOne = one().app.tracking.registry.get(di)!.revision;
    const [stored] = await one().database.db.select({ revision: devices.revision }).from(devices).where(eq(devices.id, di));
    expect(revisionOnOne).toBeLessThan(stored!.revision);
    // Out, on process one: its plan raises the alert, the guarded statement finds the revision moved and writes
    // nothing; the batch is planned again on the stored state under the lock and stores the alert once.
    expect((await submit(one(), di, 40_500, (t += 1000)))[0]).toBe('stored');
    const raised = await one().database.db.select().from(alerts).where(and(eq(alerts.kind, 'geofence'), eq(alerts.prisonerId, p)));
    expect(raised).toHaveLength(1);
    const [state] = await one().database.db.select().from(geofenceStates).where(and(eq(geofenceStates.deviceId, di), eq(geofenceStates.geofenceId, fence.geofence_id)));
    expect(state).toMatchObject({ violating: true, alertId: raised[0]!.id });
    // Still out, on the same process, now at the stored revision: the guarded statement stores the fix, nothing new.
    expect((await submit(one(), di, 40_600, (t += 1000)))[0]).toBe('stored');
    expect(await ofKind('geofence', p)).toBe(1);
  });

  it('a device given to another wearer takes nothing of the previous wearer\'s state to the other process', async () => {
    const first = await prisoner('Ed');
    const dx = await device({ prisoner_id: first });
    expect((await one().api('POST', '/geofence/add', { geofence_id: `fence-${counter}`, name: 'Yard', shape: 'Circle', type: 'Negative', alert_type: 'Critical', radius: 100, center_lat: base[0], center_lng: base[1], dwell_seconds: 0 })).statusCode).toBe(200);
    await settle();
    let t = Date.now() - 60_000;
    await submit(one(), dx, 0, (t += 1000));
    await submit(one(), dx, 500, (t += 1000)); // left: one alert for the first wearer
    expect(await ofKind('geofence', first)).toBe(1);
    const [before] = await one().database.db.select({ revision: devices.revision, state: devices.engineState }).from(devices).where(eq(devices.id, dx));
    const second = await prisoner('Flo');
    expect((await one().api('PUT', `/devices/${dx}/assign`, { prisoner_id: second })).statusCode).toBe(200);
    const [after] = await one().database.db.select({ revision: devices.revision, state: devices.engineState }).from(devices).where(eq(devices.id, dx));
    expect(before!.state).not.toBeNull();
    expect(after).toEqual({ revision: before!.revision + 1, state: null });
    await settle();
    // The second wearer, outside, on the other process: their own alert (a fresh start, not the first wearer's).
    await submit(two(), dx, 600, (t += 1000));
    expect(await ofKind('geofence', second)).toBe(1);
  });

  it('50 SOS of one device within a second, half to each process at once, make one open alert (decision 038)', async () => {
    const p = await prisoner('Gil');
    const dg = await device({ prisoner_id: p });
    await settle();
    const t = Date.now() - 60_000;
    const [latitude, longitude] = at(0);
    const sos = (node: Node, i: number) => node.app.tracking.submit([{ deviceId: dg, latitude, longitude, recordedAt: new Date(t + i * 20), alarm: 'sos' }]);
    await Promise.all(Array.from({ length: 50 }, (_, i) => sos(i % 2 ? two() : one(), i)));
    const raised = await one().database.db.select().from(alerts).where(and(eq(alerts.kind, 'sos'), eq(alerts.prisonerId, p)));
    expect(raised.map((a) => a.repeatCount)).toEqual([49]);
  });

  it('a device back online ends its offline alert with the statement of its fixes, whichever process takes the fix (decision 070)', async () => {
    const dd = await device({});
    await submit(one(), dd, 20_000, Date.now() - 1_000);
    await settle();
    const offline = () => one().database.db.select().from(alerts).where(and(eq(alerts.deviceId, dd), eq(alerts.kind, 'offline')));
    // The leader (either process) finds it silent past DEVICE_OFFLINE_SECONDS; the other hears it through the feed.
    const silentAt = () => new Date(Date.now() + 125_000);
    for (const [round, node] of [one, two, two].entries()) {
      const now = silentAt();
      await Promise.all([one().app.tracking.checkSilence(now), two().app.tracking.checkSilence(now)]);
      await settle();
      expect((await offline()).filter((a) => a.endedAt === null), `round ${round}: an open offline alert`).toHaveLength(1);
      await submit(node(), dd, 20_001 + round, Date.now());
      expect((await offline()).filter((a) => a.endedAt === null), `round ${round}: ended by the fix`).toHaveLength(0);
      expect((await one().api('GET', `/devices/${dd}`)).json().online).toBe(true);
    }
    // The three silences of one tracker are one problem while its alert is open: one alert, seen three times.
    expect((await offline()).map((a) => a.repeatCount)).toEqual([2]);
  });
});
