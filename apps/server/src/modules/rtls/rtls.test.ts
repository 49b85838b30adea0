// An RTLS (Pozyx's MQTT stream) through a Mosquitto broker of this test's own: a tag's position in plan metres lands
// within 0.5 m of where the default site plan's placement puts it, on a plan turned 30 degrees from north, and moves
// with the next position; a phone, an update without a position and a malformed message store nothing and are counted.
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import mqtt, { type MqttClient } from 'mqtt';
import { destinationPoint, haversineMeters } from '@prison/shared';
import { devices, positions } from '../../db/schema';
import { addDevice } from '../../tracking/tracking-test-kit';
import { startTestApp, type TestContext } from '../../../test/test-app';
import { mosquittoBinary, startMosquitto, type TestBroker } from '../../../test/mosquitto';
import { waitFor } from '../../../test/wait-for';

const binary = mosquittoBinary();
const METRICS_TOKEN = 'rtls-test-metrics-token';
const BROKER_PORTS = { from: 5250, to: 5299 };

// The plan: 0.5 m per pixel, its x axis turned 30 degrees clockwise from east, pixel (0, 0) at ORIGIN.
const ORIGIN = { lat: 51.5, lng: -0.12 };
const TURN = 30;
const SCALE = 0.5;
/** A pixel on the ground: along the image's x axis (bearing 90 + TURN), then down it (bearing 180 + TURN). */
function ground(x: number, y: number) {
  const [lat1, lng1] = destinationPoint(ORIGIN.lat, ORIGIN.lng, x * SCALE, 90 + TURN);
  const [lat, lng] = destinationPoint(lat1, lng1, y * SCALE, 180 + TURN);
  return { lat, lng };
}
const planPoint = (x: number, y: number) => ({ x, y, ...ground(x, y) });
/** The RTLS origin is this pixel; its y axis runs up the image. */
const RTLS_ORIGIN = { x: 20, y: 280 };

/** Where the placement puts an RTLS position: from the origin pixel's ground, x along the image, y up it. */
function expected(xM: number, yM: number) {
  const start = ground(RTLS_ORIGIN.x, RTLS_ORIGIN.y);
  const [lat1, lng1] = destinationPoint(start.lat, start.lng, xM, 90 + TURN);
  const [lat, lng] = destinationPoint(lat1, lng1, yM, TURN);
  return { lat, lng };
}

const BOUNDARY = 'rtls-plan-boundary';
function planUpload() {
  const svg = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 400 300"><rect x="10" y="10" width="100" height="50" fill="#ccc"/></svg>';
  const points = JSON.stringify([planPoint(20, 30), planPoint(380, 40), planPoint(200, 280)]);
  const payload = Buffer.from(
    [
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="name"\r\n\r\nWing A\r\n`,
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="points"\r\n\r\n${points}\r\n`,
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="plan.svg"\r\nContent-Type: image/svg+xml\r\n\r\n${svg}\r\n`,
      `--${BOUNDARY}--\r\n`,
    ].join(''),
  );
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` } };
}

const update = (tagId: string, x: number, y: number, at: number) => ({
  version: '2.0',
  tagId,
  timestamp: at / 1000,
  success: true,
  data: { coordinates: { x, y, z: 1200 }, metrics: { latency: 28, rates: { success: 9.8, update: 10, packetLoss: 0 } } },
});

