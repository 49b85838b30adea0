// Decision 011: every field of a fix is checked on every protocol, a fix the
// database refuses fails alone, and a fix dated ahead of the server never silences the device.
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { API_PREFIX, type BatchPositionsResponse, type DeviceCreated } from '@prison/shared';
import { alerts, devices, positions } from '../../db/schema';
import { buildApp } from '../../app';
import { checkFix, optionalNumber, parseFixTime, REFUSED_BY_DATABASE, type Fix } from '../../tracking/fix';
import { addDevice, addPrisoner, connected, deviceSocket, osmandGet, useListeningApp } from '../../tracking/tracking-test-kit';
import { testConfig } from '../../../test/test-app';
import { describeEachEngine } from '../../../test/test-db';

/** The test database refuses this altitude (a CHECK constraint), though it passes every check of the server. */
const POISON_ALTITUDE = 4242;
const LAT = 47.1;
const LNG = 8.6;

describe('fix checks', () => {
  const now = new Date('2026-01-01T00:00:00Z');
  const fix = (extra: Partial<Fix>): Fix => ({ deviceId: 'd', latitude: LAT, longitude: LNG, recordedAt: now, ...extra });

  it('reads decimal numbers only: hexadecimal, binary, empty, Infinity and overflowing text are refused', () => {
    expect(optionalNumber('51.5007', 'lat')).toBe(51.5007);
    expect(optionalNumber(' -0.5 ', 'lat')).toBe(-0.5);
    expect(optionalNumber('1e3', 'altitude')).toBe(1000);
    expect(optionalNumber(undefined, 'speed')).toBeNull();
    expect(optionalNumber(null, 'speed')).toBeNull();
    for (const bad of ['0x33', '0b1', '0o7', '', ' ', 'Infinity', '-Infinity', 'NaN', '1e400', '1,5', '12abc', true, {}]) {
      expect(() => optionalNumber(bad, 'lat'), JSON.stringify(bad)).toThrow(/^lat must be a decimal number$/);
    }
    expect(() => optionalNumber(Number.POSITIVE_INFINITY, 'speed')).toThrow(/^speed must be a decimal number$/);
  });

  it('reads real instants only: an empty, hexadecimal or impossible date is refused; an ISO time without zone is UTC', () => {
    expect(parseFixTime('2026-01-01T00:00:00', now).toISOString()).toBe('2026-01-01T00:00:00.000Z');
    expect(parseFixTime('2026-01-01 02:30:00.250+02:30', now).toISOString()).toBe('2026-01-01T00:00:00.250Z');
    for (const bad of ['', '0x33', '2026-02-30T00:00:00Z', '2026-01-01T24:00:00Z', '1e9', 'tomorrow', '2026-01-01']) {
      expect(() => parseFixTime(bad, now), bad).toThrow(/^timestamp must be/);
    }
  });

  it('drops each measurement out of its range (naming it) and keeps the position; boundaries are kept', () => {
    const inRange = { accuracy: 100_000, speed: 500, bearing: 360, altitude: -1000, battery: 0 };
    // A checked fix carries when it arrived (the fix-to-alert histogram, decision 059).
    expect(checkFix(fix(inRange), { now })).toEqual({ fix: { ...fix(inRange), arrivedAt: now.getTime() }, ignored: [] });
    const checked = checkFix(fix({ accuracy: -1, speed: -0.1, bearing: 361, altitude: 1e39, battery: 100.5 }), { now });
    expect(checked.fix).toMatchObject({ latitude: LAT, accuracy: null, speed: null, bearing: null, altitude: null, battery: null });
    expect(checked.ignored).toEqual([
      'accuracy ignored: must be 0 to 100000 m',
      'speed ignored: must be 0 to 500 m/s',
      'bearing ignored: must be 0 to 360 degrees',
      'altitude ignored: must be -1000 to 100000 m',
      'battery ignored: must be 0 to 100 %',
    ]);
    expect(checkFix(fix({ speed: 500.1, accuracy: 100_001, altitude: 100_001 }), { now }).fix).toMatchObject({ speed: null, accuracy: null, altitude: null });
  });

  it('refuses a time more than MAX_FUTURE_SECONDS ahead, naming the field', () => {
    const ahead = (seconds: number) => fix({ recordedAt: new Date(now.getTime() + seconds * 1000) });
    expect(checkFix(ahead(300), { now }).fix.recordedAt.getTime()).toBe(now.getTime() + 300_000);
    expect(() => checkFix(ahead(301), { now })).toThrow(/^timestamp is 301 s ahead of the server clock \(at most 300 s allowed\)/);
    expect(() => checkFix(ahead(23 * 3600), { now })).toThrow(/^timestamp is 82800 s ahead/);
    expect(() => checkFix(ahead(61), { now, maxFutureSeconds: 60 })).toThrow(/at most 60 s allowed/);
  });
});

