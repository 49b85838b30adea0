// The access matrix (decision 050): every registered route x every role, the expected answer derived
// from the route's declaration and ACTION_ROLES alone, so the next route is covered without anyone remembering to.
// Allowed: not 401/403 (and where a sample request is known, the administrator's succeeds). Refused: 403 with the
// message naming the role and the action, an audit entry, and the database unchanged; the write routes are refused
// with the same sample that then succeeds for the administrator. Also: a route without a declaration refuses
// everyone, a body field that needs more (an override) is refused to the role without it, and the socket events.
import type { AddressInfo } from 'node:net';
import { and, count, eq } from 'drizzle-orm';
import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACTION_ROLES, ROLES, forbiddenMessage, roleMay, type Role } from '@prison/shared';
import { auditLog } from '../src/db/schema';
import { UNDECLARED_ACCESS_MESSAGE, forgetAuditedRefusals } from '../src/plugins/access';
import { BROWSER_CONNECTION_ACCESS, BROWSER_EVENT_ACCESS, type BrowserEvent } from '../src/plugins/realtime';
import { startTestApp, type TestContext } from './test-app';
import {
  apiPath,
  changedTables,
  concretePath,
  createRoleAccounts,
  expectedFor,
  fingerprint,
  fingerprintQuery,
  guardedRoutes,
  refusedForField,
  routeKey,
  sendAs,
  sessionCookie,
  type RoleAccount,
} from './route-access-kit';

/** A route added by this test only: it declares no access, so everyone must be refused and the handler never run. */
const UNDECLARED_ROUTE = apiPath('/test-only/undeclared');
let undeclaredReached = 0;

let ctx: TestContext;
let accounts: Record<Role, RoleAccount>;
let fixtures: Fixtures;
let uniq = 0;
const next = () => `${Date.now().toString(36)}${++uniq}`;

beforeAll(async () => {
  ctx = await startTestApp('pglite', { LOGIN_RATE_LIMIT_PER_MINUTE: 1_000_000, DEVICE_OFFLINE_SECONDS: 86_400 });
  accounts = await createRoleAccounts(ctx.database);
  fixtures = await seed();
}, 60_000);
afterAll(async () => {
  await ctx?.app.close();
  await ctx?.database.close();
});

// ----- sample requests that succeed for the administrator -------------------------------------------------------
/** As the test's administrator; throws unless 2xx. */
async function ok(method: string, url: string, payload?: unknown) {
  const res = await ctx.api(method, url, payload);
  if (res.statusCode >= 300) throw new Error(`fixture ${method} ${url}: ${res.statusCode} ${res.body}`);
  return res.json();
}

interface Fixtures {
  cellId: string;
  requester: TestContext['api'];
}

async function seed(): Promise<Fixtures> {
  await ok('POST', '/cell_controls/cells', { cell_id: 'MX-A1', block: 'A', capacity: 100, security_level: 'Low' });
  await ok('POST', '/cell_controls/cells', { cell_id: 'MX-B1', block: 'B', capacity: 100, security_level: 'Low' });
  // Changes waiting for approval are asked by another administrator than the ones who decide them.
  const { loginAnotherAdmin } = await import('./test-app');
  return { cellId: 'MX-A1', requester: await loginAnotherAdmin(ctx, 'matrix-requester') };
}

const newPrisoner = async (extra: Record<string, unknown> = {}) =>
  (
    await ok('POST', '/prisoner/add', {
      first_name: 'Matrix',
      last_name: `Prisoner ${next()}`,
      date_of_birth: '1980-05-01',
      status: 'Incarcerated',
      ...extra,
    })
  ).prisoner_id as number;
const newStaff = async () =>
  (await ok('POST', '/staff/add', { first_name: 'Matrix', last_name: `Guard ${next()}`, role: 'Guard', badge_number: String(Date.now() % 1e9 + ++uniq) })).staff_id as number;
