// Every registered /api/v1 route, driven with generated bad input (findings 7 and 8; decision 010):
// never a 5xx, and after a 4xx the database is as it was. Like route-auth.test.ts it enumerates the routes from the
// app itself, and it reads each route's query and body fields from the OpenAPI document built from the route's zod
// schemas, so a route or field added later is fuzzed without editing this file.
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PREFIX } from '@prison/shared';
import { startTestApp, type TestContext } from './test-app';
import { availableEngines, type Engine } from './test-db';

/**
 * Generated requests per route. PGlite (single-threaded, in this process) is the slower engine here: about 10 ms a
 * request with its fingerprint against 3 ms on PostgreSQL, so PostgreSQL gets more runs within the ~60 s budget.
 */
const RUNS: Record<Engine, number> = { pglite: 30, postgres: 45 };

// A new seed each run explores new inputs; FUZZ_SEED=<seed from the summary line> replays a run.
const SEED = Number(process.env.FUZZ_SEED) || Date.now() % 2 ** 31;

// Ending the test's own session would turn every later request into a 401 and prove nothing.
const SKIPPED = new Set([`POST ${API_PREFIX}/admin/logout`]);

// ----- bad values ------------------------------------------------------------------------------------------------
const BAD_TEXTS = [
  '\u0000',
  'Ada\u0000Lovelace',
  '\u0007\u001b[31m',
  '\u0085\u009f',
  '\u200B\u200C\u200D',
  '\u202Eevil\u202C',
  '\u2066\u2069',
  '\uFEFF',
  '\uD800',
  'a\uDC00b',
  'x'.repeat(10_000),
  '',
  ' ',
  '0x33',
  '0b101',
  '0o17',
  '1e5',
  'Infinity',
  'NaN',
  '-1',
  '0',
  '3000000000',
  '2147483648',
  '-2147483649',
  '99999999999999999999999',
  '3.5e38',
  '1e300',
  '0000-01-01',
  '2026-02-30',
  '9999-12-31',
  '1970-01-01',
  '0000-01-01T00:00:00Z',
  '9999-12-31T23:59:59Z',
  '2026-02-30T10:00:00Z',
  '9999-12-31 23:59:59',
  '1970-01-01 00:00:00',
  '2026-02-30 10:00:00',
  "'; drop table prisoners; --",
  '%',
  '%00',
  '../../etc/passwd',
  '{"$ne":null}',
];
const BAD_NUMBERS = [
  3.5e38,
  -3.5e38,
  1e300,
  -1e300,
  1e-300,
  3e7,
  -1,
  0,
  0.5,
  3_000_000_000,
  2_147_483_648,
  -2_147_483_649,
  Number.MAX_SAFE_INTEGER,
  361,
  -0,
];

const deepArray = (depth: number): unknown => (depth === 0 ? [] : [deepArray(depth - 1)]);

const badText = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...BAD_TEXTS) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 12 }) },
  { weight: 1, arbitrary: fc.string({ maxLength: 300 }) },
);
const badValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 6, arbitrary: badText },
  { weight: 4, arbitrary: fc.constantFrom(...BAD_NUMBERS) },
  { weight: 1, arbitrary: fc.double() },
  { weight: 1, arbitrary: fc.integer() },
  { weight: 1, arbitrary: fc.constantFrom(null, true, false, [], {}, [1, 2], { nested: { deeper: '\u0000' } }) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      deepArray(500),
      Array.from({ length: 1001 }, (_, i) => [51.5 + i * 1e-5, -0.12]),
    ),
  },
  { weight: 1, arbitrary: fc.array(badText, { maxLength: 3 }) },
);

// ----- the pieces of a request -----------------------------------------------------------------------------------
interface Seeded {
  prisonerId: number;
  otherPrisonerId: number;
  staffId: number;
  cellId: string;
  geofenceId: string;
  deviceId: string;
  deviceSecret: string;
  alertId: number;
  otherAdminId: number;
}

