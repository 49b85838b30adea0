// Indoor readers through a real Mosquitto broker and the HTTP route: registration, a wrong secret
// stores nothing, the stronger of two readers wins, a reader moves only tags (decision 092), a silent reader raises one
// alert, and a load of readers loses nothing.
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, inArray, sql } from 'drizzle-orm';
import mqtt, { type MqttClient } from 'mqtt';
import { API_PREFIX, destinationPoint, type DeviceCreated, type Reader, type ReaderCreated } from '@prison/shared';
import { alerts, devices, positions, readers } from '../../db/schema';
import { hashSecret } from '../../tracking/device-registry';
import { addDevice, addPrisoner } from '../../tracking/tracking-test-kit';
import { startTestApp, type TestContext } from '../../../test/test-app';
import { mosquittoBinary, startMosquitto, type TestBroker } from '../../../test/mosquitto';
import { waitFor } from '../../../test/wait-for';

const binary = mosquittoBinary();
let readerCount = 0;
const METRICS_TOKEN = 'readers-test-metrics-token';

/** A broker, and the app listening with MQTT_URL set to it (the subscription opens on listen). */
function useReadersApp(silentSeconds = 60) {
  let broker: TestBroker | undefined;
  let ctx: TestContext | undefined;
  let base = '';
  beforeAll(async () => {
    broker = await startMosquitto(binary!);
    ctx = await startTestApp('pglite', { MQTT_URL: broker.url, READER_SILENT_SECONDS: silentSeconds, OSMAND_PORT: 0, HOST: '127.0.0.1', METRICS_TOKEN });
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
    await waitFor('the MQTT subscription', () => ctx!.app.fixSourceLinks().some((link) => link.state === 'up'), 20_000);
  }, 240_000);
  afterAll(async () => {
    await ctx?.app.close();
    await ctx?.database.close();
    await broker?.stop();
  });
  return { ctx: () => ctx!, broker: () => broker!, base: () => base };
}

async function addReader(ctx: TestContext, body: Partial<Record<string, unknown>> = {}): Promise<ReaderCreated> {
  const res = await ctx.api('POST', '/readers', { id: `R${++readerCount}`, name: `Reader ${readerCount}`, lat: 51.5, lng: -0.12, radius_m: 5, ...body });
  if (res.statusCode !== 201) throw new Error(`reader registration failed: ${res.body}`);
  return res.json<ReaderCreated>();
}

async function publisher(url: string): Promise<MqttClient> {
  return mqtt.connectAsync(url, { reconnectPeriod: 0 });
}

const topic = (readerId: string) => `prison/readers/${readerId}/sightings`;

