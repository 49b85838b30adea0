// The caseload holds everywhere (decision 093): for a wing officer of block Alpha, every GET route the app registered
// and every event the server's source emits, against a world where block Bravo (and a prisoner with no cell) has a
// prisoner, trackers, fixes, a breach, alerts acknowledged, an escort, a keep-apart pair waiting to end, an incident,
// an observation, a movement, a roll count, and trackers going offline and removed. Nothing of it reaches the officer;
// an administrator sees it through each route and event, so each probe proves something; routes and events that
// are about no block say so in caseload-reads.ts. The same enumeration on a test-only app with a deliberately leaking
// route and event fails, naming them.
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { API_PREFIX, AUTH_COOKIE } from '@prison/shared';
import { buildApp, type App, type RegisteredRoute } from '../src/app';
import { alerts, cells, escorts, keepApartPairs, prisoners, staff } from '../src/db/schema';
import { createAdmin } from '../src/modules/admin/admin-service';
import { browserSocket, connected, type BrowserSocket } from '../src/tracking/tracking-test-kit';
import { loginWithCaseload } from './caseload-accounts';
import { emittedEventNames, eventFindings, readRouteFindings, routeKey, showsOutside, type Received } from './caseload-reads';
import { TEST_ADMIN, testConfig } from './test-app';
import { createTestDatabase, describeEachEngine, type Engine } from './test-db';
import { waitFor } from './wait-for';

const ALPHA = 'Alpha Wing';
const BRAVO = 'Bravo Wing';
/** Ids and names of the other block's records: any of them in an answer or an event is a leak. */
const BRAVO_PRISONER = 7_654_100;
const NO_CELL_PRISONER = 7_654_200;
const BRAVO_ALERT = 7_654_001;
const NO_CELL_ALERT = 7_654_002;
/** An open violation, as the live map asks for them (it may end when the tracker goes offline). */
const BRAVO_VIOLATION = 7_654_003;
const BRAVO_ESCORT = 7_654_300;
const BRAVO_PAIR = 7_654_400;
const BRAVO_TRACKER = 'tag-bravoleak';
const NO_CELL_TRACKER = 'tag-nocellleak';
const OUTSIDE = /bravoleak|nocellleak|Bravo Wing|\b7654\d{3}\b/i;
const LAT = 51.5007;
const LNG = -0.1246;
const SOURCE = fileURLToPath(new URL('../src', import.meta.url));

/** HH:MM a minute ago in the app's time zone: the roll count reminder fires at the scheduler's first pass. */
function aMinuteAgo(timeZone: string): string {
  const parts = new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).formatToParts(
    new Date(Date.now() - 60_000),
  );
  return `${parts.find((p) => p.type === 'hour')!.value}:${parts.find((p) => p.type === 'minute')!.value}`;
}

interface World {
  app: App;
  close(): Promise<void>;
  api(method: string, url: string, body?: unknown): Promise<{ statusCode: number; body: string; json<T = unknown>(): T }>;
  officer: (url: string) => Promise<{ statusCode: number; body: string }>;
  ids: { alpha: number; staffId: number; incident: number; count: number; fence: string };
  seenByOfficer: Received[];
  seenByAdministrator: Received[];
}

/**
 * A listening app (real sockets) on a fresh database, the world above built through its API and database, an
 * officer of Alpha and an administrator connected throughout. `extend` adds to the app before it is ready (the leaks).
 */