/** A value that passes its field's rules, so a request can get past the other fields to the one that is bad. */
function validExamples(s: Seeded): Record<string, unknown> {
  const now = new Date();
  const today = now.toISOString().slice(0, 10);
  const hourAgo = new Date(now.getTime() - 3_600_000).toISOString();
  return {
    // records
    first_name: 'Ada',
    last_name: 'Lovelace',
    date_of_birth: '1980-05-01',
    gender: 'Female',
    national_id: 'France',
    entry_date: '2020-01-01',
    release_date: '2030-01-01',
    status: 'Incarcerated',
    cell_id: s.cellId,
    behavior_record: 'Calm',
    medical_history: 'None',
    role: 'Guard',
    badge_number: '4242',
    rank: 'Security',
    department: 'Patrol',
    contact_info: 'ext 12',
    block: 'A',
    capacity: 4,
    security_level: 'Low',
    prisoner_id: s.prisonerId,
    // cell rules and keep-apart pairs (decision 031)
    override_reason: 'Reviewed by the governor',
    prisoner_a: s.prisonerId,
    prisoner_b: s.otherPrisonerId,
    reason: 'Threat',
    scope: 'block',
    comment: 'Seen arguing',
    active: 'true',
    // escorts (decision 035); staff_id is left out, or every device body would name both wearers
    max_distance_m: 50,
    until: new Date(Date.now() + 3_600_000).toISOString(),
    prisonerName: 'Ada Lovelace',
    guardName: 'Joe Guard',
    date: today,
    time: '10:00',
    description: 'Argument in the yard',
    actionTaken: 'Separated',
    // geofences
    geofence_id: `fz-${randomUUID().slice(0, 8)}`,
    name: 'Yard',
    shape: 'Circle',
    type: 'Negative',
    alert_type: 'Warning',
    radius: 50,
    center_lat: 51.5,
    center_lng: -0.12,
    coordinates: [
      [51.5, -0.12],
      [51.501, -0.12],
      [51.501, -0.121],
    ],
    dwell_seconds: 0,
    buffer_meters: 0,
    // alerts, devices, messages
    device_id: s.deviceId,
    details: 'Manual alert',
    timestamp: now.toISOString().slice(0, 19).replace('T', ' '),
    note: 'seen',
    ids: [s.alertId],
    action: 'acknowledge',
    id: s.deviceId,
    secret: s.deviceSecret,
    body: 'Shift change',
    // profile and admins (never the test admin's real password: its session must live on)
    current_password: 'not the password',
    new_password: 'another long passphrase 42',
    username: 'fuzzed',
    password: 'not the password either',
    // query strings
    page: '1',
    limit: '10',
    q: 'Ada',
    firstName: 'Ada',
    lastName: 'Lovelace',
    badgeNumber: '4242',
    from: hourAgo,
    to: now.toISOString(),
    format: 'csv',
    max_points: '100',
    before: '5',
    days: '7',
    entity: 'prisoner',
    entity_id: String(s.prisonerId),
    actor: 'warden',
    // OsmAnd
    deviceid: s.deviceId,
    lat: '51.5',
    lon: '-0.12',
    location: '51.5,-0.12',
    speed: '1',
    bearing: '90',
    altitude: '10',
    accuracy: '5',
    batt: '80',
    positions: [{ device_id: s.deviceId, secret: s.deviceSecret, latitude: 51.5, longitude: -0.12 }],
  };
}

function pathExample(url: string, param: string, s: Seeded): string {
  if (param === 'role') return 'Guard';
  if (param === 'cell_id') return s.cellId;
  if (url.includes('/prisoner/')) return String(s.otherPrisonerId);
  if (url.includes('/staff/')) return String(s.staffId);
  if (url.includes('/alert/')) return String(s.alertId);
  if (url.includes('/admins/')) return String(s.otherAdminId);
  if (url.includes('/devices/')) return s.deviceId;
  if (url.includes('/geofence/')) return s.geofenceId;
  if (url.includes('/sessions/')) return randomUUID();
  return '1';
}