const newDevice = async () => (await ok('POST', '/devices', { name: `Tag ${next()}`, kind: 'phone' })).id as string;
const newGeofence = async () => {
  const id = `mx-${next()}`;
  await ok('POST', '/geofence/add', { geofence_id: id, name: `Zone ${id}`, shape: 'Circle', type: 'Positive', radius: 30, center_lat: 10, center_lng: 10 });
  return id;
};
/** A movement to a Warning zone (closed at due_by, as every unscheduled Positive zone is: with a reason). */
const movementBody = async () => {
  const id = `mx-${next()}`;
  await ok('POST', '/geofence/add', { geofence_id: id, name: `Workshop ${id}`, shape: 'Circle', type: 'Positive', alert_type: 'Warning', radius: 30, center_lat: 10, center_lng: 10 });
  return { prisoner_ids: [await newPrisoner()], destination_geofence_id: id, due_by: new Date(Date.now() + 3_600_000).toISOString(), reason: REASON };
};
const newAlert = async (alertType = 'Warning') => (await ok('POST', '/alert/all', { alert_type: alertType, details: `Matrix ${next()}` })).id as number;
const newAdmin = async () => (await ok('POST', '/admins', { username: `mx-${next()}`, password: 'a long passphrase for a new one 9', role: 'records' })).id as number;
const INCIDENT_WINDOW = { from: '2026-03-01T08:00:00Z', to: '2026-03-01T09:00:00Z' };
const newIncident = async () => (await ok('POST', '/incidents', { description: `Matrix ${next()}`, window: INCIDENT_WINDOW })).id as number;
const REASON = 'Agreed in the access matrix test';
const LAST_HOUR = `from=${new Date(Date.now() - 3_600_000).toISOString()}&to=${new Date().toISOString()}`;

/** A request that succeeds for an administrator: the path parameters and the body. */
interface Sample {
  params?: Record<string, string | number>;
  body?: unknown;
  query?: string;
}