async function startWorld(engine: Engine, extend?: (app: App) => void): Promise<World> {
  const config = testConfig({ OSMAND_PORT: 0, HOST: '127.0.0.1' });
  config.COUNT_TIMES = [aMinuteAgo(config.TZ)];
  const database = await createTestDatabase(engine);
  const app = await buildApp({ config, database, logger: false });
  extend?.(app);
  await app.ready();
  await app.listen({ port: 0, host: '127.0.0.1' });
  const baseUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  await createAdmin(database.db, TEST_ADMIN);
  const login = await app.inject({ method: 'POST', url: `${API_PREFIX}/admin/login`, payload: { username: TEST_ADMIN.username, password: TEST_ADMIN.password } });
  const adminCookie = `${AUTH_COOKIE}=${login.json<{ token: string }>().token}`;
  const api = (method: string, url: string, body?: unknown) =>
    app.inject({ method: method as 'GET', url: `${API_PREFIX}${url}`, payload: body as object, headers: { cookie: adminCookie } });
  const db = database.db;

  await db.insert(cells).values([
    { cellId: `${ALPHA}-1`, block: ALPHA, capacity: 10, securityLevel: 'Low' },
    { cellId: `${BRAVO}-1`, block: BRAVO, capacity: 10, securityLevel: 'Low' },
  ]);
  const officerCookie = await loginWithCaseload({ app, database }, [ALPHA], 'officer');
  // The officer and the administrator each on both feeds: deltas (our web app) and complete sets (the spec's client).
  const sockets: BrowserSocket[] = [
    browserSocket(baseUrl, officerCookie, { deltas: true }),
    browserSocket(baseUrl, officerCookie),
    browserSocket(baseUrl, adminCookie, { deltas: true }),
    browserSocket(baseUrl, adminCookie),
  ];
  const seenByOfficer: Received[] = [];
  const seenByAdministrator: Received[] = [];
  sockets.forEach((socket, i) => socket.onAny((event: string, payload: unknown) => (i < 2 ? seenByOfficer : seenByAdministrator).push({ event, payload })));
  await Promise.all(sockets.map(connected));

  const [alpha] = await db.insert(prisoners).values({ firstName: 'Alfa', lastName: 'Insider', status: 'Incarcerated', cellId: `${ALPHA}-1` }).returning();
  await db.insert(prisoners).values([
    { prisonerId: BRAVO_PRISONER, firstName: 'Bravo', lastName: 'Bravoleak', status: 'Incarcerated', cellId: `${BRAVO}-1` },
    { prisonerId: NO_CELL_PRISONER, firstName: 'Nemo', lastName: 'Nocellleak', status: 'Incarcerated', cellId: null },
  ]);
  const [guard] = await db.insert(staff).values({ firstName: 'Gale', lastName: 'Guard', role: 'Guard', badgeNumber: 'EVERY-1' }).returning();
  const ok = async (method: string, url: string, body?: unknown, status = 200) => {
    const res = await api(method, url, body);
    if (res.statusCode !== status) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
    return res.json<Record<string, unknown>>();
  };
  await ok('POST', '/devices', { kind: 'phone', id: 'tag-alfa', prisoner_id: alpha!.prisonerId }, 201);
  await ok('POST', '/devices', { kind: 'phone', id: BRAVO_TRACKER, prisoner_id: BRAVO_PRISONER }, 201);
  await ok('POST', '/devices', { kind: 'phone', id: NO_CELL_TRACKER, prisoner_id: NO_CELL_PRISONER }, 201);
  await app.tracking.wearersChanged();
  const fence = 'everywhere-perimeter';
  await ok('POST', '/geofence/add', { geofence_id: fence, shape: 'Circle', name: 'Perimeter', type: 'Negative', alert_type: 'Critical', radius: 300, center_lat: LAT, center_lng: LNG });
  // Everyone walks, inside the perimeter: positions, a breach each, open violations.
  const now = Math.floor(Date.now() / 1000);
  for (let step = 0; step < 3; step++) {
    for (const id of ['tag-alfa', BRAVO_TRACKER, NO_CELL_TRACKER]) {
      const fix = await app.inject({ method: 'GET', url: `${API_PREFIX}/ingest/osmand?id=${id}&lat=${LAT + step * 0.0001}&lon=${LNG}&timestamp=${now - 60 + step * 5}` });
      if (fix.statusCode !== 200) throw new Error(fix.body);
    }
  }
  // The complete set goes out once a second while anything moved: seen before the trackers go offline below.
  await waitFor('a complete set with the other block', () => seenByAdministrator.some((r) => r.event === 'locationUpdate' && JSON.stringify(r.payload).includes(BRAVO_TRACKER)), 5_000, 50);
  await db.insert(alerts).values([
    { id: BRAVO_ALERT, alertType: 'Informational', kind: 'manual', details: 'Bravoleak asked for the nurse', date: new Date().toISOString().slice(0, 10), timestamp: new Date(), prisonerId: BRAVO_PRISONER },
    { id: NO_CELL_ALERT, alertType: 'Informational', kind: 'manual', details: 'Nocellleak asked for the nurse', date: new Date().toISOString().slice(0, 10), timestamp: new Date(), prisonerId: NO_CELL_PRISONER },
    { id: BRAVO_VIOLATION, alertType: 'Critical', kind: 'geofence', details: 'In the perimeter', date: new Date().toISOString().slice(0, 10), timestamp: new Date(), prisonerId: BRAVO_PRISONER, geofenceId: fence },
  ]);
  await db.insert(escorts).values({ id: BRAVO_ESCORT, prisonerId: BRAVO_PRISONER, staffId: guard!.staffId, maxDistanceM: 50, startsAt: new Date(), createdBy: 'everywhere', unmonitored: true });
  await db.insert(keepApartPairs).values({ id: BRAVO_PAIR, prisonerA: BRAVO_PRISONER, prisonerB: NO_CELL_PRISONER, reason: 'Bullying', scope: 'cell', createdBy: 'everywhere' });
  await ok('POST', `/keep-apart/${BRAVO_PAIR}/end`, { reason: 'They were reconciled by mediation' }, 202);
  const incident = await ok('POST', '/incident/add', { prisonerName: 'Bravo Bravoleak', guardName: 'Gale Guard', date: '2026-01-02', time: '10:00', description: 'Refused to return to his cell', actionTaken: 'Talked down' });
  await ok('PUT', `/prisoners/${BRAVO_PRISONER}/observation`, { level: 'high', reason: 'Low mood after a phone call' });
  await ok('POST', `/prisoners/${BRAVO_PRISONER}/flags`, { kind: 'escape', note: 'Bravoleak was found with a rope' }, 201);
  // A movement goes to a place prisoners go (a Positive zone that alarms; closed, so with a reason), never the perimeter.
  await ok('POST', '/geofence/add', { geofence_id: 'everywhere-workshop', shape: 'Circle', name: 'Workshop', type: 'Positive', alert_type: 'Warning', radius: 20, center_lat: LAT + 0.01, center_lng: LNG });
  await ok('POST', '/movements', {
    prisoner_ids: [BRAVO_PRISONER],
    destination_geofence_id: 'everywhere-workshop',
    due_by: new Date(Date.now() + 30 * 60_000).toISOString(),
    reason: 'Booked job in the workshop',
  });
  const count = await ok('POST', '/counts', { block_id: BRAVO });
  // A log entry about the other block's prisoner and alert: its words name nobody, its links do.
  await ok('POST', '/messages', { body: 'Moved to the health care unit', type: 'note', prisoner_ids: [BRAVO_PRISONER], alert_ids: [BRAVO_ALERT] });
  // The workflow, offline and removal events of the other block's records.
  await ok('POST', `/alert/${BRAVO_ALERT}/acknowledge`, { note: 'seen' });
  await ok('POST', `/alert/${NO_CELL_ALERT}/acknowledge`, { note: 'seen' });
  await app.tracking.checkSilence(new Date(Date.now() + (config.DEVICE_OFFLINE_SECONDS + 120) * 1000));
  await ok('DELETE', `/devices/${NO_CELL_TRACKER}`);
  // The roll count reminder: at the scheduler's first pass (every 15 s) after the start.
  await waitFor('the roll count reminders', () => seenByAdministrator.some((r) => r.event === 'countDue' && showsOutside(OUTSIDE, JSON.stringify(r.payload))), 25_000, 100);
  await new Promise((resolve) => setTimeout(resolve, 600)); // the last flush of positions

  return {
    app,
    api,
    officer: (url) => app.inject({ method: 'GET', url, headers: { cookie: officerCookie } }),
    ids: { alpha: alpha!.prisonerId, staffId: guard!.staffId, incident: incident.id as number, count: count.id as number, fence },
    seenByOfficer,
    seenByAdministrator,
    close: async () => {
      for (const socket of sockets) socket.disconnect();
      await app.close();
      await database.close();
    },
  };
}