/** Percent-encodes text for a URL; a lone surrogate (which encodeURIComponent refuses) goes as invalid UTF-8. */
function encode(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    return '%ED%A0%80';
  }
}
const asText = (value: unknown) => (typeof value === 'string' ? value : (JSON.stringify(value) ?? ''));

interface RouteFields {
  query: string[];
  body: string[] | null;
}

/** Property names of a JSON schema, through anyOf/oneOf/allOf (a discriminated union's variants). */
function propertyNames(schema: unknown): string[] {
  if (!schema || typeof schema !== 'object') return [];
  const s = schema as { properties?: object; anyOf?: unknown[]; oneOf?: unknown[]; allOf?: unknown[] };
  const own = s.properties ? Object.keys(s.properties) : [];
  const nested = [...(s.anyOf ?? []), ...(s.oneOf ?? []), ...(s.allOf ?? [])].flatMap(propertyNames);
  return [...new Set([...own, ...nested])];
}

type OpenApi = {
  paths: Record<
    string,
    Record<
      string,
      {
        parameters?: { in: string; name: string }[];
        requestBody?: { content?: Record<string, { schema?: unknown }> };
      }
    >
  >;
};

function routeFields(doc: OpenApi, method: string, url: string): RouteFields {
  const operation = doc.paths[url.replace(/:(\w+)/g, '{$1}')]?.[method.toLowerCase()];
  const query = (operation?.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name);
  const bodySchema = operation?.requestBody?.content?.['application/json']?.schema;
  return { query, body: bodySchema ? propertyNames(bodySchema) : null };
}

/** One request: each path parameter, query field and body field is either valid or bad, at least one bad. */
function requestArbitrary(method: string, url: string, fields: RouteFields, s: Seeded) {
  const examples = validExamples(s);
  const params = [...url.matchAll(/:(\w+)/g)].map((m) => m[1]!);
  const knownBodyFields = fields.body ?? [];
  const extra = ['unexpected', 'id', 'prisoner_id', 'name', '__proto__'];
  const pick = (name: string, example: unknown) =>
    example === undefined
      ? badValue
      : fc.oneof({ weight: 1, arbitrary: fc.constant(example) }, { weight: 1, arbitrary: badValue });
  const pathArb = fc.tuple(...params.map((p) => pick(p, pathExample(url, p, s)).map(asText)));
  const queryArb = fc.array(
    fc
      .tuple(fc.constantFrom(...fields.query, ...extra), fc.boolean())
      .chain(([name, repeated]) =>
        fc.tuple(fc.constant(name), pick(name, examples[name]).map(asText), repeated ? badText : fc.constant(null)),
      ),
    { maxLength: Math.max(3, fields.query.length + 1) },
  );
  const objectBody = fc
    .tuple(
      fc.subarray(knownBodyFields, { minLength: Math.min(1, knownBodyFields.length) }),
      fc.array(fc.constantFrom(...extra), { maxLength: 1 }),
    )
    .chain(([names, more]) =>
      fc.tuple(...[...names, ...more].map((name) => fc.tuple(fc.constant(name), pick(name, examples[name])))),
    )
    .map((entries) => Object.fromEntries(entries));
  const bodyArb: fc.Arbitrary<unknown> =
    method === 'GET'
      ? fc.constant(undefined)
      : fc.oneof(
          { weight: 8, arbitrary: objectBody },
          { weight: 1, arbitrary: badValue },
          {
            weight: 1,
            arbitrary: fc.constantFrom('{"unterminated": ', '\u0000', 'null', '[]').map((raw) => ({ raw })),
          },
        );
  return fc.record({ path: pathArb, query: queryArb, body: bodyArb });
}