/** Sample requests per route (fresh records each time, so every role's request could succeed on its own). */
const SAMPLES: Record<string, () => Promise<Sample>> = {
  'POST /api/v1/prisoner/add': async () => ({
    body: { first_name: 'New', last_name: `Prisoner ${next()}`, date_of_birth: '1981-01-01', status: 'Incarcerated', cell_id: 'MX-A1' },
  }),
  'PUT /api/v1/prisoner/update/:id': async () => ({ params: { id: await newPrisoner() }, body: { medical_history: 'None known' } }),
  'DELETE /api/v1/prisoner/delete/:id': async () => ({ params: { id: await newPrisoner({ status: 'Released' }) } }),
  'POST /api/v1/prisoner/restore/:id': async () => {
    const id = await newPrisoner({ status: 'Released' });
    await ok('DELETE', `/prisoner/delete/${id}`);
    return { params: { id } };
  },
  'POST /api/v1/staff/add': async () => ({
    body: { first_name: 'New', last_name: `Guard ${next()}`, role: 'Guard', badge_number: String(Date.now() % 1e9 + ++uniq) },
  }),
  'PUT /api/v1/staff/update/:id': async () => ({
    params: { id: await newStaff() },
    body: { first_name: 'Edited', last_name: `Guard ${next()}`, role: 'Guard', badge_number: String(Date.now() % 1e9 + ++uniq) },
  }),
  'DELETE /api/v1/staff/delete/:id': async () => ({ params: { id: await newStaff() } }),
  'POST /api/v1/staff/restore/:id': async () => {
    // One with history (an escort) is retired rather than erased, so it can be restored.
    const id = await newStaff();
    const escort = await ok('POST', '/escorts', { prisoner_id: await newPrisoner(), staff_id: id, unmonitored: true });
    await ok('POST', `/escorts/${(escort.escort ?? escort).id}/end`);
    await ok('DELETE', `/staff/delete/${id}`);
    return { params: { id } };
  },
  'GET /api/v1/cell_controls/addOccupant/:cell_id': async () => ({ params: { cell_id: 'MX-A1' } }),
  'POST /api/v1/cell_controls/cells': async () => ({ body: { cell_id: `MX-${next()}`, block: 'A', capacity: 2, security_level: 'Low' } }),
  'PUT /api/v1/cell_controls/cells/:cell_id': async () => {
    const cellId = `MX-${next()}`;
    await ok('POST', '/cell_controls/cells', { cell_id: cellId, block: 'B', capacity: 2, security_level: 'Low' });
    return { params: { cell_id: cellId }, body: { capacity: 3 } };
  },
  'DELETE /api/v1/cell_controls/cells/:cell_id': async () => {
    const cellId = `MX-${next()}`;
    await ok('POST', '/cell_controls/cells', { cell_id: cellId, block: 'B', capacity: 2, security_level: 'Low' });
    return { params: { cell_id: cellId } };
  },
  'POST /api/v1/cell_controls/assign': async () => ({
    body: { prisoner_id: await newPrisoner(), cell_id: 'MX-B1' },
  }),
  'POST /api/v1/incident/add': async () => ({
    body: { prisonerName: 'Matrix Prisoner', guardName: 'Matrix Guard', date: '2025-01-01', time: '10:00', description: 'Shouting', actionTaken: 'Talked' },
  }),
  'POST /api/v1/devices': async () => ({ body: { name: `Tag ${next()}`, kind: 'phone' } }),
  'PUT /api/v1/devices/:id/assign': async () => ({ params: { id: await newDevice() }, body: { prisoner_id: await newPrisoner() } }),
  'POST /api/v1/devices/:id/rotate-secret': async () => ({ params: { id: await newDevice() } }),
  'PUT /api/v1/devices/:id/secret-required': async () => ({ params: { id: await newDevice() }, body: { secret_required: false } }),
  'DELETE /api/v1/devices/:id': async () => ({ params: { id: await newDevice() } }),
  'POST /api/v1/geofence/add': async () => ({
    body: { geofence_id: `mx-${next()}`, name: `Zone ${next()}`, shape: 'Circle', type: 'Positive', radius: 30, center_lat: 10, center_lng: 10 },
  }),
  'PUT /api/v1/geofence/update/:id': async () => ({ params: { id: await newGeofence() }, body: { name: `Renamed ${next()}` } }),
  'DELETE /api/v1/geofence/delete/:id': async () => ({ params: { id: await newGeofence() }, body: { reason: REASON } }),
  'POST /api/v1/alert/all': async () => ({ body: { alert_type: 'Warning', details: `Matrix ${next()}` } }),
  'POST /api/v1/alert/:id/acknowledge': async () => ({ params: { id: await newAlert() }, body: {} }),
  'POST /api/v1/alert/:id/resolve': async () => ({ params: { id: await newAlert('Informational') }, body: {} }),
  'POST /api/v1/alert/:id/respond': async () => ({ params: { id: await newAlert('Critical') } }),
  'POST /api/v1/duress': async () => ({}),
  'POST /api/v1/duress/stand-down': async () => {
    await ok('POST', '/duress');
    return { body: { note: 'Safe now, a false alarm' } };
  },
  'POST /api/v1/alert/bulk': async () => ({ body: { ids: [await newAlert()], action: 'acknowledge' } }),
  'POST /api/v1/messages': async () => ({ body: { body: `Matrix ${next()}` } }),
  'POST /api/v1/keep-apart': async () => ({
    body: { prisoner_a: await newPrisoner(), prisoner_b: await newPrisoner(), reason: 'Bullying', scope: 'cell' },
  }),
  'POST /api/v1/keep-apart/:id/end': async () => {
    const pair = await ok('POST', '/keep-apart', { prisoner_a: await newPrisoner(), prisoner_b: await newPrisoner(), reason: 'Bullying', scope: 'cell' });
    return { params: { id: (pair.pair ?? pair).id }, body: { reason: REASON } };
  },
  'POST /api/v1/escorts': async () => ({ body: { prisoner_id: await newPrisoner(), staff_id: await newStaff(), unmonitored: true } }),
  'POST /api/v1/escorts/:id/end': async () => {
    const escort = await ok('POST', '/escorts', { prisoner_id: await newPrisoner(), staff_id: await newStaff(), unmonitored: true });
    return { params: { id: (escort.escort ?? escort).id } };
  },
  'GET /api/v1/observations/due': async () => ({ query: 'block_id=B' }),
  'POST /api/v1/observations': async () => ({ body: { prisoner_id: await newPrisoner(), quick: 'not_in_cell', where: 'At healthcare' } }),
  'POST /api/v1/movements': async () => ({ body: await movementBody() }),
  'POST /api/v1/movements/:id/end': async () => ({ params: { id: (await ok('POST', '/movements', await movementBody())).movement.id } }),
  'POST /api/v1/movements/:id/cancel': async () => ({ params: { id: (await ok('POST', '/movements', await movementBody())).movement.id } }),
  'PUT /api/v1/prisoners/:id/observation': async () => ({ params: { id: await newPrisoner() }, body: { level: 'high', reason: REASON } }),
  'GET /api/v1/prisoners/:id/flags': async () => ({ params: { id: await newPrisoner() } }),
  'POST /api/v1/prisoners/:id/flags': async () => ({ params: { id: await newPrisoner() }, body: { kind: 'medical', note: 'Epilepsy' } }),
  'POST /api/v1/prisoners/:id/flags/:flagId/clear': async () => {
    const id = await newPrisoner();
    const flag = await ok('POST', `/prisoners/${id}/flags`, { kind: 'escape' });
    return { params: { id, flagId: flag.id }, body: { reason: 'Assessed again: no longer a risk' } };
  },
  'POST /api/v1/prisoners/:id/observation/handover': async () => {
    const id = await newPrisoner();
    await ok('PUT', `/prisoners/${id}/observation`, { level: 'constant', reason: REASON });
    return { params: { id }, body: { staff_id: await newStaff() } };
  },
  'POST /api/v1/pending-changes/:id/approve': async () => ({ params: { id: await pendingChange() }, body: {} }),
  'POST /api/v1/pending-changes/:id/refuse': async () => ({ params: { id: await pendingChange() }, body: {} }),
  'POST /api/v1/admins': async () => ({ body: { username: `mx-${next()}`, password: 'a long passphrase for a new one 9' } }),
  'PUT /api/v1/admins/:id': async () => ({ params: { id: await newAdmin() }, body: { name: `Renamed ${next()}` } }),
  'POST /api/v1/admins/:id/disable': async () => ({ params: { id: await newAdmin() } }),
  'POST /api/v1/admins/:id/enable': async () => ({ params: { id: await newAdmin() } }),
  'POST /api/v1/admins/:id/unlock': async () => ({ params: { id: await newAdmin() } }),
  'POST /api/v1/incidents': async () => ({ body: { description: `Matrix ${next()}`, window: INCIDENT_WINDOW } }),
  'GET /api/v1/incidents/:id': async () => ({ params: { id: await newIncident() } }),
  'PATCH /api/v1/incidents/:id/status': async () => ({ params: { id: await newIncident() }, body: { status: 'investigating' } }),
  'POST /api/v1/incidents/:id/links': async () => ({ params: { id: await newIncident() }, body: { prisoner_ids: [await newPrisoner()] } }),
  'GET /api/v1/location/replay': async () => ({ query: LAST_HOUR }),
  'GET /api/v1/location/history': async () => ({ query: `prisoner_id=${await newPrisoner()}&${LAST_HOUR}` }),
  'GET /api/v1/location/export': async () => ({ query: `prisoner_id=${await newPrisoner()}&format=csv&${LAST_HOUR}` }),
};

