// A Traccar server's JSON position forwarder at POST /api/v1/ingest/traccar (decision 106), posted the JSON Traccar
// builds (PositionForwarderJson: Jackson of PositionData { position, device }): stored as an OsmAnd fix, its alarms
// raising the same alerts as over OsmAnd, a bad token, an unknown unique id and a tag refused and counted in /metrics.
import { describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { API_PREFIX } from '@prison/shared';
import { loadConfig } from '../../config';
import { alerts, positions } from '../../db/schema';
import { KNOTS_TO_METRES_PER_SECOND } from '../../tracking/fix';
import { addDevice, addPrisoner, addStaff, osmandGet, useListeningApp } from '../../tracking/tracking-test-kit';
import { sample } from '../../../test/metrics-sample';
import { useTestApp } from '../../../test/test-app';

const TOKEN = 'traccar-forward-token-of-the-test';
const METRICS = 'metrics-token-of-the-traccar-test';
const LAT = 51.5007;
const LNG = -0.1246;

/** Jackson's dates with WRITE_DATES_AS_TIMESTAMPS off (Traccar's ObjectMapper): ISO 8601, milliseconds, +00:00. */
const jacksonDate = (ms: number) => new Date(ms).toISOString().replace('Z', '+00:00');

/**
 * The body Traccar's forwarder posts, property for property as its model serialises: Position (id, attributes,
 * deviceId, protocol, serverTime, deviceTime, fixTime, valid, latitude, longitude, altitude, speed in knots, course,
 * address, accuracy, network, geofenceIds; `outdated` and `type` are @JsonIgnore) and Device (the motion and overspeed
 * state are @JsonIgnore).
 */
function traccarPositionData(uniqueId: string, time: number, attributes: Record<string, unknown> = {}, position: Record<string, unknown> = {}) {
  return {
    position: {
      id: 0,
      attributes: { batteryLevel: 76, distance: 0, totalDistance: 1234.5, motion: false, ...attributes },
      deviceId: 7,
      protocol: 'gt06',
      serverTime: jacksonDate(time + 400),
      deviceTime: jacksonDate(time),
      fixTime: jacksonDate(time),
      valid: true,
      latitude: LAT,
      longitude: LNG,
      altitude: 0,
      speed: 5.4,
      course: 180,
      address: null,
      accuracy: 0,
      network: null,
      geofenceIds: null,
      ...position,
    },
    device: {
      id: 7,
      attributes: {},
      groupId: 0,
      calendarId: 0,
      name: 'Bracelet 7',
      uniqueId,
      status: 'online',
      lastUpdate: jacksonDate(time),
      positionId: 0,
      phone: null,
      model: null,
      contact: null,
      category: null,
      disabled: false,
      expirationTime: null,
    },
  };
}

describe('TRACCAR_FORWARD_TOKEN', () => {
  it('empty is unset; too short or with spaces stops the start naming it', () => {
    expect(loadConfig({ TRACCAR_FORWARD_TOKEN: '' }).TRACCAR_FORWARD_TOKEN).toBeUndefined();
    expect(loadConfig({ TRACCAR_FORWARD_TOKEN: TOKEN }).TRACCAR_FORWARD_TOKEN).toBe(TOKEN);
    expect(() => loadConfig({ TRACCAR_FORWARD_TOKEN: 'short' })).toThrow(/TRACCAR_FORWARD_TOKEN must be at least 16 characters/);
    expect(() => loadConfig({ TRACCAR_FORWARD_TOKEN: 'has a space in the middle' })).toThrow(/TRACCAR_FORWARD_TOKEN/);
  });
});

describe('/ingest/traccar without TRACCAR_FORWARD_TOKEN', () => {
  const ctx = useTestApp('pglite');
  it('is off: 404 even with a token', async () => {
    const res = await ctx().app.inject({
      method: 'POST',
      url: `${API_PREFIX}/ingest/traccar`,
      headers: { authorization: `Bearer ${TOKEN}` },
      payload: traccarPositionData('anything', Date.now()),
    });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: 'The Traccar forwarder is off: set TRACCAR_FORWARD_TOKEN to turn it on' });
  });
});