describe.skipIf(!binary)('indoor readers over MQTT and HTTP', () => {
  const { ctx, broker, base } = useReadersApp();
  const db = () => ctx().database.db;
  const fixesOf = (deviceId: string) => db().select().from(positions).where(eq(positions.deviceId, deviceId)).orderBy(positions.recordedAt);
  const listed = async (id: string) => (await ctx().api('GET', '/readers')).json<{ data: Reader[] }>().data.find((r) => r.id === id);
  let client: MqttClient;
  beforeAll(async () => {
    client = await publisher(broker().url);
  });
  afterAll(async () => {
    await client?.endAsync();
  });

  it('registers a reader answering its secret once; refuses bad input naming the field and a repeated id; removes it', async () => {
    const created = await addReader(ctx(), { block_id: 'A' });
    expect(created.secret.length).toBeGreaterThan(30);
    const [row] = await db().select().from(readers).where(eq(readers.id, created.id));
    expect(row!.secretHash).not.toContain(created.secret);
    expect(await listed(created.id)).toMatchObject({ name: created.name, state: 'reporting', refused_count: 0, block_id: 'A' });
    expect(JSON.stringify(await listed(created.id))).not.toContain(created.secret);
    const bad = await ctx().api('POST', '/readers', { id: 'X1', name: 'X', lat: 91, lng: 0, radius_m: 5 });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/lat/);
    expect((await ctx().api('POST', '/readers', { id: created.id, name: 'Again', lat: 1, lng: 1, radius_m: 5 })).statusCode).toBe(409);
    expect((await ctx().api('DELETE', `/readers/${created.id}`)).statusCode).toBe(200);
    expect(await listed(created.id)).toBeUndefined();
    expect((await ctx().api('DELETE', `/readers/${created.id}`)).statusCode).toBe(404);
  });

  it('an MQTT sighting of a tracker is a fix at the reader, its radius the accuracy; a repeat is stored once', async () => {
    const device = await addDevice(ctx(), { kind: 'tag' });
    const reader = await addReader(ctx(), { lat: 51.501, lng: -0.121, radius_m: 7 });
    const at = Date.now() - 5_000;
    const payload = JSON.stringify({ secret: reader.secret, tags: [{ id: device.id, rssi: -61, at }] });
    await client.publishAsync(topic(reader.id), payload, { qos: 1 });
    await client.publishAsync(topic(reader.id), payload, { qos: 1 });
    await waitFor('the fix', async () => (await fixesOf(device.id)).length === 1);
    const [fix] = await fixesOf(device.id);
    expect(fix).toMatchObject({ latitude: 51.501, longitude: -0.121, accuracy: 7 });
    expect(fix!.recordedAt.getTime()).toBe(at);
    await waitFor('the reader seen', async () => (await listed(reader.id))?.last_seen_at !== null);
    expect((await fixesOf(device.id)).length).toBe(1);
  });

  it('a tag seen by two readers within 2 s lands at the stronger one, in either order', async () => {
    const weak = await addReader(ctx(), { lat: 51.6, lng: -0.2 });
    const strong = await addReader(ctx(), { lat: 51.7, lng: -0.3 });
    const first = await addDevice(ctx(), { kind: 'tag' });
    const second = await addDevice(ctx(), { kind: 'tag' });
    const at = Date.now() - 10_000;
    // Strong first: the weaker sighting half a second later places nothing.
    await client.publishAsync(topic(strong.id), JSON.stringify({ secret: strong.secret, tags: [{ id: first.id, rssi: -50, at }] }), { qos: 1 });
    await waitFor('the strong fix', async () => (await fixesOf(first.id)).length === 1);
    await client.publishAsync(topic(weak.id), JSON.stringify({ secret: weak.secret, tags: [{ id: first.id, rssi: -70, at: at + 500 }] }), { qos: 1 });
    // Weak first: placed, then moved to the stronger one.
    await client.publishAsync(topic(weak.id), JSON.stringify({ secret: weak.secret, tags: [{ id: second.id, rssi: -70, at }] }), { qos: 1 });
    await client.publishAsync(topic(strong.id), JSON.stringify({ secret: strong.secret, tags: [{ id: second.id, rssi: -50, at: at + 500 }] }), { qos: 1 });
    await waitFor('the second tag at the strong reader', async () => (await fixesOf(second.id)).length === 2);
    // The weak reader's message for the first tag has been handled too (its own later sighting came after it).
    await waitFor('the weak reader heard', async () => (await listed(weak.id))?.last_seen_at !== null);
    const firstFixes = await fixesOf(first.id);
    expect(firstFixes.map((f) => [f.latitude, f.longitude])).toEqual([[51.7, -0.3]]);
    const secondFixes = await fixesOf(second.id);
    expect(secondFixes.at(-1)).toMatchObject({ latitude: 51.7, longitude: -0.3 });
    const [device] = await db().select().from(devices).where(eq(devices.id, second.id));
    expect(device).toMatchObject({ lastLatitude: 51.7, lastLongitude: -0.3 });
  });

  it('a wrong secret, an unknown reader and malformed payloads store nothing and are counted against the reader', async () => {
    const device = await addDevice(ctx(), { kind: 'tag' });
    const reader = await addReader(ctx());
    const at = Date.now() - 3_000;
    await client.publishAsync(topic(reader.id), JSON.stringify({ secret: 'wrong', tags: [{ id: device.id, rssi: -40, at }] }), { qos: 1 });
    await client.publishAsync(topic(reader.id), '{ not json', { qos: 1 });
    await client.publishAsync(topic(reader.id), JSON.stringify({ secret: reader.secret, tags: Array.from({ length: 101 }, () => ({ id: device.id, rssi: -40 })) }), { qos: 1 });
    await client.publishAsync(topic('nobody'), JSON.stringify({ secret: reader.secret, tags: [{ id: device.id, rssi: -40, at }] }), { qos: 1 });
    await waitFor('three refusals counted', async () => (await listed(reader.id))?.refused_count === 3, 20_000);
    // Over HTTP: 401 in one wording for a wrong secret and an unknown reader, 400 naming the field for a bad message.
    const post = (body: unknown) => fetch(`${base()}${API_PREFIX}/ingest/sightings`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const wrong = await post({ reader_id: reader.id, secret: 'wrong', tags: [{ id: device.id, rssi: -40, at }] });
    const unknown = await post({ reader_id: 'nobody', secret: reader.secret, tags: [{ id: device.id, rssi: -40, at }] });
    expect([wrong.status, unknown.status]).toEqual([401, 401]);
    const message = async (res: Response) => ((await res.json()) as { message: string }).message;
    expect(await message(wrong)).toBe(await message(unknown));
    const malformed = await post({ reader_id: reader.id, secret: reader.secret, tags: [{ id: device.id, rssi: 'loud' }] });
    expect(malformed.status).toBe(400);
    expect(await message(malformed)).toMatch(/^tags\.0\.rssi/);
    await waitFor('five refusals counted', async () => (await listed(reader.id))?.refused_count === 5);
    expect(await fixesOf(device.id)).toEqual([]);
    expect((await listed(reader.id))?.last_seen_at).toBeNull();
    // The right secret over HTTP stores the sighting.
    const ok = await post({ reader_id: reader.id, secret: reader.secret, tags: [{ id: device.id, rssi: -40, at }] });
    expect(await ok.json()).toEqual({ stored: 1, ignored: 0 });
    expect((await fixesOf(device.id)).length).toBe(1);
  });

  /** A prisoner's phone that walked out of his perimeter through the OsmAnd route: its Critical alert is open. */
  async function phoneInBreach(centre: [number, number]): Promise<{ phone: DeviceCreated; alertId: number }> {
    const prisoner = await addPrisoner(ctx());
    const phone = await addDevice(ctx(), { kind: 'phone', prisoner_id: prisoner.id });
    const perimeter = await ctx().api('POST', '/geofence/add', {
      geofence_id: `perimeter-${prisoner.id}`,
      name: `Perimeter ${prisoner.id}`,
      shape: 'Circle',
      type: 'Negative',
      alert_type: 'Critical',
      radius: 200,
      center_lat: centre[0],
      center_lng: centre[1],
      applies_to: { prisoner_ids: [prisoner.id] },
      dwell_seconds: 0, // the breach at the first fix outside, without waiting for the dwell timer
    });
    expect(perimeter.statusCode, perimeter.body).toBeLessThan(300);
    const osmand = async (metresEast: number, at: number) => {
      const [lat, lon] = destinationPoint(centre[0], centre[1], metresEast, 90);
      const query = new URLSearchParams({ id: phone.id, secret: phone.secret, lat: String(lat), lon: String(lon), timestamp: new Date(at).toISOString() });
      const res = await fetch(`${base()}${API_PREFIX}/ingest/osmand?${query}`);
      expect(res.status, await res.text()).toBe(200);
    };
    const now = Date.now();
    await osmand(10, now - 30_000);
    await osmand(500, now - 20_000);
    const [alert] = await db().select().from(alerts).where(and(eq(alerts.deviceId, phone.id), eq(alerts.kind, 'geofence')));
    expect(alert).toMatchObject({ alertType: 'Critical', endedAt: null });
    return { phone, alertId: alert!.id };
  }

  const refusedMetric = async (protocol: 'reader' | 'mqtt') => {
    const metric = await ctx().app.metricsRegistry!.getSingleMetric('prison_fixes_refused_total')!.get();
    return metric.values.find((v) => v.labels.protocol === protocol)?.value ?? 0;
  };

  it("a reader's sighting of a phone is refused, counted and never stored, over HTTP and MQTT: the phone's breach stays open", async () => {
    const centre: [number, number] = [51.3, -0.4];
    const { phone, alertId } = await phoneInBreach(centre);
    // The reader is inside the perimeter: stored, its sighting would bring the phone back in and end the breach.
    const reader = await addReader(ctx(), { lat: centre[0], lng: centre[1], radius_m: 5 });
    const tag = await addDevice(ctx(), { kind: 'tag' });
    const [httpRefused, mqttRefused] = [await refusedMetric('reader'), await refusedMetric('mqtt')];
    const at = Date.now() - 5_000;
    const res = await fetch(`${base()}${API_PREFIX}/ingest/sightings`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ reader_id: reader.id, secret: reader.secret, tags: [{ id: phone.id, rssi: -40, at }, { id: tag.id, rssi: -40, at }] }),
    });
    // The tag in the same message is placed as always.
    expect(await res.json()).toEqual({ stored: 1, ignored: 1 });
    await client.publishAsync(topic(reader.id), JSON.stringify({ secret: reader.secret, tags: [{ id: phone.id, rssi: -40, at: at + 1_000 }] }), { qos: 1 });
    await waitFor('both refusals counted against the reader', async () => (await listed(reader.id))?.refused_count === 2);
    expect([await refusedMetric('reader'), await refusedMetric('mqtt')]).toEqual([httpRefused + 1, mqttRefused + 1]);
    expect((await fixesOf(tag.id)).length).toBe(1);
    const phoneFixes = await fixesOf(phone.id);
    expect(phoneFixes).toHaveLength(2);
    expect(phoneFixes.some((f) => f.latitude === centre[0] && f.longitude === centre[1])).toBe(false);
    const [alert] = await db().select().from(alerts).where(eq(alerts.id, alertId));
    expect(alert!.endedAt).toBeNull();
    const [row] = await db().select().from(devices).where(eq(devices.id, phone.id));
    expect(row!.lastLongitude).toBeGreaterThan(centre[1]);
  });

  it("a tag's fix does not end a violation raised by a phone: a reader-placed fix of a phone is refused by the tracking core too", async () => {
    const centre: [number, number] = [51.2, -0.5];
    const { phone, alertId } = await phoneInBreach(centre);
    const tag = await addDevice(ctx(), { kind: 'tag' });
    // What the sighting intake hands over, as if a reader's sighting of the phone had got past it.
    const placed = (deviceId: string) => ({ deviceId, latitude: centre[0], longitude: centre[1], recordedAt: new Date(Date.now() - 1_000), accuracy: 5, fromReader: true });
    expect(await ctx().app.tracking.submit([placed(phone.id), placed(tag.id)])).toEqual(['refused', 'stored']);
    expect(await fixesOf(phone.id)).toHaveLength(2);
    const [alert] = await db().select().from(alerts).where(eq(alerts.id, alertId));
    expect(alert!.endedAt).toBeNull();
    // The phone's own fix back inside ends it, as always.
    const [lat, lon] = destinationPoint(centre[0], centre[1], 10, 90);
    const query = new URLSearchParams({ id: phone.id, secret: phone.secret, lat: String(lat), lon: String(lon), timestamp: new Date().toISOString() });
    expect((await fetch(`${base()}${API_PREFIX}/ingest/osmand?${query}`)).status).toBe(200);
    const [ended] = await db().select().from(alerts).where(eq(alerts.id, alertId));
    expect(ended!.endedAt).not.toBeNull();
  });

  it('a new secret is answered once and audited; the old one is refused from then on, over HTTP and MQTT', async () => {
    const device = await addDevice(ctx(), { kind: 'tag' });
    const reader = await addReader(ctx());
    const post = (secret: string, at: number) =>
      fetch(`${base()}${API_PREFIX}/ingest/sightings`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ reader_id: reader.id, secret, tags: [{ id: device.id, rssi: -40, at }] }) });
    expect((await post(reader.secret, Date.now() - 9_000)).status).toBe(200);
    const rotated = await ctx().api('POST', `/readers/${reader.id}/rotate-secret`);
    expect(rotated.statusCode, rotated.body).toBe(200);
    const { secret, ...listedAfter } = rotated.json<ReaderCreated>();
    expect(secret).toMatch(/^[\w-]{43}$/);
    expect(secret).not.toBe(reader.secret);
    expect(listedAfter.id).toBe(reader.id);
    const [stored] = await db().select({ hash: readers.secretHash }).from(readers).where(eq(readers.id, reader.id));
    expect(stored!.hash).toBe(hashSecret(secret));
    expect((await post(reader.secret, Date.now() - 6_000)).status).toBe(401);
    await client.publishAsync(topic(reader.id), JSON.stringify({ secret: reader.secret, tags: [{ id: device.id, rssi: -40, at: Date.now() - 5_000 }] }), { qos: 1 });
    await waitFor('the old secret over MQTT refused', async () => (await listed(reader.id))?.refused_count === 2, 20_000);
    expect((await post(secret, Date.now() - 3_000)).status).toBe(200);
    expect((await fixesOf(device.id)).length).toBe(2);
    // Audited without the secret; an unknown reader is a 404.
    const audit = (await db().execute(sql`select action, after from audit_log where entity = 'reader' and entity_id = ${reader.id} order by id`)) as unknown as { rows: { action: string; after: unknown }[] };
    expect(audit.rows.map((r) => r.action)).toEqual(['create', 'rotate-secret']);
    expect(JSON.stringify(audit.rows)).not.toContain(secret);
    expect((await ctx().api('POST', '/readers/nobody/rotate-secret')).statusCode).toBe(404);
  });

  it(`${process.env.READERS_LOAD_FULL ? 200 : 50} readers publishing 10 sightings a second each lose no sighting of a registered tag, each stored once`, async () => {
    const full = Boolean(process.env.READERS_LOAD_FULL);
    const readerTotal = full ? 200 : 50;
    const seconds = full ? 30 : 5;
    const perSecond = 10;
    // Registered in two statements (the API's one-by-one registration is covered above): the load is what is measured.
    const created = Array.from({ length: readerTotal }, (_, i) => ({ reader: { id: `LOAD-R-${i}`, secret: `load-secret-${i}` }, tag: `LOAD-TAG-${i}` }));
    await db().insert(devices).values(created.map((c) => ({ id: c.tag, name: c.tag, kind: 'tag' as const, secretHash: hashSecret('unused') })));
    await db()
      .insert(readers)
      .values(created.map((c, i) => ({ id: c.reader.id, name: c.reader.id, latitude: 51.4 + i / 10_000, longitude: -0.1, radiusM: 5, secretHash: hashSecret(c.reader.secret) })));
    await ctx().app.tracking.registry.refreshAll(db());
    await ctx().app.readers.reload();
    const publishers = await Promise.all(Array.from({ length: 8 }, () => publisher(broker().url)));
    const start = Date.now() - 120_000;
    const began = Date.now();
    for (let tick = 0; tick < seconds * perSecond; tick++) {
      // Paced at 10 a second per reader, each message's instant its own 100 ms step.
      const due = began + tick * (1000 / perSecond);
      if (due > Date.now()) await new Promise((resolve) => setTimeout(resolve, due - Date.now()));
      await Promise.all(
        created.map(({ reader, tag }, i) =>
          publishers[i % publishers.length]!.publishAsync(topic(reader.id), JSON.stringify({ secret: reader.secret, tags: [{ id: tag, rssi: -60, at: start + tick * 100 }] }), { qos: 1 }),
        ),
      );
    }
    const published = Date.now() - began;
    const expected = readerTotal * seconds * perSecond;
    const tags = created.map((c) => c.tag);
    const stored = async () =>
      Number((await db().select({ n: sql<number>`count(*)` }).from(positions).where(inArray(positions.deviceId, tags)))[0]!.n);
    console.log(`readers load: ${expected} sightings published in ${published} ms; ${await stored()} stored so far`);
    await waitFor(`${expected} fixes`, async () => (await stored()) >= expected, full ? 600_000 : 120_000, 500);
    const perTag = await db()
      .select({ n: sql<number>`count(*)`, distinct: sql<number>`count(distinct ${positions.recordedAt})` })
      .from(positions)
      .where(inArray(positions.deviceId, tags))
      .groupBy(positions.deviceId);
    expect(perTag).toHaveLength(readerTotal);
    for (const tag of perTag) expect([Number(tag.n), Number(tag.distinct)]).toEqual([seconds * perSecond, seconds * perSecond]);
    console.log(`readers load: ${expected} sightings from ${readerTotal} readers published in ${published} ms, all stored once in ${Date.now() - began} ms`);
    await Promise.all(publishers.map((p) => p.endAsync()));
  }, process.env.READERS_LOAD_FULL ? 900_000 : 240_000);
});

