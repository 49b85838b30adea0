import { describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { API_PREFIX } from '@prison/shared';
import { alerts, devices, positions } from '../../db/schema';
import { KNOTS_TO_METRES_PER_SECOND, parseFixTime } from '../../tracking/fix';
import { addDevice, addPrisoner, connected, deviceSocket, osmandGet, useListeningApp } from '../../tracking/tracking-test-kit';
import { describeEachEngine } from '../../../test/test-db';

const LAT = 51.5007;
const LNG = -0.1246;

describe('device timestamps', () => {
  it('reads seconds, milliseconds and ISO, and absent as now', () => {
    const now = new Date('2026-01-01T00:00:00Z');
    expect(parseFixTime('1767225600', now).toISOString()).toBe('2026-01-01T00:00:00.000Z');
    expect(parseFixTime(1767225600123, now).toISOString()).toBe('2026-01-01T00:00:00.123Z');
    expect(parseFixTime('2026-01-01T01:00:00+01:00', now).toISOString()).toBe('2026-01-01T00:00:00.000Z');
    expect(parseFixTime(undefined, now)).toBe(now);
    expect(() => parseFixTime('yesterday', now)).toThrow(/timestamp/);
  });
});

describeEachEngine('position ingestion', (engine) => {
  const ctx = useListeningApp(engine);
  const fixesOf = (deviceId: string) => ctx().database.db.select().from(positions).where(eq(positions.deviceId, deviceId)).orderBy(positions.recordedAt);
  const alertsOf = (deviceId: string, kind?: string) =>
    ctx().database.db.select().from(alerts).where(kind ? and(eq(alerts.deviceId, deviceId), eq(alerts.kind, kind)) : eq(alerts.deviceId, deviceId));
  const api = (path: string, init?: RequestInit) => fetch(`${ctx().baseUrl}${API_PREFIX}${path}`, init);

  it('OsmAnd GET on its own port: stores the fix (speed knots -> m/s) before answering 200, and marks the device online', async () => {
    const prisoner = await addPrisoner(ctx());
    const device = await addDevice(ctx(), { prisoner_id: prisoner.id });
    const res = await osmandGet(ctx().osmandUrl, { id: device.id, lat: LAT, lon: LNG, timestamp: 1767225600, speed: 10, bearing: 90, altitude: 12, accuracy: 5, batt: 80 });
    expect(res.status).toBe(200);
    const [fix] = await fixesOf(device.id);
    expect(fix).toMatchObject({ latitude: LAT, longitude: LNG, prisonerId: prisoner.id, bearing: 90, altitude: 12, accuracy: 5, battery: 80 });
    expect(fix!.recordedAt.toISOString()).toBe('2026-01-01T00:00:00.000Z');
    expect(fix!.speed).toBeCloseTo(10 * KNOTS_TO_METRES_PER_SECOND, 3);
    const [row] = await ctx().database.db.select().from(devices).where(eq(devices.id, device.id));
    expect(row).toMatchObject({ online: true, lastLatitude: LAT, lastLongitude: LNG, lastBattery: 80 });
  });

  it('stores every fix time and the device times to the millisecond, times travelling as milliseconds (decision 070)', async () => {
    const device = await addDevice(ctx());
    // Millisecond parts that a float division must not round away, across the years a fix may have.
    // (A number below 10^12 would be read as seconds.)
    const sent = [1_000_000_000_001, 1767225600123, 1767225600999, 1767225601000, 1767225601007, Date.now() - 1];
    for (const t of sent) expect((await osmandGet(ctx().osmandUrl, { id: device.id, lat: LAT, lon: LNG, timestamp: t })).status).toBe(200);
    expect((await fixesOf(device.id)).map((f) => f.recordedAt.getTime())).toEqual(sent);
    const [row] = await ctx().database.db.select().from(devices).where(eq(devices.id, device.id));
    expect(row!.lastFixAt!.getTime()).toBe(sent.at(-1));
    const [last] = (await fixesOf(device.id)).slice(-1);
    expect(row!.lastSeenAt!.getTime()).toBe(last!.receivedAt.getTime());
  });

  it('OsmAnd at /api/v1/ingest/osmand: GET, form POST with location=lat,lon and deviceid, JSON POST', async () => {
    const device = await addDevice(ctx());
    const get = await api(`/ingest/osmand?id=${device.id}&lat=${LAT}&lon=${LNG}&timestamp=2026-01-01T00:00:01Z`);
    expect(get.status).toBe(200);
    const form = await api('/ingest/osmand', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ deviceid: device.id, location: `${LAT + 0.001},${LNG}`, timestamp: '1767225602000' }).toString(),
    });
    expect(form.status).toBe(200);
    const json = await api('/ingest/osmand', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        device_id: device.id,
        location: { timestamp: '2026-01-01T00:00:03Z', coords: { latitude: LAT + 0.002, longitude: LNG, accuracy: 4, speed: 1.5, heading: 45, altitude: 3 }, battery: { level: 0.5, is_charging: false } },
      }),
    });
    expect(json.status).toBe(200);
    const stored = await fixesOf(device.id);
    expect(stored.map((f) => f.latitude)).toEqual([LAT, LAT + 0.001, LAT + 0.002]);
    expect(stored[2]).toMatchObject({ speed: 1.5, bearing: 45, battery: 50 });
  });

  it('the JSON form through the OsmAnd port', async () => {
    const device = await addDevice(ctx());
    const res = await fetch(ctx().osmandUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ device_id: device.id, location: { timestamp: '2026-01-01T00:00:00Z', coords: { latitude: LAT, longitude: LNG } } }),
    });
    expect(res.status).toBe(200);
    expect(await fixesOf(device.id)).toHaveLength(1);
  });

  it('refuses unknown devices (400, 404 for JSON), a wrong secret (401) and bad fixes, storing nothing', async () => {
    const device = await addDevice(ctx());
    const unknown = await osmandGet(ctx().osmandUrl, { id: 'no-such-device', lat: LAT, lon: LNG });
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toMatch(/Unknown device/);
    const unknownJson = await api('/ingest/osmand', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ device_id: 'no-such-device', location: { coords: { latitude: LAT, longitude: LNG } } }),
    });
    expect(unknownJson.status).toBe(404);
    const wrongSecret = await osmandGet(ctx().osmandUrl, { id: device.id, lat: LAT, lon: LNG, secret: 'wrong' });
    expect(wrongSecret.status).toBe(401);
    const rightSecret = await osmandGet(ctx().osmandUrl, { id: device.id, lat: LAT, lon: LNG, key: device.secret, timestamp: 1767225600 });
    expect(rightSecret.status).toBe(200);
    const cases: [Record<string, string | number>, RegExp][] = [
      [{ id: device.id, lat: 91, lon: LNG }, /^latitude/],
      [{ id: device.id, lat: LAT, lon: -180.5 }, /^longitude/],
      [{ id: device.id, lat: 'NaN', lon: LNG }, /^lat/],
      [{ id: device.id, lon: LNG }, /^lat is required/],
      [{ id: device.id, lat: LAT, lon: LNG, timestamp: Math.floor(Date.now() / 1000) + 2 * 86400 }, /^timestamp is \d+ s ahead of the server clock/],
      [{ lat: LAT, lon: LNG }, /^id is required/],
    ];
    for (const [params, message] of cases) {
      const res = await osmandGet(ctx().osmandUrl, params);
      expect(res.status, JSON.stringify(params)).toBe(400);
      expect(res.body.message).toMatch(message);
    }
    expect(await fixesOf(device.id)).toHaveLength(1);
    expect(await fixesOf('no-such-device')).toHaveLength(0);
  });

  it('with DEVICE_SECRET_REQUIRED off, a device marked secret_required still needs its secret (decision 038)', async () => {
    const marked = await addDevice(ctx(), { secret_required: true });
    expect(marked.secret_required).toBe(true);
    const plain = await addDevice(ctx());
    expect(plain.secret_required).toBe(false);
    const at = 1767225600;
    const idOnly = (id: string, timestamp = at) => osmandGet(ctx().osmandUrl, { id, lat: LAT, lon: LNG, timestamp });
    const refused = await idOnly(marked.id);
    expect(refused).toEqual({ status: 401, body: { message: 'Unknown device or wrong secret' } });
    expect(await osmandGet(ctx().osmandUrl, { id: marked.id, secret: 'wrong', lat: LAT, lon: LNG })).toEqual(refused);
    expect((await osmandGet(ctx().osmandUrl, { id: marked.id, secret: marked.secret, lat: LAT, lon: LNG, timestamp: at })).status).toBe(200);
    expect((await idOnly(plain.id)).status).toBe(200); // the id is its credential (decision 006)
    // Marked afterwards through the API (audited), and unmarked again.
    const mark = await ctx().api('PUT', `/devices/${plain.id}/secret-required`, { secret_required: true });
    expect(mark.statusCode).toBe(200);
    expect(mark.json()).toMatchObject({ id: plain.id, secret_required: true });
    expect(await idOnly(plain.id, at + 1)).toEqual(refused);
    expect((await ctx().api('PUT', `/devices/${plain.id}/secret-required`, { secret_required: false })).statusCode).toBe(200);
    expect((await idOnly(plain.id, at + 2)).status).toBe(200);
    const bad = await ctx().api('PUT', `/devices/${plain.id}/secret-required`, { secret_required: 'yes' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/^secret_required/);
    expect((await ctx().api('PUT', '/devices/nope/secret-required', { secret_required: true })).statusCode).toBe(404);
    expect(await fixesOf(marked.id)).toHaveLength(1);
    expect(await fixesOf(plain.id)).toHaveLength(2);
  });

  it('stores a repeated fix once; an older fix goes to history without moving the device', async () => {
    const device = await addDevice(ctx());
    const send = (timestamp: number, lat: number) => osmandGet(ctx().osmandUrl, { id: device.id, lat, lon: LNG, timestamp });
    expect((await send(1767225600, LAT)).status).toBe(200);
    const again = await send(1767225600, LAT);
    expect(again.status).toBe(200);
    expect(again.body.message).toMatch(/Duplicate/);
    expect((await send(1767225700, LAT + 0.01)).status).toBe(200);
    expect((await send(1767225650, LAT + 0.005)).status).toBe(200); // late
    expect(await fixesOf(device.id)).toHaveLength(3);
    const [row] = await ctx().database.db.select().from(devices).where(eq(devices.id, device.id));
    expect(row!.lastLatitude).toBe(LAT + 0.01);
    expect(row!.lastFixAt!.toISOString()).toBe(new Date(1767225700_000).toISOString());
  });

  it('alarm=sos and tamper raise a Critical alert once; low battery a Warning once, re-armed above 20 %', async () => {
    const prisoner = await addPrisoner(ctx(), 'John', 'Sos');
    const device = await addDevice(ctx(), { prisoner_id: prisoner.id });
    const base = 1767225600;
    const send = (i: number, extra: Record<string, string | number>) => osmandGet(ctx().osmandUrl, { id: device.id, lat: LAT, lon: LNG, timestamp: base + i, ...extra });
    await send(0, { alarm: 'sos', batt: 50 });
    await send(0, { alarm: 'sos', batt: 50 }); // repeated: nothing twice
    await send(1, { alarm: 'tamper' });
    let critical = await alertsOf(device.id);
    expect(critical.map((a) => [a.kind, a.alertType, a.details]).sort()).toEqual([
      ['sos', 'Critical', "SOS from John Sos's tracker"],
      ['tamper', 'Critical', "John Sos's tracker reports tampering"],
    ]);
    expect(critical.every((a) => a.prisonerId === prisoner.id)).toBe(true);
    await send(2, { batt: 14 });
    await send(3, { batt: 12 });
    await send(4, { batt: 18 });
    expect(await alertsOf(device.id, 'battery')).toHaveLength(1);
    await send(5, { batt: 25 });
    await send(6, { batt: 10 });
    const battery = await alertsOf(device.id, 'battery');
    expect(battery).toHaveLength(2);
    expect(battery[0]).toMatchObject({ alertType: 'Warning', details: "John Sos's tracker battery is low (14 %)" });
    critical = await alertsOf(device.id);
    expect(critical).toHaveLength(4);
  });

  it('the gateway batch: per-fix results, valid fixes stored, each device authenticated', async () => {
    const a = await addDevice(ctx());
    const b = await addDevice(ctx());
    const res = await api('/ingest/positions', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        positions: [
          { device_id: a.id, secret: a.secret, latitude: LAT, longitude: LNG, timestamp: '2026-01-01T00:00:00Z', speed: 1 },
          { device_id: b.id, secret: b.secret, latitude: LAT, longitude: LNG, timestamp: 1767225600, battery: 90 },
          { device_id: b.id, secret: 'wrong', latitude: LAT, longitude: LNG },
          { device_id: 'nobody', secret: 'x', latitude: LAT, longitude: LNG },
          { device_id: a.id, secret: a.secret, latitude: 100, longitude: LNG },
          { device_id: a.id, secret: a.secret, latitude: LAT, longitude: LNG, timestamp: '2026-01-01T00:00:00Z' },
          'not a fix',
        ],
      }),
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { stored: number; duplicates: number; refused: number; results: { index: number; outcome: string; message?: string }[] };
    expect(body).toMatchObject({ stored: 2, duplicates: 1, refused: 4 });
    expect(body.results.map((r) => r.outcome)).toEqual(['stored', 'stored', 'refused', 'refused', 'refused', 'duplicate', 'refused']);
    // A wrong secret and an unknown id read alike (decision 038).
    expect(body.results[2]!.message).toBe('Unknown device or wrong secret');
    expect(body.results[3]!.message).toBe(body.results[2]!.message);
    expect(body.results[4]!.message).toMatch(/^latitude/);
    expect(await fixesOf(a.id)).toHaveLength(1);
    expect(await fixesOf(b.id)).toHaveLength(1);
    const empty = await api('/ingest/positions', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ positions: [] }) });
    expect(empty.status).toBe(400);
    expect(((await empty.json()) as { message: string }).message).toMatch(/^positions/);
  });

  it('Socket.IO updateLocation with the device secret in the handshake: acknowledged after storage', async () => {
    const device = await addDevice(ctx());
    const socket = deviceSocket(ctx().baseUrl, { deviceId: device.id, secret: device.secret });
    try {
      await connected(socket);
      const send = (payload: unknown) =>
        new Promise<{ ok: boolean; message?: string }>((resolve) => socket.emit('updateLocation', payload as never, resolve));
      const ok = await send({ trackingId: device.id, latitude: LAT, longitude: LNG, timestamp: 1767225600000, accuracy: 3, battery: 70, name: 'phone' });
      expect(ok).toEqual({ ok: true });
      expect(await fixesOf(device.id)).toHaveLength(1);
      const wrongDevice = await send({ trackingId: 'someone-else', latitude: LAT, longitude: LNG });
      expect(wrongDevice).toMatchObject({ ok: false, message: expect.stringMatching(/trackingId/) });
      const bad = await send({ trackingId: device.id, latitude: 'north', longitude: LNG });
      expect(bad).toMatchObject({ ok: false, message: expect.stringMatching(/^latitude/) });
      const outOfRange = await send({ trackingId: device.id, latitude: -95, longitude: LNG });
      expect(outOfRange).toMatchObject({ ok: false, message: expect.stringMatching(/^latitude/) });
      expect(await fixesOf(device.id)).toHaveLength(1);
    } finally {
      socket.disconnect();
    }
  });

  it('a device socket with a wrong secret is disconnected and stores nothing', async () => {
    const device = await addDevice(ctx());
    const socket = deviceSocket(ctx().baseUrl, { deviceId: device.id, secret: 'wrong' });
    try {
      const disconnected = new Promise<void>((resolve) => socket.on('disconnect', () => resolve()));
      socket.emit('updateLocation', { trackingId: device.id, latitude: LAT, longitude: LNG });
      await disconnected;
      expect(await fixesOf(device.id)).toHaveLength(0);
    } finally {
      socket.disconnect();
    }
  });
});