describeEachEngine('fix validation, isolation and clock skew', (engine) => {
  const ctx = useListeningApp(engine);
  const db = () => ctx().database.db;
  const fixesOf = (deviceId: string) => db().select().from(positions).where(eq(positions.deviceId, deviceId)).orderBy(positions.recordedAt);
  const postJson = (url: string, body: unknown) => fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const batch = async (positionsToSend: unknown[]) => {
    const res = await postJson(`${ctx().baseUrl}${API_PREFIX}/ingest/positions`, { positions: positionsToSend });
    expect(res.status).toBe(200);
    return (await res.json()) as BatchPositionsResponse;
  };
  let fenceCounter = 0;
  /** A Critical Positive zone (no dwell) of 100 m around the point. */
  const criticalZone = async (latitude: number, longitude: number) => {
    const geofenceId = `critical-${engine}-${++fenceCounter}`;
    const res = await ctx().api('POST', '/geofence/add', {
      geofence_id: geofenceId,
      shape: 'Circle',
      name: 'Armoury',
      type: 'Positive',
      alert_type: 'Critical',
      radius: 100,
      center_lat: latitude,
      center_lng: longitude,
      dwell_seconds: 0,
    });
    expect(res.statusCode, res.body).toBe(200);
    return geofenceId;
  };
  const zoneAlerts = (deviceId: string, geofenceId: string) =>
    db().select().from(alerts).where(and(eq(alerts.deviceId, deviceId), eq(alerts.geofenceId, geofenceId)));
  const poisonTheDatabase = async () => {
    await db().execute(sql.raw(`alter table positions add constraint test_poison check (altitude is distinct from ${POISON_ALTITUDE})`));
  };

  describe('one bad fix fails alone (finding 2)', () => {
    beforeAll(poisonTheDatabase);

    it('a gateway batch with a fix the database refuses stores and acknowledges every other one, alerts included', async () => {
      const tracked = await addPrisoner(ctx(), 'Batch', 'Walker');
      const walker = await addDevice(ctx(), { prisoner_id: tracked.id });
      const zone = await criticalZone(LAT + 0.1, LNG);
      const others = await Promise.all(Array.from({ length: 6 }, () => addDevice(ctx())));
      const poisoned = await addDevice(ctx());
      const now = Date.now();
      const fixOf = (device: DeviceCreated, extra: Record<string, unknown> = {}) => ({
        device_id: device.id,
        secret: device.secret,
        latitude: LAT,
        longitude: LNG,
        timestamp: now - 1000,
        altitude: 10,
        ...extra,
      });
      const body = await batch([
        ...others.slice(0, 3).map((d) => fixOf(d)),
        fixOf(poisoned, { altitude: POISON_ALTITUDE }),
        fixOf(walker, { latitude: LAT + 0.1 }), // enters the Critical zone
        ...others.slice(3).map((d) => fixOf(d, { altitude: 1e39 })), // overflowed the column before: now dropped
      ]);
      expect(body).toMatchObject({ stored: 7, duplicates: 0, refused: 1 });
      expect(body.results[3]).toEqual({ index: 3, outcome: 'refused', message: REFUSED_BY_DATABASE });
      expect(body.results[5]).toMatchObject({ outcome: 'stored', message: 'altitude ignored: must be -1000 to 100000 m' });
      const stored = await db()
        .select()
        .from(positions)
        .where(inArray(positions.deviceId, [...others, walker, poisoned].map((d) => d.id)));
      expect(stored).toHaveLength(7);
      expect(stored.filter((p) => p.deviceId === poisoned.id)).toEqual([]);
      expect(stored.filter((p) => others.slice(3).some((d) => d.id === p.deviceId)).map((p) => p.altitude)).toEqual([null, null, null]);
      // The zone was entered in the same batch as the refused fix: its alert is raised all the same.
      expect(await zoneAlerts(walker.id, zone)).toHaveLength(1);
      expect(ctx().app.tracking.snapshot()[walker.id]).toMatchObject({ latitude: LAT + 0.1 });
      // The refused device is as before: its next (good) fix is new, stored and moves its marker.
      const again = await batch([fixOf(poisoned, { latitude: LAT + 0.01 })]);
      expect(again).toMatchObject({ stored: 1, refused: 0 });
      expect(ctx().app.tracking.snapshot()[poisoned.id]).toMatchObject({ latitude: LAT + 0.01 });
    });

    it('many devices at once through the OsmAnd port: only the refused fixes fail, every other one is stored', async () => {
      const good = await Promise.all(Array.from({ length: 60 }, () => addDevice(ctx())));
      const poisoned = await Promise.all(Array.from({ length: 6 }, () => addDevice(ctx())));
      const timestamp = Date.now() - 5000;
      const requests = good.map((device, i) =>
        // Every third one also carries the altitude that overflowed the column and failed everybody's batch.
        osmandGet(ctx().osmandUrl, { id: device.id, lat: LAT, lon: LNG, timestamp, altitude: i % 3 === 0 ? '1e39' : 5 }),
      );
      // Interleaved, so they share batches with the good ones.
      poisoned.forEach((device, i) =>
        requests.splice(i * 10 + 5, 0, osmandGet(ctx().osmandUrl, { id: device.id, lat: LAT, lon: LNG, timestamp, altitude: POISON_ALTITUDE })),
      );
      const answers = await Promise.all(requests);
      const poisonedAnswers = poisoned.map((_, i) => answers[i * 10 + 5]!);
      expect(poisonedAnswers.map((a) => [a.status, a.body.message])).toEqual(poisoned.map(() => [400, REFUSED_BY_DATABASE]));
      const goodAnswers = answers.filter((a) => !poisonedAnswers.includes(a));
      expect(goodAnswers.map((a) => a.status)).toEqual(good.map(() => 200));
      const stored = await db().select().from(positions).where(inArray(positions.deviceId, [...good, ...poisoned].map((d) => d.id)));
      expect(stored).toHaveLength(good.length);
    });

    it('a database that cannot be reached fails the batch once, without trying fix by fix', async () => {
      const group = await Promise.all(Array.from({ length: 4 }, () => addDevice(ctx())));
      const dbUsed = ctx().app.db;
      const unreachable = () => Promise.reject(new Error('Connection terminated unexpectedly'));
      // Devices coming online are written in a transaction, the others in one statement: both fail. Every statement,
      // named or not, is prepared by the session (db/named-statements).
      const statements = vi.spyOn(dbUsed._.session, 'prepareQuery').mockImplementation((() => ({ execute: unreachable })) as never);
      const transactions = vi.spyOn(dbUsed, 'transaction').mockImplementation(unreachable as never);
      try {
        const answers = await Promise.all(group.map((d) => osmandGet(ctx().osmandUrl, { id: d.id, lat: LAT, lon: LNG })));
        expect(answers.map((a) => a.status)).toEqual([503, 503, 503, 503]);
        // One attempt per batch at most, never a bisection.
        expect(statements.mock.calls.length + transactions.mock.calls.length).toBeLessThanOrEqual(group.length);
      } finally {
        statements.mockRestore();
        transactions.mockRestore();
      }
      const retried = await Promise.all(group.map((d) => osmandGet(ctx().osmandUrl, { id: d.id, lat: LAT, lon: LNG })));
      expect(retried.map((a) => a.status)).toEqual([200, 200, 200, 200]);
    });
  });

  describe('every field checked on every protocol (findings 2 and 8)', () => {
    it('OsmAnd GET: out-of-range measurements dropped and named; hexadecimal and empty numbers refused', async () => {
      const device = await addDevice(ctx());
      const base = { id: device.id, lat: LAT, lon: LNG };
      const ok = await osmandGet(ctx().osmandUrl, { ...base, timestamp: 1767225600, speed: -1, bearing: 361, accuracy: -5, altitude: '1e39', batt: 150 });
      expect(ok.status).toBe(200);
      expect(ok.body.message).toBe(
        'Stored; accuracy ignored: must be 0 to 100000 m; speed ignored: must be 0 to 500 m/s; bearing ignored: must be 0 to 360 degrees; altitude ignored: must be -1000 to 100000 m; battery ignored: must be 0 to 100 %',
      );
      const huge = await osmandGet(ctx().osmandUrl, { ...base, timestamp: 1767225601, speed: 1000, altitude: -1001, accuracy: 100_001, bearing: 90 });
      expect(huge.status).toBe(200);
      const cases: [Record<string, string | number>, RegExp][] = [
        [{ ...base, lat: '0x33' }, /^lat must be a decimal number$/],
        [{ ...base, lon: '0x10' }, /^lon must be a decimal number$/],
        [{ ...base, lat: '' }, /^lat must be a decimal number$/],
        [{ ...base, speed: '' }, /^speed must be a decimal number$/],
        [{ ...base, altitude: '0x1' }, /^altitude must be a decimal number$/],
        [{ ...base, batt: 'Infinity' }, /^batt must be a decimal number$/],
        [{ ...base, accuracy: '1e400' }, /^accuracy must be a decimal number$/],
        [{ ...base, timestamp: '' }, /^timestamp must be/],
        [{ ...base, timestamp: '0x33' }, /^timestamp must be/],
      ];
      for (const [params, message] of cases) {
        const res = await osmandGet(ctx().osmandUrl, params);
        expect(res.status, JSON.stringify(params)).toBe(400);
        expect(res.body.message, JSON.stringify(params)).toMatch(message);
      }
      const stored = await fixesOf(device.id);
      expect(stored).toHaveLength(2);
      expect(stored[0]).toMatchObject({ latitude: LAT, speed: null, bearing: null, accuracy: null, altitude: null, battery: null });
      expect(stored[1]).toMatchObject({ speed: null, altitude: null, accuracy: null, bearing: 90 });
    });

    it('OsmAnd JSON: the same ranges; a hexadecimal or empty number refused', async () => {
      const device = await addDevice(ctx());
      const send = (coords: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
        postJson(`${ctx().baseUrl}${API_PREFIX}/ingest/osmand`, {
          device_id: device.id,
          location: { timestamp: '2026-01-01T00:00:00Z', coords: { latitude: LAT, longitude: LNG, ...coords }, ...extra },
        });
      const ok = await send({ speed: -3, heading: 400, accuracy: -1, altitude: 1e39 }, { battery: { level: -0.5 } });
      expect(ok.status).toBe(200);
      expect(((await ok.json()) as { message: string }).message).toMatch(/^Stored; accuracy ignored.*speed ignored.*bearing ignored.*altitude ignored.*battery ignored/);
      for (const [coords, message] of [
        [{ latitude: '0x33' }, /^location\.coords\.latitude must be a decimal number$/],
        [{ speed: '' }, /^speed must be a decimal number$/],
        [{ altitude: '0x1' }, /^altitude must be a decimal number$/],
      ] as const) {
        const res = await send(coords);
        expect(res.status, JSON.stringify(coords)).toBe(400);
        expect(((await res.json()) as { message: string }).message).toMatch(message);
      }
      const [stored, ...rest] = await fixesOf(device.id);
      expect(rest).toEqual([]);
      expect(stored).toMatchObject({ speed: null, bearing: null, accuracy: null, altitude: null, battery: null });
    });

    it('the gateway batch: dropped measurements named in the fix result; hexadecimal and empty numbers refused per fix', async () => {
      const device = await addDevice(ctx());
      const fixAt = (seconds: number, extra: Record<string, unknown>) => ({
        device_id: device.id,
        secret: device.secret,
        latitude: LAT,
        longitude: LNG,
        timestamp: 1767225600 + seconds,
        ...extra,
      });
      const body = await batch([
        fixAt(0, { speed: -2, bearing: 361, battery: 101, altitude: 1e39, accuracy: 3 }),
        fixAt(1, { latitude: '0x33' }),
        fixAt(2, { speed: '' }),
        fixAt(3, { bearing: '0x5A' }),
        fixAt(4, { speed: 12.5, bearing: 360, battery: 100, altitude: -1000, accuracy: 0 }),
      ]);
      expect(body.results.map((r) => r.outcome)).toEqual(['stored', 'refused', 'refused', 'refused', 'stored']);
      expect(body.results[0]!.message).toBe(
        'speed ignored: must be 0 to 500 m/s; bearing ignored: must be 0 to 360 degrees; altitude ignored: must be -1000 to 100000 m; battery ignored: must be 0 to 100 %',
      );
      expect(body.results.slice(1, 4).map((r) => r.message)).toEqual(['latitude must be a decimal number', 'speed must be a decimal number', 'bearing must be a decimal number']);
      expect(body.results[4]!.message).toBeUndefined();
      const stored = await fixesOf(device.id);
      expect(stored.map((p) => [p.speed, p.bearing, p.battery, p.altitude, p.accuracy])).toEqual([
        [null, null, null, null, 3],
        [12.5, 360, 100, -1000, 0],
      ]);
    });

    it('Socket.IO updateLocation: negative accuracy and a battery over 100 % dropped; a hexadecimal time refused', async () => {
      const device = await addDevice(ctx());
      const socket = deviceSocket(ctx().baseUrl, { deviceId: device.id, secret: device.secret });
      try {
        await connected(socket);
        const send = (payload: Record<string, unknown>) =>
          new Promise<{ ok: boolean; message?: string }>((resolve) =>
            socket.emit('updateLocation', { trackingId: device.id, latitude: LAT, longitude: LNG, ...payload } as never, resolve),
          );
        expect(await send({ timestamp: 1767225600000, accuracy: -4, battery: 150 })).toEqual({
          ok: true,
          message: 'accuracy ignored: must be 0 to 100000 m; battery ignored: must be 0 to 100 %',
        });
        expect(await send({ timestamp: '0x33' })).toMatchObject({ ok: false, message: expect.stringMatching(/^timestamp must be/) });
        expect(await send({ timestamp: '' })).toMatchObject({ ok: false, message: expect.stringMatching(/^timestamp must be/) });
        expect(await send({ latitude: '0x33' })).toMatchObject({ ok: false, message: expect.stringMatching(/^latitude/) });
        const stored = await fixesOf(device.id);
        expect(stored.map((p) => [p.accuracy, p.battery])).toEqual([[null, null]]);
      } finally {
        socket.disconnect();
      }
    });
  });

  describe('a fix dated ahead of the server (finding 3)', () => {
    it('more than MAX_FUTURE_SECONDS ahead (+23 h) is refused on every protocol, with the reason', async () => {
      const device = await addDevice(ctx());
      const future = Date.now() + 23 * 3600 * 1000;
      const osmand = await osmandGet(ctx().osmandUrl, { id: device.id, lat: LAT, lon: LNG, timestamp: future });
      expect(osmand.status).toBe(400);
      expect(osmand.body.message).toMatch(/^timestamp is 8280\d s ahead of the server clock \(at most 300 s allowed\): check the device's clock$/);
      const json = await postJson(`${ctx().baseUrl}${API_PREFIX}/ingest/osmand`, {
        device_id: device.id,
        location: { timestamp: new Date(future).toISOString(), coords: { latitude: LAT, longitude: LNG } },
      });
      expect(json.status).toBe(400);
      const body = await batch([{ device_id: device.id, secret: device.secret, latitude: LAT, longitude: LNG, timestamp: new Date(future).toISOString() }]);
      expect(body.results[0]).toMatchObject({ outcome: 'refused', message: expect.stringMatching(/^timestamp is \d+ s ahead/) });
      const socket = deviceSocket(ctx().baseUrl, { deviceId: device.id, secret: device.secret });
      try {
        await connected(socket);
        const ack = await new Promise<{ ok: boolean; message?: string }>((resolve) =>
          socket.emit('updateLocation', { trackingId: device.id, latitude: LAT, longitude: LNG, timestamp: future }, resolve),
        );
        expect(ack).toMatchObject({ ok: false, message: expect.stringMatching(/^timestamp is \d+ s ahead/) });
      } finally {
        socket.disconnect();
      }
      expect(await fixesOf(device.id)).toEqual([]);
    });

    it('a fix +299 s ahead is stored, yet real fixes after it still move the marker and entering a Critical zone raises the alert', async () => {
      const prisoner = await addPrisoner(ctx(), 'Clock', 'Skewed');
      const device = await addDevice(ctx(), { prisoner_id: prisoner.id });
      const zone = await criticalZone(LAT + 0.2, LNG + 0.2);
      const send = async (latitude: number, longitude: number, timestamp: number) => {
        const res = await osmandGet(ctx().osmandUrl, { id: device.id, lat: latitude, lon: longitude, timestamp });
        expect(res.status, res.body.message).toBe(200);
        await new Promise((r) => setTimeout(r, 5));
      };
      const skewed = Date.now() + 299_000;
      await send(LAT, LNG, skewed);
      const [stored] = await fixesOf(device.id);
      expect(stored!.recordedAt.getTime()).toBe(skewed); // the history keeps the device's own time
      await send(LAT + 0.01, LNG, Date.now());
      expect(ctx().app.tracking.snapshot()[device.id]).toMatchObject({ latitude: LAT + 0.01, longitude: LNG });
      await send(LAT + 0.2, LNG + 0.2, Date.now());
      expect(ctx().app.tracking.snapshot()[device.id]).toMatchObject({ latitude: LAT + 0.2, longitude: LNG + 0.2 });
      const raised = await zoneAlerts(device.id, zone);
      expect(raised).toHaveLength(1);
      expect(raised[0]).toMatchObject({ alertType: 'Critical', details: 'Clock Skewed entered Armoury' });
      expect(raised[0]!.timestamp.getTime()).toBeLessThanOrEqual(Date.now());
      expect(await fixesOf(device.id)).toHaveLength(3);
      const [row] = await db().select().from(devices).where(eq(devices.id, device.id));
      expect(row!.lastFixAt!.getTime()).toBeLessThanOrEqual(Date.now()); // the newest fix is never ahead of the server
    });

    it('a device whose stored newest fix is far in the future (from before this check) is not blocked after a restart', async () => {
      const device = await addDevice(ctx());
      const future = new Date(Date.now() + 23 * 3600 * 1000);
      await db().update(devices).set({ lastFixAt: future, lastLatitude: LAT, lastLongitude: LNG, online: true, lastSeenAt: new Date() }).where(eq(devices.id, device.id));
      const restarted = await buildApp({ config: testConfig(), database: ctx().database, logger: false });
      try {
        await restarted.ready();
        const res = await restarted.inject({
          method: 'POST',
          url: `${API_PREFIX}/ingest/positions`,
          payload: { positions: [{ device_id: device.id, secret: device.secret, latitude: LAT + 0.03, longitude: LNG, timestamp: Date.now() }] },
        });
        expect(res.json()).toMatchObject({ stored: 1 });
        expect(restarted.tracking.snapshot()[device.id]).toMatchObject({ latitude: LAT + 0.03 });
        const [row] = await db().select().from(devices).where(eq(devices.id, device.id));
        expect(row).toMatchObject({ lastLatitude: LAT + 0.03 });
        expect(row!.lastFixAt!.getTime()).toBeLessThanOrEqual(Date.now());
      } finally {
        await restarted.close();
      }
    });
  });
});