/** The request for each GET route with a parameter or a required query: the other block's ids, or, for a route
 * about one person that answers others too (near, contacts, the cell check), Alpha's. */
function urlFor(world: World, route: RegisteredRoute): string | undefined {
  const from = new Date(Date.now() - 30 * 60_000).toISOString();
  const to = new Date().toISOString();
  const window = `from=${from}&to=${to}`;
  const { alpha, incident, count } = world.ids;
  const requests: Record<string, string> = {
    'GET /api/v1/prisoner/prisonerid/:id': `/prisoner/prisonerid/${BRAVO_PRISONER}`,
    'GET /api/v1/prisoner/holdings/:id': `/prisoner/holdings/${BRAVO_PRISONER}`,
    'GET /api/v1/prisoner/all': '/prisoner/all?limit=100',
    'GET /api/v1/cell_controls/block': `/cell_controls/block?block=${encodeURIComponent(BRAVO)}`,
    'GET /api/v1/cell_controls/check': `/cell_controls/check?prisoner_id=${alpha}`,
    'GET /api/v1/cell_controls/addOccupant/:cell_id': `/cell_controls/addOccupant/${encodeURIComponent(`${BRAVO}-1`)}`,
    'GET /api/v1/incidents': '/incidents?limit=100',
    'GET /api/v1/incidents/:id': `/incidents/${incident}`,
    'GET /api/v1/incident/recent': '/incident/recent?limit=100',
    'GET /api/v1/devices/:id': `/devices/${BRAVO_TRACKER}`,
    'GET /api/v1/alert/recent': '/alert/recent?limit=100',
    'GET /api/v1/alert/prisoneralerts': '/alert/prisoneralerts?limit=100',
    'GET /api/v1/location/history': `/location/history?prisoner_id=${BRAVO_PRISONER}&${window}`,
    'GET /api/v1/location/export': `/location/export?prisoner_id=${BRAVO_PRISONER}&${window}&format=csv`,
    'GET /api/v1/location/replay': `/location/replay?${window}`,
    'GET /api/v1/location/snapshot': `/location/snapshot?at=${to}`,
    'GET /api/v1/location/near': `/location/near?prisoner_id=${alpha}&radius_m=100&${window}`,
    'GET /api/v1/location/contacts': `/location/contacts?a=prisoner:${alpha}&b=prisoner:${BRAVO_PRISONER}&radius_m=100&${window}`,
    'GET /api/v1/audit': '/audit',
    'GET /api/v1/audit/export': '/audit/export',
    'GET /api/v1/counts/:id': `/counts/${count}`,
    'GET /api/v1/observations/due': `/observations/due?block_id=${encodeURIComponent(BRAVO)}`,
    'GET /api/v1/prisoners/:id/observation': `/prisoners/${BRAVO_PRISONER}/observation`,
    'GET /api/v1/prisoners/:id/photo': `/prisoners/${BRAVO_PRISONER}/photo`,
    'GET /api/v1/prisoners/:id/flags': `/prisoners/${BRAVO_PRISONER}/flags`,
    'GET /api/v1/pending-changes': '/pending-changes?status=all',
    'GET /api/v1/messages': '/messages?limit=100',
  };
  const path = requests[routeKey(route)];
  return path === undefined ? undefined : `${API_PREFIX}${path}`;
}