describe('/ingest/traccar', () => {
  const ctx = useListeningApp('pglite', { TRACCAR_FORWARD_TOKEN: TOKEN, METRICS_TOKEN: METRICS });
  const forward = (body: unknown, authorization: string | null = `Bearer ${TOKEN}`) =>
    fetch(`${ctx().baseUrl}${API_PREFIX}/ingest/traccar`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(authorization ? { authorization } : {}) },
      body: JSON.stringify(body),
    });
  const fixesOf = (deviceId: string) => ctx().database.db.select().from(positions).where(eq(positions.deviceId, deviceId)).orderBy(positions.recordedAt);
  const alertsOf = (deviceId: string, kind: string) => ctx().database.db.select().from(alerts).where(and(eq(alerts.deviceId, deviceId), eq(alerts.kind, kind)));
  const counts = async () => {
    const text = await (await fetch(`${ctx().baseUrl}/metrics`, { headers: { authorization: `Bearer ${METRICS}` } })).text();
    return {
      received: sample(text, 'prison_fixes_received_total', { protocol: 'traccar' }) ?? 0,
      refused: sample(text, 'prison_fixes_refused_total', { protocol: 'traccar' }) ?? 0,
      stored: sample(text, 'prison_fixes_stored_total') ?? 0,
    };
  };

  it('stores a forwarded position as the device matched by its unique id (knots, battery level, ISO time), answered after storage and counted', async () => {
    const before = await counts();
    const device = await addDevice(ctx());
    const time = Date.now() - 60_000;
    const res = await forward(traccarPositionData(device.id, time));
    expect(res.status, await res.clone().text()).toBe(200);
    expect(await res.json()).toEqual({ message: 'Stored' });
    const [fix] = await fixesOf(device.id);
    expect(fix).toMatchObject({ latitude: LAT, longitude: LNG, bearing: 180, battery: 76, accuracy: null });
    expect(fix!.recordedAt.getTime()).toBe(time);
    expect(fix!.speed).toBeCloseTo(5.4 * KNOTS_TO_METRES_PER_SECOND, 3);
    const after = await counts();
    expect(after.received - before.received).toBe(1);
    expect(after.refused - before.refused).toBe(0);
    expect(after.stored - before.stored).toBe(1);
  });

  it('refuses a wrong or missing token (401), an unknown unique id (404) and a tag (409), each counted as refused and none stored', async () => {
    const device = await addDevice(ctx());
    const tag = await addDevice(ctx(), { kind: 'tag' });
    const before = await counts();
    const time = Date.now() - 30_000;
    for (const authorization of [null, `Bearer ${TOKEN}x`, `Basic ${TOKEN}`, TOKEN]) {
      const res = await forward(traccarPositionData(device.id, time), authorization);
      expect(res.status, String(authorization)).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe('Bearer realm="traccar"');
    }
    const unknown = await forward(traccarPositionData('not-registered-anywhere', time));
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ message: 'Unknown device not-registered-anywhere' });
    const tagged = await forward(traccarPositionData(tag.id, time));
    expect(tagged.status).toBe(409);
    expect(((await tagged.json()) as { message: string }).message).toMatch(/^device\.uniqueId: .* is a tag/);
    const bad = await forward(traccarPositionData(device.id, time, {}, { latitude: 91 }));
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { message: string }).message).toMatch(/latitude/);
    expect(await fixesOf(device.id)).toEqual([]);
    expect(await fixesOf(tag.id)).toEqual([]);
    const after = await counts();
    expect(after.received - before.received).toBe(7);
    expect(after.refused - before.refused).toBe(7);
    expect(after.stored - before.stored).toBe(0);
    // A body far past one position (64 KiB) is refused before anything is read into a fix.
    const huge = await forward(traccarPositionData(device.id, time, { padding: 'x'.repeat(70_000) }));
    expect(huge.status).toBe(413);
    // A bad position fails alone: the next one of the same device is stored.
    expect((await forward(traccarPositionData(device.id, time + 1000))).status).toBe(200);
    expect(await fixesOf(device.id)).toHaveLength(1);
  });

  it('a malformed forward answers 400 naming the field and stores nothing', async () => {
    const device = await addDevice(ctx());
    const time = Date.now() - 5_000;
    const good = traccarPositionData(device.id, time);
    const cases: [unknown, RegExp][] = [
      [{ device: good.device }, /^position: /],
      [{ position: good.position }, /^device: /],
      [{ position: good.position, device: { ...good.device, uniqueId: '' } }, /^device\.uniqueId: /],
      [{ position: good.position, device: { ...good.device, uniqueId: 'x'.repeat(101) } }, /^device\.uniqueId: /],
      [{ position: { ...good.position, latitude: '51.5x' }, device: good.device }, /latitude/],
      [{ position: { ...good.position, longitude: null }, device: good.device }, /longitude/],
      [{ position: { ...good.position, fixTime: 'yesterday' }, device: good.device }, /timestamp|time/i],
      [{ position: { ...good.position, speed: 'fast' }, device: good.device }, /speed/],
    ];
    for (const [body, message] of cases) {
      const res = await forward(body);
      expect(res.status, JSON.stringify(body).slice(0, 120)).toBe(400);
      expect(((await res.json()) as { message: string }).message).toMatch(message);
    }
    expect((await forward([good])).status).toBe(400);
    expect(await fixesOf(device.id)).toEqual([]);
  });

  it('alarm=sos raises the same Critical as OsmAnd alarm=sos; an unknown alarm is stored without an alert', async () => {
    const overOsmand = await addDevice(ctx(), { prisoner_id: (await addPrisoner(ctx(), 'Sam', 'Sos')).id });
    const overTraccar = await addDevice(ctx(), { prisoner_id: (await addPrisoner(ctx(), 'Sam', 'Sos')).id });
    const time = Date.now() - 20_000;
    expect((await osmandGet(ctx().osmandUrl, { id: overOsmand.id, lat: LAT, lon: LNG, timestamp: time, alarm: 'sos' })).status).toBe(200);
    expect((await forward(traccarPositionData(overTraccar.id, time, { alarm: 'sos' }))).status).toBe(200);
    const osmand = await alertsOf(overOsmand.id, 'sos');
    const traccar = await alertsOf(overTraccar.id, 'sos');
    expect(traccar.map((a) => [a.kind, a.alertType, a.details])).toEqual([['sos', 'Critical', "SOS from Sam Sos's tracker"]]);
    expect(traccar.map((a) => [a.kind, a.alertType, a.details])).toEqual(osmand.map((a) => [a.kind, a.alertType, a.details]));

    const quiet = await addDevice(ctx(), { prisoner_id: (await addPrisoner(ctx(), 'Una', 'Known')).id });
    expect((await forward(traccarPositionData(quiet.id, time, { alarm: 'hardBraking' }))).status).toBe(200);
    expect(await fixesOf(quiet.id)).toHaveLength(1);
    expect(await ctx().database.db.select().from(alerts).where(eq(alerts.deviceId, quiet.id))).toEqual([]);
  });

  it('fallDown raises "may be down" as OsmAnd alarm=fall; tampering and removing the tamper alert; lowBattery the low-battery alert', async () => {
    const time = Date.now() - 10_000;
    const officer = await addStaff(ctx(), 'Fay', 'Down');
    const faller = await addDevice(ctx(), { staff_id: officer.id });
    expect((await forward(traccarPositionData(faller.id, time, { alarm: 'fallDown' }))).status).toBe(200);
    expect((await alertsOf(faller.id, 'staff_down')).map((a) => [a.alertType, a.details])).toEqual([['Critical', 'Officer Fay Down may be down']]);

    for (const alarm of ['tampering', 'removing']) {
      const device = await addDevice(ctx(), { prisoner_id: (await addPrisoner(ctx(), 'Tam', alarm)).id });
      expect((await forward(traccarPositionData(device.id, time, { alarm }))).status).toBe(200);
      expect((await alertsOf(device.id, 'tamper')).map((a) => a.alertType), alarm).toEqual(['Critical']);
    }

    const low = await addDevice(ctx(), { prisoner_id: (await addPrisoner(ctx(), 'Lou', 'Battery')).id });
    // No batteryLevel (JSON drops undefined): the device's own word raises it.
    expect((await forward(traccarPositionData(low.id, time, { batteryLevel: undefined, alarm: 'lowBattery' }))).status).toBe(200);
    expect((await alertsOf(low.id, 'battery')).map((a) => a.alertType)).toEqual(['Warning']);
  });
});