/** A geofence delete asked by the requester, waiting for another administrator: its pending change's id. */
async function pendingChange(): Promise<number> {
  const id = await newGeofence();
  const asked = await fixtures.requester('DELETE', `/geofence/delete/${id}`, { reason: REASON });
  if (asked.statusCode !== 202) throw new Error(`pending change: ${asked.statusCode} ${asked.body}`);
  return asked.json().pending.id;
}

const urlOf = (route: { url: string }, sample: Sample) => concretePath(route.url, sample.params) + (sample.query ? `?${sample.query}` : '');

async function refusalEntries(adminId: number, target: string): Promise<number> {
  const [row] = await ctx.database.db
    .select({ n: count() })
    .from(auditLog)
    .where(and(eq(auditLog.action, 'access.refused'), eq(auditLog.adminId, adminId), eq(auditLog.entityId, target)));
  return Number(row?.n ?? 0);
}

// ----- the matrix -----------------------------------------------------------------------------------------------
describe('every registered route x every role', () => {
  it('every route of the app declares its access or is public by design', () => {
    const undeclared = ctx.app.registeredRoutes.filter((r) => !r.public && !r.access).map(routeKey);
    expect(undeclared).toEqual([]);
    // Every declared action is one of roles.ts (the type says so; this says the running app agrees).
    for (const route of guardedRoutes(ctx.app)) expect(Object.keys(ACTION_ROLES)).toContain(route.access);
  });

  it('answers each role as the declaration says; a refusal is 403 naming role and action, audited, and changes nothing', async () => {
    forgetAuditedRefusals();
    const routes = guardedRoutes(ctx.app);
    expect(routes.length).toBeGreaterThan(80);
    const query = await fingerprintQuery(ctx.database);
    const wrong: string[] = [];
    let refusals = 0;
    let allowed = 0;
    for (const route of routes) {
      const key = routeKey(route);
      const prepare = SAMPLES[key] ?? (async (): Promise<Sample> => ({ body: {} }));
      const sample = await prepare();
      const url = urlOf(route, sample);
      const refusedRoles = ROLES.filter((role) => !expectedFor(route, role).allowed);
      const allowedRoles = ROLES.filter((role) => expectedFor(route, role).allowed);

      // The refused roles first, with a request that succeeds for the administrator just after.
      if (refusedRoles.length > 0) {
        const cookies = await Promise.all(refusedRoles.map((role) => sessionCookie(ctx.database, accounts[role])));
        const before = await fingerprint(ctx.database, query);
        for (const [index, role] of refusedRoles.entries()) {
          const expected = expectedFor(route, role) as { message: string };
          const res = await sendAs(ctx.app, cookies[index]!, route.method, url, sample.body);
          refusals++;
          if (res.statusCode !== 403 || res.json().message !== expected.message) {
            wrong.push(`${key} as ${role}: ${res.statusCode} ${res.body} (expected 403 "${expected.message}")`);
          }
          if ((await refusalEntries(accounts[role].id, key)) !== 1) wrong.push(`${key} as ${role}: no access.refused audit entry`);
        }
        const after = await fingerprint(ctx.database, query);
        if (after !== before) wrong.push(`${key}: a refused request changed ${changedTables(before, after)}`);
      }

      for (const [index, role] of allowedRoles.entries()) {
        // The first allowed role uses the sample the refused roles sent; each other gets a fresh one.
        const own = index === 0 ? sample : await prepare();
        const res = await sendAs(ctx.app, await sessionCookie(ctx.database, accounts[role]), route.method, urlOf(route, own), own.body);
        allowed++;
        if (res.statusCode === 401 || res.statusCode === 403) wrong.push(`${key} as ${role}: ${res.statusCode} ${res.body} (expected allowed)`);
        else if (role === 'administrator' && SAMPLES[key] && res.statusCode >= 300) {
          wrong.push(`${key} as administrator: the sample failed (${res.statusCode} ${res.body}), so the refusals proved less`);
        }
      }
    }
    console.log(`access matrix: ${routes.length} routes x ${ROLES.length} roles, ${refusals} refused, ${allowed} allowed`);
    expect(wrong).toEqual([]);
  }, 240_000);

  it('a HEAD request meets the check of its GET route', async () => {
    const wrong: string[] = [];
    for (const route of guardedRoutes(ctx.app).filter((r) => r.method === 'GET')) {
      for (const role of ['administrator', 'auditor'] as const) {
        const cookie = await sessionCookie(ctx.database, accounts[role]);
        const [get, head] = [await sendAs(ctx.app, cookie, 'GET', concretePath(route.url)), await sendAs(ctx.app, cookie, 'HEAD', concretePath(route.url))];
        const refused = (status: number) => status === 401 || status === 403;
        if (refused(get.statusCode) !== refused(head.statusCode)) wrong.push(`${routeKey(route)} as ${role}: GET ${get.statusCode}, HEAD ${head.statusCode}`);
      }
    }
    expect(wrong).toEqual([]);
  }, 60_000);

  it('a body field that needs more is refused to a role without it: an override of a cell rule by a records clerk', async () => {
    const routes = guardedRoutes(ctx.app).filter((route) => route.bodyFieldAccess);
    expect(routes.map(routeKey)).toContain('POST /api/v1/cell_controls/assign');
    const query = await fingerprintQuery(ctx.database);
    const wrong: string[] = [];
    for (const route of routes) {
      for (const [field, action] of Object.entries(route.bodyFieldAccess!)) {
        for (const role of refusedForField(route, action)) {
          const sample = await SAMPLES[routeKey(route)]!();
          const body = { ...(sample.body as object), [field]: 'A reason long enough to override a rule' };
          const cookie = await sessionCookie(ctx.database, accounts[role]);
          const before = await fingerprint(ctx.database, query);
          const res = await sendAs(ctx.app, cookie, route.method, urlOf(route, sample), body);
          if (res.statusCode !== 403 || res.json().message !== forbiddenMessage(role, action)) {
            wrong.push(`${routeKey(route)} with ${field} as ${role}: ${res.statusCode} ${res.body}`);
          }
          const after = await fingerprint(ctx.database, query);
          if (after !== before) wrong.push(`${routeKey(route)} with ${field} as ${role}: changed ${changedTables(before, after)}`);
        }
      }
    }
    expect(wrong).toEqual([]);
    // The same request without the field is the clerk's to make.
    const sample = await SAMPLES['POST /api/v1/cell_controls/assign']!();
    const res = await sendAs(ctx.app, await sessionCookie(ctx.database, accounts.records), 'POST', apiPath('/cell_controls/assign'), sample.body);
    expect(res.statusCode, res.body).toBe(200);
  }, 60_000);

  it('a flood of refusals writes one audit entry per account and route per minute', async () => {
    forgetAuditedRefusals();
    const cookie = await sessionCookie(ctx.database, accounts.auditor);
    const target = 'POST /api/v1/messages';
    const before = await refusalEntries(accounts.auditor.id, target);
    for (let i = 0; i < 30; i++) {
      const res = await sendAs(ctx.app, cookie, 'POST', apiPath('/messages'), { body: 'Let me in' });
      expect(res.statusCode).toBe(403);
    }
    expect((await refusalEntries(accounts.auditor.id, target)) - before).toBe(1);
  });
});