async function routeFindings(world: World) {
  return readRouteFindings({
    routes: world.app.registeredRoutes,
    officerRole: 'officer',
    urlFor: (route) => urlFor(world, route),
    get: (as, url) => (as === 'officer' ? world.officer(url) : world.api('GET', url.slice(API_PREFIX.length))),
    outside: OUTSIDE,
  });
}

describeEachEngine('the caseload holds everywhere', (engine) => {
  let world: World;
  beforeAll(async () => {
    world = await startWorld(engine);
  }, 90_000);
  afterAll(async () => world?.close());

  it('every GET route: the officer of Alpha is shown nothing of Bravo, an administrator is; the rest is declared', async () => {
    const findings = await routeFindings(world);
    expect(findings.leaking, 'routes showing the officer another block').toEqual([]);
    expect(findings.unproven, 'routes the world proves nothing of: give them block data here, or declare them').toEqual([]);
    expect(findings.unrequested, 'routes with a parameter and no request').toEqual([]);
    expect(findings.stale, 'declarations of no route').toEqual([]);
    expect(findings.asked).toBeGreaterThanOrEqual(35);
  });

  it('every event the server emits: the officer receives nothing of Bravo, an administrator does; the rest is declared', () => {
    const emitted = emittedEventNames(SOURCE);
    expect(emitted).toEqual(expect.arrayContaining(['alertStatusChanged', 'userDisconnected', 'showAlert', 'locationChanges']));
    const findings = eventFindings(emitted, world.seenByOfficer, world.seenByAdministrator, OUTSIDE);
    expect(findings.undeclared, 'events with no declared scope').toEqual([]);
    expect(findings.stale, 'declared events emitted nowhere').toEqual([]);
    expect(findings.leaking, 'events showing the officer another block').toEqual([]);
    expect(findings.unexercised, 'caseload events the scenario did not send with the other block\'s data').toEqual([]);
    // The officer's own block still reaches him: the filters are not simply silence.
    const officerSaw = (event: string) => world.seenByOfficer.some((r) => r.event === event);
    for (const event of ['locationUpdate', 'locationChanges', 'showAlert', 'userDisconnected', 'countDue']) expect(officerSaw(event), event).toBe(true);
    expect(JSON.stringify(world.seenByOfficer.filter((r) => r.event === 'countDue'))).toContain(ALPHA);
  });
});

