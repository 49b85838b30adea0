// Concrete bad inputs: each answers 400 naming the field and stores nothing
// (decision 010). The route fuzz test (route-fuzz.test.ts) covers the same classes on every route.
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { alerts, geofences, incidents, prisoners, staff } from '../src/db/schema';
import { registerErrorHandler } from '../src/plugins/error-handler';
import { useTestApp } from './test-app';
import { describeEachEngine } from './test-db';

const utcTimestamp = (ms: number) => new Date(ms).toISOString().slice(0, 19).replace('T', ' ');

describeEachEngine('input bounds (issue 9, findings 7 and 8)', (engine) => {
  const ctx = useTestApp(engine);
  /** A valid new prisoner (the required fields, decision 023), so a request gets past them to the field under test. */
  const ada = { first_name: 'Ada', last_name: 'Lovelace', date_of_birth: '1980-01-01', status: 'Incarcerated' };
  const count = async (table: typeof prisoners | typeof staff | typeof incidents | typeof alerts | typeof geofences) =>
    (await ctx().database.db.select().from(table)).length;

  /** Sends the request, expects 400 with a message starting with `field:`, and that `table` did not grow. */
  async function refused(
    method: string,
    url: string,
    body: unknown,
    field: string,
    table: Parameters<typeof count>[0] = prisoners,
  ) {
    const before = await count(table);
    const res = await ctx().api(method, url, body);
    expect(res.statusCode, `${method} ${url} ${JSON.stringify(body)}: ${res.body}`).toBe(400);
    expect(res.json<{ message: string }>().message).toMatch(new RegExp(`^${field}: `));
    expect(await count(table)).toBe(before);
    return res.json<{ message: string }>().message;
  }

  it('a NUL byte in a name or a query answers 400 naming the field, not 500', async () => {
    expect(
      await refused('POST', '/prisoner/add', { ...ada, first_name: 'Ada\u0000' }, 'first_name'),
    ).toBe('first_name: must not contain control characters');
    await refused(
      'POST',
      '/staff/add',
      { first_name: 'Joe', last_name: '\u0000', role: 'Guard', badge_number: '1' },
      'last_name',
      staff,
    );
    for (const url of [
      '/prisoner/all?q=%00',
      '/staff/getbyRole/Guard?q=a%00b',
      '/audit?actor=%00',
      '/cell_controls/block?block=%00',
    ]) {
      const res = await ctx().api('GET', url);
      expect(res.statusCode, `${url}: ${res.body}`).toBe(400);
      expect(res.json().message).toMatch(/^(q|actor|block): must not contain control characters/);
    }
    const cell = await ctx().api('GET', '/cell_controls/addOccupant/C%00');
    expect(cell.statusCode, cell.body).toBe(400);
    expect(cell.json().message).toBe('cell_id: must not contain control characters');
  });

  it('integers past the 32-bit column range answer 400: prisoner_id, before, ids of 3,000,000,000', async () => {
    for (const [url, field] of [
      ['/alert/prisoneralerts?prisoner_id=3000000000', 'prisoner_id'],
      ['/location/history?prisoner_id=3000000000&from=2026-01-01T00:00:00Z&to=2026-01-02T00:00:00Z', 'prisoner_id'],
      ['/messages?before=3000000000', 'before'],
      ['/prisoner/prisonerid/3000000000', 'id'],
      ['/staff/3000000000', 'id'],
    ] as const) {
      const res = await ctx().api('GET', url);
      expect(res.statusCode, `${url}: ${res.body}`).toBe(400);
      expect(res.json().message).toBe(`${field}: must be at most 2147483647`);
    }
    for (const url of ['/alert/3000000000/acknowledge', '/admins/3000000000/disable']) {
      const res = await ctx().api('POST', url, {});
      expect(res.statusCode, `${url}: ${res.body}`).toBe(400);
      expect(res.json().message).toMatch(/^id: /);
    }
    await refused('POST', '/cell_controls/assign', { prisoner_id: 3_000_000_000, cell_id: 'X' }, 'prisoner_id');
  });

  it('numbers in a query are plain decimal: 0x10, 1e1, Infinity and empty are refused', async () => {
    for (const limit of ['0x10', '1e1', 'Infinity', ' ', '1.5']) {
      const res = await ctx().api('GET', `/alert/recent?limit=${encodeURIComponent(limit)}`);
      expect(res.statusCode, `limit=${limit}: ${res.body}`).toBe(400);
      expect(res.json().message).toMatch(/^limit: /);
    }
  });

  it('dates are real and between 1900 and 2100: year 0000 and 2026-02-30 are refused', async () => {
    await refused('POST', '/prisoner/add', { ...ada, date_of_birth: '0000-01-01' }, 'date_of_birth');
    await refused('POST', '/prisoner/add', { ...ada, entry_date: '2026-02-30' }, 'entry_date');
    await refused('POST', '/prisoner/add', { ...ada, release_date: '9999-12-31' }, 'release_date');
    for (const url of [
      '/audit?from=0000-01-01T00:00:00Z',
      '/alert/prisoneralerts?to=9999-12-31T00:00:00Z',
      '/location/history?prisoner_id=1&from=0000-01-01T00:00:00Z&to=0000-01-02T00:00:00Z',
    ]) {
      const res = await ctx().api('GET', url);
      expect(res.statusCode, `${url}: ${res.body}`).toBe(400);
      expect(res.json().message).toMatch(/^(from|to): must be between 1900 and 2100/);
    }
  });

  it('birth and incident dates may not be in the future', async () => {
    const nextYear = `${new Date().getUTCFullYear() + 1}-01-01`;
    await refused('POST', '/prisoner/add', { ...ada, date_of_birth: nextYear }, 'date_of_birth');
    const incident = {
      prisonerName: 'Ada',
      guardName: 'Joe',
      date: nextYear,
      time: '10:00',
      description: 'x',
      actionTaken: 'y',
    };
    expect(await refused('POST', '/incident/add', incident, 'date', incidents)).toBe('date: must not be in the future');
  });

  it('alert timestamps must be real and within a day of now: 9999-12-31, 1970 and 2026-02-30 are refused', async () => {
    const alert = (timestamp: string) => ({ alert_type: 'Warning', details: 'x', timestamp });
    expect(await refused('POST', '/alert/all', alert('9999-12-31 23:59:59'), 'timestamp', alerts)).toBe(
      'timestamp: must be within a day of now',
    );
    await refused('POST', '/alert/all', alert('1970-01-01 00:00:00'), 'timestamp', alerts);
    await refused('POST', '/alert/all', alert('1970-01-01T00:00:00Z'), 'timestamp', alerts);
    // Before: stored as 2026-03-02 10:00:00, as `new Date` rolls the day over.
    expect(await refused('POST', '/alert/all', alert('2026-02-30 10:00:00'), 'timestamp', alerts)).toBe(
      'timestamp: must be a real timestamp as YYYY-MM-DD HH:MM:SS',
    );
    await refused(
      'POST',
      '/alert/all',
      alert(`${utcTimestamp(Date.now()).slice(0, 10)} 24:00:00`),
      'timestamp',
      alerts,
    );
    await refused('POST', '/alert/all', { alert_type: 'Warning', details: 'x', date: '1970-01-01' }, 'date', alerts);
    // An hour ago is fine.
    const res = await ctx().api('POST', '/alert/all', alert(utcTimestamp(Date.now() - 3_600_000)));
    expect(res.statusCode, res.body).toBe(201);
  });

  it('names of control, zero-width, bidi-override or lone-surrogate characters are refused; names are stored in NFC', async () => {
    for (const name of [
      '\u0007\u0008',
      '\u200B\u200C\u200D',
      'Ada\u200BLovelace',
      '\u202Eecila\u202C',
      '\u2066x\u2069',
      '\uFEFF\uFEFFa\u2060',
      '\uD800',
      'Ad\uDC00a',
      '\u0085',
      '...',
      '\u0301',
    ]) {
      await refused('POST', '/prisoner/add', { ...ada, first_name: name }, 'first_name');
    }
    await refused(
      'POST',
      '/staff/add',
      { first_name: 'Joe', last_name: '\u202Edrau\u202C', role: 'Guard', badge_number: '7' },
      'last_name',
      staff,
    );
    await refused(
      'POST',
      '/geofence/add',
      {
        geofence_id: 'g-bidi',
        shape: 'Circle',
        name: '\u202EdraY',
        type: 'Negative',
        radius: 10,
        center_lat: 1,
        center_lng: 1,
      },
      'name',
      geofences,
    );
    // Geofence ids are checked like names: `demo-perimeter\u200b` would pass for the perimeter's id.
    for (const geofenceId of ['demo-perimeter\u200b', 'demo\u202Eperimeter', 'demo\u2066x\u2069', 'de\uFEFFmo', 'demo\u00ADx']) {
      await refused(
        'POST',
        '/geofence/add',
        { geofence_id: geofenceId, shape: 'Circle', name: 'Perimeter', type: 'Negative', radius: 10, center_lat: 1, center_lng: 1 },
        'geofence_id',
        geofences,
      );
    }
    // "é" typed as e + combining acute is stored as the one character U+00E9.
    const res = await ctx().api('POST', '/prisoner/add', { ...ada, first_name: 'Ame\u0301lie', last_name: 'Poulain' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().first_name).toBe('Am\u00E9lie');
    // Several lines are fine in free text, control characters are not.
    await refused('POST', '/prisoner/add', { ...ada, behavior_record: 'calm\u0000' }, 'behavior_record');
    const lines = await ctx().api('POST', '/prisoner/add', { ...ada, behavior_record: 'calm\r\n\tquiet' });
    expect(lines.statusCode, lines.body).toBe(200);
  });

  it('geofence radius 1e300, 3e7 and 1e-300 m, and polygons of 1,001 points, are refused', async () => {
    const circle = (radius: number) => ({
      geofence_id: `g-${radius}`,
      shape: 'Circle',
      name: 'Zone',
      type: 'Negative',
      radius,
      center_lat: 51.5,
      center_lng: -0.12,
    });
    for (const radius of [1e300, 3e7, 1e-300, 0.5, 100_001]) {
      expect(await refused('POST', '/geofence/add', circle(radius), 'radius', geofences)).toBe(
        'radius: must be between 1 and 100000 metres',
      );
    }
    // A circle with a valid geometry is stored; changing it to a world-covering one is refused too.
    const stored = await ctx().api('POST', '/geofence/add', circle(100_000));
    expect(stored.statusCode, stored.body).toBe(200);
    const grow = await ctx().api('PUT', '/geofence/update/g-100000', {
      shape: 'Circle',
      radius: 1e300,
      center_lat: 51.5,
      center_lng: -0.12,
    });
    expect(grow.statusCode).toBe(400);
    const [row] = await ctx().database.db.select().from(geofences);
    expect(row!.radius).toBe(100_000);
    // A regular 1,001-gon: no crossing edges, so only the point count refuses it.
    const ring = (n: number) =>
      Array.from({ length: n }, (_, i) => [
        51.5 + 0.01 * Math.sin((2 * Math.PI * i) / n),
        -0.12 + 0.01 * Math.cos((2 * Math.PI * i) / n),
      ]);
    const polygon = (n: number) => ({
      geofence_id: `p-${n}`,
      shape: 'Polygon',
      name: 'Ring',
      type: 'Negative',
      coordinates: ring(n),
    });
    expect(await refused('POST', '/geofence/add', polygon(1001), 'coordinates', geofences)).toBe(
      'coordinates: a polygon has at most 1000 points',
    );
    const thousand = await ctx().api('POST', '/geofence/add', polygon(1000));
    expect(thousand.statusCode, thousand.body).toBe(200);
  });
});

// The small holes (decision 043): each reported example, 400 naming the field, nothing stored.
describeEachEngine('input bounds (issue 20)', (engine) => {
  const ctx = useTestApp(engine);
  const ada = { first_name: 'Ada', last_name: 'Lovelace', date_of_birth: '1980-01-01', status: 'Incarcerated' };
  const day = (offsetDays: number) => new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);

  async function refusedWith(method: string, url: string, body: unknown, message: string | RegExp, table: typeof prisoners | typeof alerts = prisoners) {
    const before = (await ctx().database.db.select().from(table)).length;
    const res = await ctx().api(method, url, body);
    expect(res.statusCode, `${method} ${url} ${JSON.stringify(body)}: ${res.body}`).toBe(400);
    if (typeof message === 'string') expect(res.json().message).toBe(message);
    else expect(res.json().message).toMatch(message);
    expect((await ctx().database.db.select().from(table)).length).toBe(before);
  }

  it('an alert detail or a message with U+202E is refused instead of being shown reversed', async () => {
    await refusedWith('POST', '/alert/all', { alert_type: 'Warning', details: 'Gate \u202Eeno etag' }, 'details: must not contain text-direction override characters', alerts);
    await refusedWith('POST', '/messages', { body: 'Shift \u2067change\u2069' }, 'body: must not contain text-direction override characters');
    await refusedWith('POST', '/prisoner/add', { ...ada, medical_history: 'None \u202Aembedded' }, 'medical_history: must not contain text-direction override characters');
    // Right-to-left text itself, and its marks, are not refused.
    const hebrew = await ctx().api('POST', '/alert/all', { alert_type: 'Warning', details: 'שער ראשי \u200F(A)' });
    expect(hebrew.statusCode, hebrew.body).toBe(201);
  });

  it('ids are checked like names: zero-width and other invisible format characters are refused', async () => {
    const invisible = (field: string) => new RegExp(`^${field}: must not contain (invisible or )?text-direction`);
    for (const id of ['A-1\u200B', 'A\u2060-1', 'A\uFEFF-1', 'A-1\u00AD', 'A-1\u061C', 'A-1\u202E']) {
      await refusedWith('POST', '/alert/all', { alert_type: 'Warning', details: 'x', device_id: id }, invisible('device_id'), alerts);
      await refusedWith('POST', '/prisoner/add', { ...ada, cell_id: id }, invisible('cell_id'));
      const device = await ctx().api('GET', `/devices/${encodeURIComponent(id)}`);
      expect(device.statusCode, device.body).toBe(400);
      expect(device.json().message).toMatch(invisible('id'));
    }
  });

  it('an entry date in the future is refused; today, and tomorrow for a clerk east of Greenwich, are taken', async () => {
    await refusedWith('POST', '/prisoner/add', { ...ada, entry_date: day(3) }, 'entry_date: must not be in the future');
    await refusedWith('POST', '/prisoner/add', { ...ada, entry_date: '2099-01-01' }, 'entry_date: must not be in the future');
    const created = await ctx().api('POST', '/prisoner/add', { ...ada, entry_date: day(0) });
    expect(created.statusCode, created.body).toBe(200);
    const id = created.json().prisoner_id as number;
    await refusedWith('PUT', `/prisoner/update/${id}`, { entry_date: day(30) }, 'entry_date: must not be in the future');
    expect((await ctx().api('GET', `/prisoner/prisonerid/${id}`)).json().data.entry_date).toBe(day(0));
  });

  it('an override reason needs words: ten dots, one long word or digits are not a reason', async () => {
    await ctx().api('POST', '/cell_controls/cells', { cell_id: 'RW-1', block: 'A', capacity: 2, security_level: 'Low' });
    for (const reason of ['..........', 'xxxxxxxxxxxx', '1234567890 42', '- - - - - - -', 'ok\u202E ok ok ok']) {
      const res = await ctx().api('POST', '/prisoner/add', { ...ada, status: 'Released', cell_id: 'RW-1', override_reason: reason });
      expect(res.statusCode, `${JSON.stringify(reason)}: ${res.body}`).toBe(400);
      expect(res.json().message).toMatch(/^override_reason: /);
    }
    const taken = await ctx().api('POST', '/prisoner/add', { ...ada, status: 'Released', cell_id: 'RW-1', override_reason: 'Last cell kept on the record' });
    expect(taken.statusCode, taken.body).toBe(200);
  });
});

describe('error handler: the second line behind the schemas', () => {
  it('a PostgreSQL data exception (class 22) answers 400 with a generic message, not 500', async () => {
    const app = Fastify({ logger: false });
    registerErrorHandler(app);
    for (const code of ['22P05', '22003', '22008', '22021']) {
      app.get(`/${code}`, async () => {
        // As Drizzle wraps the driver's error.
        throw Object.assign(new Error('Failed query'), { cause: Object.assign(new Error('driver'), { code }) });
      });
    }
    app.get('/other', async () => {
      throw Object.assign(new Error('Failed query'), { cause: Object.assign(new Error('driver'), { code: '42P01' }) });
    });
    for (const code of ['22P05', '22003', '22008', '22021']) {
      const res = await app.inject({ method: 'GET', url: `/${code}` });
      expect(res.statusCode, code).toBe(400);
      expect(res.json().message).toMatch(/out of range or holds characters that cannot be stored/);
    }
    expect((await app.inject({ method: 'GET', url: '/other' })).statusCode).toBe(500);
    await app.close();
  });
});