describe('a route without a declaration', () => {
  it('refuses every role, the administrator included, and its handler never runs', async () => {
    // An app of its own, with one route that declares nothing (added before the app is ready).
    const { buildApp } = await import('../src/app');
    const { testConfig } = await import('./test-app');
    const app = await buildApp({ config: testConfig(), database: ctx.database, logger: false });
    app.post(UNDECLARED_ROUTE, async () => {
      undeclaredReached++;
      return { reached: true };
    });
    await app.ready();
    try {
      const route = app.registeredRoutes.find((r) => r.url === UNDECLARED_ROUTE)!;
      expect(route.access).toBeUndefined();
      for (const role of ROLES) {
        expect(expectedFor(route, role)).toEqual({ allowed: false, message: UNDECLARED_ACCESS_MESSAGE });
        const res = await sendAs(app, await sessionCookie(ctx.database, accounts[role]), 'POST', UNDECLARED_ROUTE, {});
        expect(res.statusCode, role).toBe(403);
        expect(res.json().message).toBe(UNDECLARED_ACCESS_MESSAGE);
      }
      expect(undeclaredReached).toBe(0);
    } finally {
      await app.close();
    }
  });
});

// ----- the socket events ----------------------------------------------------------------------------------------
describe('socket events from browsers', () => {
  let baseUrl: string;
  const sockets: Socket[] = [];
  beforeAll(async () => {
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    baseUrl = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
  });
  afterAll(() => {
    for (const socket of sockets) socket.disconnect();
  });

  /** A browser socket of the role's fresh session; resolves once connected (or with the refusal's message). */
  async function browser(role: Role): Promise<{ socket: Socket; refused: string | null }> {
    const cookie = await sessionCookie(ctx.database, accounts[role]);
    const socket = connect(baseUrl, { extraHeaders: { cookie }, transports: ['websocket'], reconnection: false, forceNew: true });
    sockets.push(socket);
    return new Promise((resolve) => {
      socket.once('connect', () => resolve({ socket, refused: null }));
      socket.once('connect_error', (error) => resolve({ socket, refused: error.message }));
    });
  }

  /** What the server answers to an event within a second: the handler's answer, a refusal, or nothing. */
  function answerTo(socket: Socket, event: BrowserEvent): Promise<string> {
    const answers: Record<BrowserEvent, string> = { requestSnapshot: 'locationUpdate' };
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve('nothing'), 1_000);
      socket.once(answers[event], () => {
        clearTimeout(timer);
        resolve('answered');
      });
      socket.once('accessRefused', (refusal: { event: string; message: string }) => {
        clearTimeout(timer);
        resolve(`refused: ${refusal.message}`);
      });
      socket.emit(event);
    });
  }

  it('every role x every declared event is answered as the declaration says', async () => {
    const wrong: string[] = [];
    for (const role of ROLES) {
      const { socket, refused } = await browser(role);
      const mayConnect = roleMay(role, BROWSER_CONNECTION_ACCESS);
      if (!mayConnect) {
        if (refused !== forbiddenMessage(role, BROWSER_CONNECTION_ACCESS)) wrong.push(`${role} connect: ${refused}`);
        continue;
      }
      if (refused) {
        wrong.push(`${role} connect refused: ${refused}`);
        continue;
      }
      // The snapshot on connect arrives first; the events' answers are read after it.
      await new Promise((resolve) => setTimeout(resolve, 100));
      for (const [event, action] of Object.entries(BROWSER_EVENT_ACCESS) as [BrowserEvent, typeof BROWSER_CONNECTION_ACCESS][]) {
        const expected = roleMay(role, action) ? 'answered' : `refused: ${forbiddenMessage(role, action)}`;
        const got = await answerTo(socket, event);
        if (got !== expected) wrong.push(`${role} ${event}: ${got} (expected ${expected})`);
      }
      socket.disconnect();
    }
    expect(wrong).toEqual([]);
  }, 60_000);

  it('a role without the event\'s action is refused it, told why and audited, while its socket stays; the same for connecting', async () => {
    // Every role may read the live feed today. To prove the check reads the table, the auditor loses live.read for
    // this test only, and gets it back after.
    const liveRead = ACTION_ROLES['live.read'] as unknown as Role[];
    const { socket, refused } = await browser('auditor');
    expect(refused).toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 100));
    forgetAuditedRefusals();
    const index = liveRead.indexOf('auditor');
    liveRead.splice(index, 1);
    try {
      expect(await answerTo(socket, 'requestSnapshot')).toBe(`refused: ${forbiddenMessage('auditor', 'live.read')}`);
      expect(await refusalEntries(accounts.auditor.id, 'socket requestSnapshot')).toBe(1);
      expect(socket.connected).toBe(true);
      const again = await browser('auditor');
      expect(again.refused).toBe(forbiddenMessage('auditor', 'live.read'));
      expect(await refusalEntries(accounts.auditor.id, 'socket connect')).toBe(1);
    } finally {
      liveRead.splice(index, 0, 'auditor');
    }
    expect(await answerTo(socket, 'requestSnapshot')).toBe('answered');
  }, 30_000);
});