describeEachEngine('the enumeration catches a leak', (engine) => {
  let world: World;
  beforeAll(async () => {
    world = await startWorld(engine, (app) => {
      // A new read route that forgot the caseload, one that names nobody and was not declared, and one with a
      // parameter nobody gave a request for.
      app.get(`${API_PREFIX}/leaky/prisoners`, { config: { access: 'records.read' } }, async () => ({
        data: await app.db.select({ id: prisoners.prisonerId, last: prisoners.lastName }).from(prisoners),
      }));
      app.get(`${API_PREFIX}/leaky/quiet`, { config: { access: 'records.read' } }, async () => ({ ok: true }));
      app.get(`${API_PREFIX}/leaky/things/:id`, { config: { access: 'records.read' } }, async () => ({ ok: true }));
      // An event sent the way alertStatusChanged went before: to every browser.
      app.addHook('onResponse', async (request) => {
        const match = /\/alert\/(\d+)\/acknowledge$/.exec(request.url);
        if (match) app.realtime.toBrowsers().emit('alertStatusChanged', { ids: [Number(match[1])], status: 'Acknowledged' });
      });
    });
  }, 90_000);
  afterAll(async () => world?.close());

  it('names the leaking route, the undeclared route that proves nothing and the route without a request', async () => {
    const findings = await routeFindings(world);
    expect(findings.leaking.map((leak) => leak.split(' (')[0])).toEqual(['GET /api/v1/leaky/prisoners']);
    expect(findings.unproven.map((entry) => entry.split(' (')[0])).toEqual(['GET /api/v1/leaky/quiet']);
    expect(findings.unrequested).toEqual(['GET /api/v1/leaky/things/:id']);
  });

  it('names the leaking event, and an event name the source emits without a declared scope', () => {
    const findings = eventFindings(emittedEventNames(SOURCE), world.seenByOfficer, world.seenByAdministrator, OUTSIDE);
    expect([...new Set(findings.leaking.map((leak) => leak.split(':')[0]))]).toEqual(['alertStatusChanged']);
    expect(findings.leaking.join()).toContain(String(BRAVO_ALERT));
    const source = mkdtempSync(join(tmpdir(), 'caseload-events-'));
    mkdirSync(join(source, 'modules'));
    writeFileSync(join(source, 'modules', 'new-feature.ts'), "app.realtime.toBrowsers().emit('prisonerMoved', { id });\n");
    writeFileSync(join(source, 'modules', 'new-feature.test.ts'), "socket.emit('testOnly');\n");
    expect(eventFindings(emittedEventNames(source), [], [], OUTSIDE).undeclared).toEqual(['prisonerMoved']);
  });
});
