// Device credentials (decision 038), through the real protocols: with DEVICE_SECRET_REQUIRED on, each protocol x each
// credential state (none, wrong, unknown id, right), for a fix and for an SOS: only the right secret is stored, and the
// three refusals give one answer. A repeated alarm updates its open alert; per-address throttling of failures.
import { expect, it } from 'vitest';
import { and, eq, like } from 'drizzle-orm';
import { API_PREFIX, type DeviceCreated } from '@prison/shared';
import { alerts, devices, positions } from '../../db/schema';
import { startDemoTracking } from '../../seed/demo-tracking';
import { addDevice, addPrisoner, connected, deviceSocket, osmandGet, useListeningApp, type ListeningContext } from '../../tracking/tracking-test-kit';
import { describeEachEngine, describeOnPglite } from '../../../test/test-db';
import { waitFor } from '../../../test/wait-for';
import { DeviceAuthThrottle } from './device-auth-throttle';

const LAT = 51.5007;
const LNG = -0.1246;
const REFUSED = { status: 401, body: { message: 'Unknown device or wrong secret' } };

const CREDENTIAL_STATES = ['none', 'wrong', 'unknown id', 'right'] as const;
type CredentialState = (typeof CREDENTIAL_STATES)[number];

interface Credentials {
  id: string;
  secret?: string;
}

function credentialsFor(state: CredentialState, device: DeviceCreated): Credentials {
  if (state === 'none') return { id: device.id };
  if (state === 'wrong') return { id: device.id, secret: `${device.secret.slice(0, -2)}xx` };
  if (state === 'unknown id') return { id: `unknown-${device.id}`, secret: device.secret };
  return { id: device.id, secret: device.secret };
}

/** What a device is answered: an HTTP status and body, or the outcome of one fix of a batch, or a socket's fate. */
type Answer = unknown;
/** One fix (an SOS when `sos`) sent with these credentials; `at` is the fix time (seconds). */
type Protocol = (ctx: ListeningContext, credentials: Credentials, at: number, sos: boolean) => Promise<Answer>;

const withSecret = (credentials: Credentials): Record<string, string> => (credentials.secret === undefined ? {} : { secret: credentials.secret });
const httpAnswer = async (res: Response) => ({ status: res.status, body: (await res.json()) as unknown });
const osmandParams = (c: Credentials, at: number, sos: boolean): Record<string, string | number> => ({ id: c.id, lat: LAT, lon: LNG, timestamp: at, ...withSecret(c), ...(sos ? { alarm: 'sos' } : {}) });
const jsonForm = (c: Credentials, at: number, sos: boolean) =>
  JSON.stringify({ device_id: c.id, ...withSecret(c), location: { timestamp: at * 1000, coords: { latitude: LAT, longitude: LNG }, ...(sos ? { extras: { alarm: 'sos' } } : {}) } });
const queryOf = (params: Record<string, string | number>) => new URLSearchParams(Object.entries(params).map(([k, v]): [string, string] => [k, String(v)]));
const post = (url: string, contentType: string, body: string) => fetch(url, { method: 'POST', headers: { 'content-type': contentType }, body });

const PROTOCOLS: Record<string, Protocol> = {
  'OsmAnd port, GET query': async (ctx, c, at, sos) => osmandGet(ctx.osmandUrl, osmandParams(c, at, sos)),
  'OsmAnd port, form POST': async (ctx, c, at, sos) =>
    httpAnswer(await post(ctx.osmandUrl, 'application/x-www-form-urlencoded', queryOf(osmandParams(c, at, sos)).toString())),
  'OsmAnd port, JSON form': async (ctx, c, at, sos) => httpAnswer(await post(ctx.osmandUrl, 'application/json', jsonForm(c, at, sos))),
  'OsmAnd API path, GET query': async (ctx, c, at, sos) => {
    return httpAnswer(await fetch(`${ctx.baseUrl}${API_PREFIX}/ingest/osmand?${queryOf(osmandParams(c, at, sos))}`));
  },
  'OsmAnd API path, JSON form': async (ctx, c, at, sos) => httpAnswer(await post(`${ctx.baseUrl}${API_PREFIX}/ingest/osmand`, 'application/json', jsonForm(c, at, sos))),
  'gateway batch': async (ctx, c, at, sos) => {
    const fix = { device_id: c.id, ...withSecret(c), latitude: LAT, longitude: LNG, timestamp: at, ...(sos ? { alarm: 'sos' } : {}) };
    const res = await post(`${ctx.baseUrl}${API_PREFIX}/ingest/positions`, 'application/json', JSON.stringify({ positions: [fix] }));
    const body = (await res.json()) as { results: { outcome: string; message?: string }[] };
    return { status: res.status, result: body.results[0] };
  },
};