describe.skipIf(!binary)('silent readers', () => {
  const { ctx, broker } = useReadersApp(1);
  const silenceAlerts = () => ctx().database.db.select().from(alerts).where(and(eq(alerts.kind, 'reader_silent')));

  it('a reader not heard for READER_SILENT_SECONDS raises one Warning alert and shows silent; reporting again ends it', async () => {
    const reader = await addReader(ctx(), { name: 'Corridor East' });
    const listed = async () => (await ctx().api('GET', '/readers')).json<{ data: Reader[] }>().data.find((r) => r.id === reader.id);
    await waitFor('the silence alert', async () => (await silenceAlerts()).length === 1);
    const [alert] = await silenceAlerts();
    expect(alert).toMatchObject({ alertType: 'Warning', details: 'Reader Corridor East is silent', endedAt: null });
    expect((await listed())?.state).toBe('silent');
    // Several sweeps later, still one alert for this silence.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(await silenceAlerts()).toHaveLength(1);
    const client = await publisher(broker().url);
    await client.publishAsync(topic(reader.id), JSON.stringify({ secret: reader.secret, tags: [{ id: 'no-such-tag', rssi: -60 }] }), { qos: 1 });
    await client.endAsync();
    await waitFor('the alert ended', async () => (await silenceAlerts())[0]?.endedAt !== null);
    expect((await listed())?.state).toBe('reporting');
    expect(await silenceAlerts()).toHaveLength(1);
  });
});