describe.skipIf(!binary)('an RTLS publishing plan positions (Pozyx)', () => {
  let broker: TestBroker;
  let ctx: TestContext;
  let client: MqttClient;
  beforeAll(async () => {
    broker = await startMosquitto(binary!, BROKER_PORTS);
    ctx = await startTestApp('pglite', {
      MQTT_URL: broker.url,
      RTLS_FORMAT: 'pozyx',
      RTLS_TOPIC: 'tags',
      RTLS_PLAN_ORIGIN: `${RTLS_ORIGIN.x},${RTLS_ORIGIN.y}`,
      RTLS_ACCURACY_M: 0.25,
      OSMAND_PORT: 0,
      HOST: '127.0.0.1',
      METRICS_TOKEN,
    });
    // The plan is placed before the server listens, so the RTLS source finds it when it opens.
    const plan = planUpload();
    const res = await ctx.api('POST', '/site-plans', plan.payload, plan.headers);
    expect(res.statusCode, res.body).toBe(201);
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    expect((ctx.app.server.address() as AddressInfo).port).toBeGreaterThan(0);
    await waitFor('the RTLS subscription', () => ctx.app.fixSourceLinks().some((link) => link.name === 'rtls' && link.state === 'up'), 20_000);
    client = await mqtt.connectAsync(broker.url, { reconnectPeriod: 0 });
  }, 240_000);
  afterAll(async () => {
    await client?.endAsync();
    await ctx?.app.close();
    await ctx?.database.close();
    await broker?.stop();
  });

  const fixesOf = (deviceId: string) => ctx.database.db.select().from(positions).where(eq(positions.deviceId, deviceId)).orderBy(positions.recordedAt);
  const counted = async (name: string) => {
    const metric = await ctx.app.metricsRegistry!.getSingleMetric(name)!.get();
    return metric.values.find((v) => v.labels.protocol === 'rtls')?.value ?? 0;
  };
  const counts = async () => ({
    received: await counted('prison_fixes_received_total'),
    refused: await counted('prison_fixes_refused_total'),
    stored: await counted('prison_fixes_stored_by_protocol_total'),
  });

  it('places a tag within 0.5 m of the plan placement, with the accuracy given, and moves it with the next position', async () => {
    const tag = await addDevice(ctx, { kind: 'tag', id: '30331' });
    const at = Date.now() - 5_000;
    await client.publishAsync('tags', JSON.stringify([update(tag.id, 12_500, 30_000, at)]), { qos: 1 });
    await waitFor('the first fix', async () => (await fixesOf(tag.id)).length === 1);
    const [first] = await fixesOf(tag.id);
    const truth = expected(12.5, 30);
    expect(haversineMeters(first!.latitude, first!.longitude, truth.lat, truth.lng)).toBeLessThan(0.5);
    expect(first!.accuracy).toBe(0.25);
    expect(first!.recordedAt.getTime()).toBe(at);
    // Eight metres further along the plan's x axis a second later: the tag moves between the readers.
    await client.publishAsync('tags', JSON.stringify([update(tag.id, 20_500, 30_000, at + 1_000)]), { qos: 1 });
    await waitFor('the second fix', async () => (await fixesOf(tag.id)).length === 2);
    const moved = expected(20.5, 30);
    const [device] = await ctx.database.db.select().from(devices).where(eq(devices.id, tag.id));
    expect(haversineMeters(device!.lastLatitude!, device!.lastLongitude!, moved.lat, moved.lng)).toBeLessThan(0.5);
    expect(haversineMeters(first!.latitude, first!.longitude, device!.lastLatitude!, device!.lastLongitude!)).toBeGreaterThan(7.5);
  });

  it('refuses a phone and a malformed message, ignores an update without a position, and counts them as rtls', async () => {
    const tag = await addDevice(ctx, { kind: 'tag', id: '30332' });
    const phone = await addDevice(ctx, { kind: 'phone', id: '30333' });
    const before = await counts();
    const at = Date.now() - 4_000;
    await client.publishAsync(
      'tags',
      JSON.stringify([update(tag.id, 1_000, 2_000, at), update(phone.id, 1_000, 2_000, at), { version: '2.0', tagId: tag.id, timestamp: at / 1000 + 0.5, success: false, errorCode: 'NOT_ENOUGH_ANCHORS' }]),
      { qos: 1 },
    );
    await client.publishAsync('tags', '{ not json', { qos: 1 });
    await client.publishAsync('tags', JSON.stringify([{ tagId: tag.id, success: true, data: {} }]), { qos: 1 });
    // Received is counted as a message arrives, refused and stored a moment later.
    await waitFor('every message counted', async () => {
      const now = await counts();
      return now.received - before.received === 5 && now.refused - before.refused === 3 && now.stored - before.stored === 1;
    });
    expect(await counts()).toEqual({ received: before.received + 5, refused: before.refused + 3, stored: before.stored + 1 });
    expect(await fixesOf(phone.id)).toEqual([]);
    expect(await fixesOf(tag.id)).toHaveLength(1);
  });
});
