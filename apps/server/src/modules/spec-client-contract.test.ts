// Every call of docs/CLIENT-CONTRACT.md, made and read exactly as the spec's own client does: `response.data` is the body
// (docs/CLIENT-CONTRACT.md; the table in docs/decisions/017-spec-7-shapes.md names each test here).
import { expect, it } from 'vitest';
import { describeEachEngine } from '../../test/test-db';
import { useTestApp, writeApproved } from '../../test/test-app';
import { insertAlerts } from './alerts/alert-store';

/** What the spec's client does with a point: Leaflet's `L.latLng(point)` throws "Invalid LatLng object" without these. */
const isLeafletPoint = (point: unknown) =>
  typeof point === 'object' &&
  point !== null &&
  !Array.isArray(point) &&
  Number.isFinite((point as { lat?: unknown }).lat) &&
  Number.isFinite((point as { lng?: unknown }).lng);

let counter = 0;
const uniqueId = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${++counter}`;

describeEachEngine("SPEC 7 as the spec's client reads it", (engine) => {
  const ctx = useTestApp(engine);
  /** An axios-like call: `response.data` is the parsed body, `response.status` the code. */
  const call = async (method: string, url: string, body?: unknown) => {
    const res = await ctx().api(method, url, body);
    return { status: res.statusCode, data: res.body ? res.json() : undefined };
  };

  it('POST /admin/login answers token; GET /admin/verify-token answers isAuthenticated and name; logout ends it', async () => {
    const login = await ctx().app.inject({
      method: 'POST',
      url: '/api/v1/admin/login',
      payload: { username: 'warden', password: 'correct horse battery' },
    });
    expect(login.statusCode).toBe(200);
    expect(typeof login.json().token).toBe('string');
    const refused = await ctx().app.inject({
      method: 'POST',
      url: '/api/v1/admin/login',
      payload: { username: 'warden', password: 'wrong' },
    });
    expect(typeof refused.json().message).toBe('string');
    const verify = await call('GET', '/admin/verify-token');
    expect(verify.data).toMatchObject({ isAuthenticated: true, name: 'Test Warden' });
    // POST /admin/logout: its answer is not read; the session of that login ends.
    const bearer = { authorization: `Bearer ${login.json().token as string}` };
    const logout = await ctx().app.inject({ method: 'POST', url: '/api/v1/admin/logout', headers: bearer });
    expect(logout.statusCode).toBe(200);
    const after = await ctx().app.inject({ method: 'GET', url: '/api/v1/admin/verify-token', headers: bearer });
    expect(after.statusCode).toBe(401);
  });

  it('GET /cell_controls/blocks answers data: block names; each name lists its cells with /cell_controls/block', async () => {
    for (const [cell_id, block] of [
      ['SC-B1', 'SpecB'],
      ['SC-A1', 'SpecA'],
      ['SC-A2', 'SpecA'],
    ]) {
      const res = await call('POST', '/cell_controls/cells', { cell_id, block, capacity: 2, security_level: 'Low' });
      expect(res.status).toBe(200);
    }
    const blocks = await call('GET', '/cell_controls/blocks');
    expect(blocks.status).toBe(200);
    const names: unknown[] = blocks.data.data;
    // The client renders `Block {name}` and asks for `block={name}`: an object would read "[object Object]".
    expect(names.every((name) => typeof name === 'string')).toBe(true);
    expect(names).toEqual(expect.arrayContaining(['SpecA', 'SpecB']));
    expect(names.indexOf('SpecA')).toBeLessThan(names.indexOf('SpecB'));
    const cells = await call('GET', `/cell_controls/block?block=${encodeURIComponent('SpecA')}`);
    expect(cells.data.data.map((c: { cell_id: string }) => c.cell_id)).toEqual(['SC-A1', 'SC-A2']);
    // The summaries our own screens use have a route of their own.
    const summaries = await call('GET', '/cell_controls/block-summaries');
    expect(summaries.data.data).toContainEqual({ block: 'SpecA', cells: 2, capacity: 4, occupants: 0 });
  });

  it('prisoner calls: add (200), addOccupant (200), all with and without page, prisonerid, update, delete', async () => {
    await call('POST', '/cell_controls/cells', { cell_id: 'SC-P1', block: 'SpecP', capacity: 3, security_level: 'High' });
    const added = await call('POST', '/prisoner/add', {
      first_name: 'Spec',
      last_name: 'Client',
      date_of_birth: '1990-04-01',
      gender: 'Male',
      national_id: 'Germany',
      entry_date: '2024-01-10',
      status: 'Incarcerated',
      cell_id: 'SC-P1',
    });
    expect(added.status).toBe(200);
    const id = added.data.prisoner_id as number;
    expect((await call('GET', '/cell_controls/addOccupant/SC-P1')).status).toBe(200);

    const page = await call('GET', '/prisoner/all?page=1');
    expect(page.data).toMatchObject({ currentPage: 1, totalPages: expect.any(Number), totalPrisoners: expect.any(Number) });
    expect(page.data.prisoners.some((p: { prisoner_id: number }) => p.prisoner_id === id)).toBe(true);
    expect((await call('GET', '/prisoner/all')).data.totalPrisoners).toBe(page.data.totalPrisoners);

    const one = await call('GET', `/prisoner/prisonerid/${id}`);
    expect(one.data.data).toMatchObject({ prisoner_id: id, first_name: 'Spec', last_name: 'Client' });
    expect(typeof (await call('GET', '/prisoner/prisonerid/999999')).data.message).toBe('string');

    // The full field set as the client holds it (read-only fields included), then a single field.
    const full = await call('PUT', `/prisoner/update/${id}`, { ...one.data.data, last_name: 'Edited' });
    expect(full.status).toBe(200);
    expect((await call('PUT', `/prisoner/update/${id}`, { behavior_record: 'Calm' })).status).toBe(200);
    expect((await call('PUT', `/prisoner/update/${id}`, { medical_history: 'None' })).status).toBe(200);
    expect((await call('GET', `/prisoner/prisonerid/${id}`)).data.data).toMatchObject({
      last_name: 'Edited',
      behavior_record: 'Calm',
      medical_history: 'None',
    });
    // In custody he is not archived (decision 102): released first.
    expect((await call('PUT', `/prisoner/update/${id}`, { status: 'Released' })).status).toBe(200);
    const deleted = await call('DELETE', `/prisoner/delete/${id}`);
    expect(deleted.status).toBe(200);
    expect(typeof deleted.data.message).toBe('string');
  });

  it('staff calls: getbyRole with page, update with the full edited record, delete', async () => {
    const created = await call('POST', '/staff/add', {
      first_name: 'Spec',
      last_name: 'Guard',
      role: 'Guard',
      badge_number: '770017',
      rank: 'Security',
      contact_info: 'guard@example.org',
    });
    expect(created.status).toBe(200);
    const list = await call('GET', '/staff/getbyRole/Guard?page=1');
    expect(list.data).toMatchObject({ currentPage: 1, totalPages: expect.any(Number), totalStaff: expect.any(Number) });
    const record = list.data.staffMembers.find((s: { badge_number: string }) => s.badge_number === '770017');
    expect(record).toBeDefined();
    const updated = await call('PUT', `/staff/update/${record.staff_id}`, { ...record, last_name: 'Edited' });
    expect(updated.status).toBe(200);
    expect((await call('DELETE', `/staff/delete/${record.staff_id}`)).status).toBe(200);
  });

  it('GET /alert/recent answers data: alerts; GET /alert/prisoneralerts answers data: the list, paging beside it', async () => {
    const prisoner = await call('POST', '/prisoner/add', {
      first_name: 'Alert',
      last_name: 'Reader',
      date_of_birth: '1985-02-03',
      status: 'Incarcerated',
    });
    await insertAlerts(ctx().database.db, [
      {
        alertType: 'Critical',
        kind: 'geofence',
        details: 'Left the yard',
        at: new Date(),
        deviceId: null,
        prisonerId: prisoner.data.prisoner_id,
      },
    ]);
    const recent = await call('GET', '/alert/recent');
    expect(recent.data.data[0]).toMatchObject({ alert_type: 'Critical', details: 'Left the yard' });

    const alerts = await call('GET', '/alert/prisoneralerts');
    expect(alerts.status).toBe(200);
    // The client maps `response.data.data`: a list, not an object holding one.
    expect(Array.isArray(alerts.data.data)).toBe(true);
    expect(alerts.data.data[0]).toMatchObject({
      alert_type: 'Critical',
      details: 'Left the yard',
      timestamp: expect.any(String),
      first_name: 'Alert',
      last_name: 'Reader',
    });
    expect(alerts.data).toMatchObject({
      currentPage: 1,
      totalPages: 1,
      totalAlerts: expect.any(Number),
      counts: { Critical: expect.any(Number), Warning: expect.any(Number), Informational: expect.any(Number) },
    });
  });

  it('POST /geofence/add takes polygon and rectangle points as { lat, lng }; GET /geofence/all answers them the same', async () => {
    const polygon = {
      geofence_id: uniqueId('spec-polygon'),
      shape: 'Polygon',
      type: 'Negative',
      alert_type: 'Critical',
      name: 'Spec yard',
      coordinates: [
        { lat: 51.5, lng: -0.12 },
        { lat: 51.502, lng: -0.12 },
        { lat: 51.501, lng: -0.118 },
      ],
    };
    const rectangle = {
      geofence_id: uniqueId('spec-rectangle'),
      shape: 'Rectangle',
      type: 'Positive',
      alert_type: 'Warning',
      name: 'Spec workshop',
      coordinates: [
        { lat: 51.51, lng: -0.13 },
        { lat: 51.511, lng: -0.13 },
        { lat: 51.511, lng: -0.128 },
        { lat: 51.51, lng: -0.128 },
      ],
    };
    const circle = {
      geofence_id: uniqueId('spec-circle'),
      shape: 'Circle',
      type: 'Positive',
      alert_type: 'Informational',
      name: 'Spec chapel',
      radius: 40,
      center_lat: 51.52,
      center_lng: -0.14,
    };
    for (const body of [polygon, rectangle, circle]) {
      const res = await call('POST', '/geofence/add', body);
      expect(res.status, JSON.stringify(res.data)).toBe(200);
    }
    const all = await call('GET', '/geofence/all');
    expect(all.status).toBe(200);
    for (const fence of all.data as { coordinates: unknown[] | null }[]) {
      expect((fence.coordinates ?? []).every(isLeafletPoint)).toBe(true);
    }
    const byId = (id: string) => all.data.find((g: { geofence_id: string }) => g.geofence_id === id);
    expect(byId(polygon.geofence_id)).toMatchObject({ shape: 'Polygon', coordinates: polygon.coordinates });
    expect(byId(rectangle.geofence_id)).toMatchObject({ shape: 'Rectangle', coordinates: rectangle.coordinates });
    expect(byId(circle.geofence_id)).toMatchObject({ radius: 40, center_lat: 51.52, center_lng: -0.14, coordinates: null });
    // The engine reads the stored shape: the middle of the rectangle (a Positive zone) starts a violation once the
    // zone's default dwell (10 s) has passed.
    const device = uniqueId('device');
    const now = Date.now();
    ctx().app.geofenceEngine.evaluate(device, 51.5105, -0.129, new Date(now - 11_000));
    const transitions = ctx().app.geofenceEngine.evaluate(device, 51.5105, -0.129, new Date(now));
    expect(transitions.map((t) => [t.kind, t.geofence.geofence_id])).toContainEqual(['start', rectangle.geofence_id]);
  });

  it('[lat, lng] pairs are still accepted, and answered as { lat, lng }; a bad point is named by its field', async () => {
    const body = {
      geofence_id: uniqueId('pairs'),
      shape: 'Polygon',
      type: 'Negative',
      alert_type: 'Critical',
      name: 'Pairs',
      coordinates: [
        [40, 10],
        [40.002, 10],
        [40.001, 10.002],
      ],
    };
    const added = await call('POST', '/geofence/add', body);
    expect(added.status, JSON.stringify(added.data)).toBe(200);
    expect(added.data.coordinates).toEqual([
      { lat: 40, lng: 10 },
      { lat: 40.002, lng: 10 },
      { lat: 40.001, lng: 10.002 },
    ]);
    // The PUT of decision 009 takes a new shape in either form too.
    // A reshape waits for a second administrator (decision 041).
    const moved = await writeApproved(ctx(), 'PUT', `/geofence/update/${body.geofence_id}`, {
      shape: 'Polygon',
      coordinates: [{ lat: 41, lng: 10 }, [41.002, 10], { lat: 41.001, lng: 10.002 }],
    });
    expect(moved.statusCode, moved.body).toBe(200);
    const list = (await call('GET', '/geofence/all')).data as { geofence_id: string; coordinates: unknown }[];
    expect(list.find((g) => g.geofence_id === body.geofence_id)!.coordinates).toEqual([
      { lat: 41, lng: 10 },
      { lat: 41.002, lng: 10 },
      { lat: 41.001, lng: 10.002 },
    ]);
    const bad = await call('POST', '/geofence/add', {
      ...body,
      geofence_id: uniqueId('bad'),
      coordinates: [{ lat: 40, lng: 10 }, { lat: 95, lng: 10 }, { lat: 40.001, lng: 10.002 }],
    });
    expect(bad.status).toBe(400);
    expect(bad.data.message).toMatch(/^coordinates\.1\.lat: latitude must be between -90 and 90/);
  });

  it('the OpenAPI document shows the new shapes', async () => {
    const res = await ctx().app.inject({ method: 'GET', url: '/api/docs/json', headers: { cookie: ctx().cookie } });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    const answer = (path: string, method = 'get') =>
      doc.paths[`/api/v1${path}`][method].responses['200'].content['application/json'].schema;
    expect(answer('/cell_controls/blocks').properties.data.items).toEqual({ type: 'string' });
    expect(answer('/cell_controls/block-summaries').properties.data.items.properties).toHaveProperty('occupants');
    const alertPage = answer('/alert/prisoneralerts');
    expect(alertPage.properties.data.type).toBe('array');
    expect(alertPage.properties.data.items.properties).toHaveProperty('first_name');
    expect(alertPage.properties).toHaveProperty('totalAlerts');
    const geofence = JSON.stringify(answer('/geofence/all').items.properties.coordinates);
    expect(geofence).toContain('"lat"');
    expect(geofence).toContain('"lng"');
    // Requests show both forms of a point.
    const request = JSON.stringify(doc.paths['/api/v1/geofence/add'].post.requestBody);
    expect(request).toContain('"lat"');
    expect(request).toContain('"minItems":2,"maxItems":2');
  });
});