/** The Socket.IO device protocol: the handshake carries the credentials; a refused one is disconnected by the server. */
async function socketAnswer(ctx: ListeningContext, c: Credentials, at: number): Promise<Answer> {
  const socket = deviceSocket(ctx.baseUrl, { deviceId: c.id, ...withSecret(c) });
  // Listening before the handshake ends: a refused device is disconnected at once.
  const disconnected = new Promise<Answer>((resolve) => socket.on('disconnect', (reason) => resolve({ disconnected: reason })));
  try {
    await connected(socket);
    return await Promise.race([
      disconnected,
      new Promise((resolve) => socket.emit('updateLocation', { trackingId: c.id, latitude: LAT, longitude: LNG, timestamp: at * 1000 }, (ack: unknown) => resolve(ack))),
    ]);
  } finally {
    socket.disconnect();
  }
}

describeEachEngine('device credentials with DEVICE_SECRET_REQUIRED=true', (engine) => {
  const ctx = useListeningApp(engine, { DEVICE_SECRET_REQUIRED: true, DEVICE_AUTH_FAILURES_PER_MINUTE: 10_000 });
  const fixesOf = (deviceId: string) => ctx().database.db.select().from(positions).where(eq(positions.deviceId, deviceId));
  const sosAlertsOf = (deviceId: string) => ctx().database.db.select().from(alerts).where(and(eq(alerts.deviceId, deviceId), eq(alerts.kind, 'sos')));
  // Fix times move forward from 12 h ago, so none is refused for being ahead of the clock.
  let clock = Math.floor(Date.now() / 1000) - 12 * 3600;

  for (const [name, send] of Object.entries(PROTOCOLS)) {
    for (const sos of [false, true]) {
      it(`${name}, ${sos ? 'SOS' : 'fix'}: only the right secret is stored; none, wrong and unknown id get one answer`, async () => {
        const prisoner = await addPrisoner(ctx());
        const device = await addDevice(ctx(), { prisoner_id: prisoner.id });
        const answers = new Map<CredentialState, Answer>();
        for (const state of CREDENTIAL_STATES) answers.set(state, await send(ctx(), credentialsFor(state, device), (clock += 120), sos));
        const refused = CREDENTIAL_STATES.filter((s) => s !== 'right').map((s) => answers.get(s));
        if (name === 'gateway batch') {
          expect(refused[0]).toEqual({ status: 200, result: { index: 0, outcome: 'refused', message: REFUSED.body.message } });
          expect(answers.get('right'), JSON.stringify(answers.get('right'))).toMatchObject({ status: 200, result: { outcome: 'stored' } });
        } else {
          expect(refused[0]).toEqual(REFUSED);
          expect(answers.get('right'), JSON.stringify(answers.get('right'))).toMatchObject({ status: 200 });
        }
        for (const other of refused) expect(other).toEqual(refused[0]);
        // Only the right secret's fix (and SOS) got in.
        expect(await fixesOf(device.id)).toHaveLength(1);
        expect(await sosAlertsOf(device.id)).toHaveLength(sos ? 1 : 0);
        expect(await fixesOf(`unknown-${device.id}`)).toHaveLength(0);
      });
    }
  }

  it('Socket.IO handshake: only the right secret may send; none, wrong and unknown id are refused alike', async () => {
    const device = await addDevice(ctx());
    const answers = new Map<CredentialState, Answer>();
    for (const state of CREDENTIAL_STATES) answers.set(state, await socketAnswer(ctx(), credentialsFor(state, device), (clock += 120)));
    expect(answers.get('right')).toEqual({ ok: true });
    for (const state of ['none', 'wrong', 'unknown id'] as const) expect(answers.get(state), state).toEqual({ disconnected: 'io server disconnect' });
    expect(await fixesOf(device.id)).toHaveLength(1);
  });

  it('50 SOS from one device within one second, sent concurrently, make one open alert that counts them', async () => {
    const prisoner = await addPrisoner(ctx(), 'Sam', 'Panic');
    const device = await addDevice(ctx(), { prisoner_id: prisoner.id });
    const start = Date.now() - 60_000;
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) => osmandGet(ctx().osmandUrl, { id: device.id, secret: device.secret, lat: LAT, lon: LNG, timestamp: start + i * 20, alarm: 'sos' })),
    );
    expect(answers.every((a) => a.status === 200)).toBe(true);
    const stored = await sosAlertsOf(device.id);
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ alertType: 'Critical', status: 'New', repeatCount: 49 });
    expect(stored[0]!.lastRepeatAt!.getTime()).toBe(start + 49 * 20);
    expect(await fixesOf(device.id)).toHaveLength(50);
    // The API shows the count.
    const record = (await ctx().api('GET', `/alert/prisoneralerts?prisoner_id=${prisoner.id}`)).json<{ data: { repeat_count: number }[] }>();
    expect(record.data.map((a) => a.repeat_count)).toEqual([50]);
  });

  it('2,000 SOS in one JSON request, and 50 in one batch, make one alert each', async () => {
    const device = await addDevice(ctx());
    const start = Date.now() - 30 * 60_000;
    const locations = Array.from({ length: 2000 }, (_, i) => ({ timestamp: start + i, coords: { latitude: LAT, longitude: LNG }, extras: { alarm: 'sos' } }));
    // On the API path: the device port takes bodies up to 64 KiB.
    const res = await post(`${ctx().baseUrl}${API_PREFIX}/ingest/osmand`, 'application/json', JSON.stringify({ device_id: device.id, secret: device.secret, location: locations }));
    expect(res.status).toBe(200);
    expect((await sosAlertsOf(device.id)).map((a) => a.repeatCount)).toEqual([1999]);
    const other = await addDevice(ctx());
    const batch = Array.from({ length: 50 }, (_, i) => ({ device_id: other.id, secret: other.secret, latitude: LAT, longitude: LNG, timestamp: start + i * 10, alarm: 'sos' }));
    const stored = await post(`${ctx().baseUrl}${API_PREFIX}/ingest/positions`, 'application/json', JSON.stringify({ positions: batch }));
    expect(((await stored.json()) as { stored: number }).stored).toBe(50);
    expect((await sosAlertsOf(other.id)).map((a) => a.repeatCount)).toEqual([49]);
  });

  it('an alarm more than 60 s after the last, after a resolve, or of another kind raises a new alert', async () => {
    const device = await addDevice(ctx());
    const start = Date.now() - 20 * 60_000;
    const send = (ms: number, alarm = 'sos') => osmandGet(ctx().osmandUrl, { id: device.id, secret: device.secret, lat: LAT, lon: LNG, timestamp: start + ms, alarm });
    await send(0);
    await send(50_000); // repeat: the window runs from the last occurrence
    await send(100_000); // 50 s after the last: still the same alert
    await send(100_500, 'tamper'); // another alarm: its own alert
    expect((await sosAlertsOf(device.id)).map((a) => a.repeatCount)).toEqual([2]);
    await send(161_000); // 61 s after the last
    let sos = await sosAlertsOf(device.id);
    expect(sos.map((a) => a.repeatCount).sort()).toEqual([0, 2]);
    const latest = sos.find((a) => a.repeatCount === 0)!;
    // Acknowledged first: a Critical alert is acknowledged before it is resolved.
    expect((await ctx().api('POST', `/alert/${latest.id}/acknowledge`, { note: 'On my way' })).statusCode).toBe(200);
    const resolved = await ctx().api('POST', `/alert/${latest.id}/resolve`, { note: 'Checked on the prisoner' });
    expect(resolved.statusCode, resolved.body).toBe(200);
    await send(170_000); // within 60 s of the resolved one: a new alert
    sos = await sosAlertsOf(device.id);
    expect(sos).toHaveLength(3);
    const tamper = await ctx().database.db.select().from(alerts).where(and(eq(alerts.deviceId, device.id), eq(alerts.kind, 'tamper')));
    expect(tamper).toHaveLength(1);
  });

  it("the demo's simulated trackers send their secret, so the demo runs with the setting on", async () => {
    // Prisoners without a tracker, for the demo to give theirs (the other tests' prisoners all have one).
    for (let i = 0; i < 3; i++) await addPrisoner(ctx(), 'Demo', `Walker${i}`);
    const demo = await startDemoTracking(ctx().app);
    try {
      const demoDevices = () => ctx().database.db.select({ id: devices.id, seen: devices.lastSeenAt }).from(devices).where(like(devices.id, 'demo-%'));
      await waitFor('every demo tracker stored a fix', async () => {
        const rows = await demoDevices();
        return rows.length > 0 && rows.every((row) => row.seen !== null);
      });
    } finally {
      await demo.stop();
    }
  });
});