// ----- the database fingerprint ----------------------------------------------------------------------------------
// What a refused request may still write, by design:
// - login_throttle: a refused login counts towards the lockout;
// - audit_log rows of login.*: a refused login is audited;
// - sessions: only id and revocation are compared; the auth hook touches activity times on every request;
// - the welfare schedule's own writes: the leader's watcher enrols prisoners and raises overdue checks every few
//   seconds, whatever the request did (observation_levels rows it made and never checked, observation alerts).
async function fingerprintQuery(ctx: TestContext): Promise<string> {
  const tables = await ctx.database.db.execute<{ table_name: string }>(
    sql`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by 1`,
  );
  const rows =
    (tables as unknown as { rows: { table_name: string }[] }).rows ?? (tables as unknown as { table_name: string }[]);
  const parts = rows
    .map((r) => r.table_name)
    // The audit chain's head moves with every entry, the login's included: audit_log's rows stand for it.
    .filter((t) => t !== 'login_throttle' && t !== 'audit_chain')
    .map((t) => {
      const source =
        t === 'sessions'
          ? `(select id, revoked_at from sessions)`
          : t === 'audit_log'
            ? `(select * from audit_log where action not like 'login%')`
            : t === 'observation_levels'
              ? `(select * from observation_levels where set_by <> 'welfare schedule' or last_check_id is not null)`
              : t === 'alerts'
                ? `(select * from alerts where kind is distinct from 'observation')`
                : `"${t}"`;
      return `select '${t}' as t, md5(coalesce(string_agg(r::text, ',' order by r::text), '')) as h from ${source} r`;
    });
  return parts.join(' union all ');
}

async function fingerprint(ctx: TestContext, query: string): Promise<string> {
  const result = await ctx.database.db.execute<{ t: string; h: string }>(sql.raw(query));
  const rows =
    (result as unknown as { rows?: { t: string; h: string }[] }).rows ??
    (result as unknown as { t: string; h: string }[]);
  return rows.map((r) => `${r.t}:${r.h}`).join(' ');
}

/** The tables whose fingerprint differs. */
function diff(before: string, after: string): string {
  const old = new Set(before.split(' '));
  return after
    .split(' ')
    .filter((part) => !old.has(part))
    .map((part) => part.split(':')[0])
    .join(', ');
}

// ----- seeding ---------------------------------------------------------------------------------------------------
async function seed(ctx: TestContext): Promise<Seeded> {
  const ok = async (method: string, url: string, payload?: unknown) => {
    const res = await ctx.api(method, url, payload);
    if (res.statusCode >= 300) throw new Error(`seed ${method} ${url}: ${res.statusCode} ${res.body}`);
    return res.json();
  };
  await ok('POST', '/cell_controls/cells', { cell_id: 'FZ-1', block: 'A', capacity: 5, security_level: 'Low' });
  const prisoner = await ok('POST', '/prisoner/add', {
    first_name: 'Ada',
    last_name: 'Lovelace',
    date_of_birth: '1980-05-01',
    cell_id: 'FZ-1',
    status: 'Incarcerated',
  });
  const other = await ok('POST', '/prisoner/add', {
    first_name: 'Grace',
    last_name: 'Hopper',
    date_of_birth: '1976-12-09',
    status: 'Released',
  });
  const staff = await ok('POST', '/staff/add', {
    first_name: 'Joe',
    last_name: 'Guard',
    role: 'Guard',
    badge_number: '100',
  });
  await ok('POST', '/incident/add', {
    prisonerName: 'Ada Lovelace',
    guardName: 'Joe Guard',
    date: '2025-01-01',
    time: '10:00',
    description: 'Shouting',
    actionTaken: 'Talked',
  });
  await ok('POST', '/geofence/add', {
    geofence_id: 'fz-yard',
    name: 'Yard',
    shape: 'Circle',
    type: 'Negative',
    radius: 30,
    center_lat: 10,
    center_lng: 10,
  });
  const device = await ok('POST', '/devices', { name: 'Tag', kind: 'phone', prisoner_id: prisoner.prisoner_id });
  const alert = await ok('POST', '/alert/all', { alert_type: 'Warning', details: 'Seeded' });
  await ok('POST', '/messages', { body: 'Seeded' });
  await ok('POST', '/keep-apart', { prisoner_a: prisoner.prisoner_id, prisoner_b: other.prisoner_id, reason: 'Threat', scope: 'cell' });
  const admin = await ok('POST', '/admins', {
    username: 'second',
    name: 'Second',
    password: 'a long enough passphrase 7',
  });
  return {
    prisonerId: prisoner.prisoner_id,
    otherPrisonerId: other.prisoner_id,
    staffId: staff.staff_id,
    cellId: 'FZ-1',
    geofenceId: 'fz-yard',
    deviceId: device.id,
    deviceSecret: device.secret,
    alertId: alert.id,
    otherAdminId: admin.id,
  };
}

// ----- the test --------------------------------------------------------------------------------------------------
for (const engine of availableEngines()) {
  describe(`route fuzz [${engine}]`, () => {
    let ctx: TestContext;
    let seeded: Seeded;
    beforeAll(async () => {
      // High limits: the login rate limit would otherwise answer 429 before the schema is reached.
      ctx = await startTestApp(engine, { LOGIN_RATE_LIMIT_PER_MINUTE: 1_000_000, DEVICE_OFFLINE_SECONDS: 86_400 });
      seeded = await seed(ctx);
    }, 60_000);
    afterAll(async () => {
      await ctx?.app.close();
      await ctx?.database.close();
    });

    it('no generated request gets a 5xx, and none refused with a 4xx changes the database', async () => {
      const { app } = ctx;
      const doc = app.swagger() as unknown as OpenApi;
      const routes = app.registeredRoutes.filter(
        (r) => r.url.startsWith(`${API_PREFIX}/`) && !SKIPPED.has(`${r.method} ${r.url}`),
      );
      expect(routes.length).toBeGreaterThan(40);
      const query = await fingerprintQuery(ctx);
      let before = await fingerprint(ctx, query);
      let sent = 0;
      const fiveHundreds: string[] = [];
      const changedByRefusal: string[] = [];
      const statuses = new Map<number, number>();

      for (const [index, route] of routes.entries()) {
        const fields = routeFields(doc, route.method, route.url);
        await fc.assert(
          fc.asyncProperty(
            requestArbitrary(route.method, route.url, fields, seeded),
            async ({ path, query: pairs, body }) => {
              let i = 0;
              const url =
                route.url.replace(/:(\w+)/g, () => encode(path[i++] ?? '')) +
                (pairs.length
                  ? `?${pairs.flatMap(([k, v, again]) => [`${encode(k)}=${encode(v)}`, ...(again === null ? [] : [`${encode(k)}=${encode(again)}`])]).join('&')}`
                  : '');
              const raw =
                body && typeof body === 'object' && 'raw' in body ? String((body as { raw: string }).raw) : undefined;
              const res = await app.inject({
                method: route.method as 'GET',
                url,
                headers: { cookie: ctx.cookie, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
                ...(body === undefined ? {} : { payload: raw ?? JSON.stringify(body) ?? 'null' }),
              });
              sent++;
              statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
              const what = `${route.method} ${url.slice(0, 300)} ${raw ?? JSON.stringify(body)?.slice(0, 300)} -> ${res.statusCode} ${res.body.slice(0, 200)}`;
              // Collected rather than thrown, so one run lists every failure (not just the first).
              if (res.statusCode >= 500) fiveHundreds.push(what);
              if (!route.public) expect(res.statusCode, `the test's session ended: ${what}`).not.toBe(401);
              const after = await fingerprint(ctx, query);
              if (res.statusCode >= 400 && after !== before) changedByRefusal.push(`${what}\n  ${diff(before, after)}`);
              before = after;
            },
          ),
          { numRuns: RUNS[engine], seed: SEED + index },
        );
      }
      const codes = [...statuses]
        .sort(([a], [b]) => a - b)
        .map(([code, n]) => `${code}x${n}`)
        .join(' ');
      console.log(
        `route fuzz [${engine}]: ${routes.length} routes, ${sent} requests, ${fiveHundreds.length} 5xx (${codes}), seed ${SEED}`,
      );
      expect(fiveHundreds).toEqual([]);
      expect(changedByRefusal).toEqual([]);
    }, 240_000);
  });
}