describeOnPglite('device credential failures are throttled per address', () => {
  const ctx = useListeningApp('pglite', { DEVICE_SECRET_REQUIRED: true, DEVICE_AUTH_FAILURES_PER_MINUTE: 5, TRUST_PROXY: true });

  it('past the limit an address gets 429 with Retry-After, while other addresses and right secrets still get through', async () => {
    const device = await addDevice(ctx());
    const at = Math.floor(Date.now() / 1000) - 600;
    const guess = (i: number) => osmandGet(ctx().osmandUrl, { id: `guess-${i}`, secret: 'x', lat: LAT, lon: LNG, timestamp: at });
    for (let i = 0; i < 5; i++) expect((await guess(i)).status).toBe(401);
    const throttled = await fetch(`${ctx().osmandUrl}/?id=guess-5&secret=x&lat=${LAT}&lon=${LNG}`);
    expect(throttled.status).toBe(429);
    expect(Number(throttled.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await throttled.json()) as unknown).toEqual({ message: 'Too many refused device credentials from this address; try again later' });
    // A tracker behind the same address is not silenced.
    const valid = await osmandGet(ctx().osmandUrl, { id: device.id, secret: device.secret, lat: LAT, lon: LNG, timestamp: at + 1 });
    expect(valid.status).toBe(200);
    // Another address (through the trusted proxy's header on the API path) is judged on its own.
    const path = (from: string, i: number) =>
      fetch(`${ctx().baseUrl}${API_PREFIX}/ingest/osmand?id=guess-${i}&secret=x&lat=${LAT}&lon=${LNG}`, { headers: { 'x-forwarded-for': from } });
    for (let i = 0; i < 5; i++) expect((await path('198.51.100.7', i)).status).toBe(401);
    const pathThrottled = await path('198.51.100.7', 5);
    expect(pathThrottled.status).toBe(429);
    expect(pathThrottled.headers.get('retry-after')).toMatch(/^\d+$/);
    expect((await path('198.51.100.8', 0)).status).toBe(401);
  });

  it('logs failures at a bounded rate: one line per kind per interval, however many', () => {
    const lines: string[] = [];
    const throttle = new DeviceAuthThrottle(5, { warn: (_fields: unknown, message?: string) => lines.push(message ?? '') } as never);
    const refusal = { statusCode: 401, message: 'Unknown device or wrong secret' } as never;
    for (let i = 0; i < 2000; i++) throttle.failed('203.0.113.9', `guess-${i}`, refusal);
    throttle.stop();
    expect(lines).toEqual(['device credentials refused on the OsmAnd protocol', 'device credential failures throttled on the OsmAnd protocol']);
  });
});
