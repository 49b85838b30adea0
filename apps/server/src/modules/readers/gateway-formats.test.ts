// Real BLE gateways through a Mosquitto broker of this test's own and the HTTP route: an OpenMQTTGateway / Theengs
// message per tag and a Minew array each become the same sightings as ours, a tag is stored once however often an
// upload repeats, a phone is refused and counted, and each format counts under its own name in /metrics.
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import mqtt, { type MqttClient } from 'mqtt';
import { API_PREFIX, type Reader, type ReaderCreated } from '@prison/shared';
import { positions } from '../../db/schema';
import { addDevice } from '../../tracking/tracking-test-kit';
import { startTestApp, type TestContext } from '../../../test/test-app';
import { mosquittoBinary, startMosquitto, type TestBroker } from '../../../test/mosquitto';
import { waitFor } from '../../../test/wait-for';

const binary = mosquittoBinary();
const METRICS_TOKEN = 'gateway-formats-test-metrics-token';
/** This suite's own ports: it must not meet the readers suite's broker. */
const BROKER_PORTS = { from: 5200, to: 5249 };

describe.skipIf(!binary)('BLE gateways in their own formats', () => {
  let broker: TestBroker;
  let ctx: TestContext;
  let base = '';
  let client: MqttClient;
  beforeAll(async () => {
    broker = await startMosquitto(binary!, BROKER_PORTS);
    ctx = await startTestApp('pglite', { MQTT_URL: broker.url, OSMAND_PORT: 0, HOST: '127.0.0.1', METRICS_TOKEN });
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
    await waitFor('the MQTT subscription', () => ctx.app.fixSourceLinks().some((link) => link.name === 'mqtt' && link.state === 'up'), 20_000);
    client = await mqtt.connectAsync(broker.url, { reconnectPeriod: 0 });
  }, 240_000);
  afterAll(async () => {
    await client?.endAsync();
    await ctx?.app.close();
    await ctx?.database.close();
    await broker?.stop();
  });

  const fixesOf = (deviceId: string) => ctx.database.db.select().from(positions).where(eq(positions.deviceId, deviceId)).orderBy(positions.recordedAt);
  const listed = async (id: string) => (await ctx.api('GET', '/readers')).json<{ data: Reader[] }>().data.find((r) => r.id === id);
  const addReader = async (id: string, format: string, lat: number): Promise<ReaderCreated> => {
    const res = await ctx.api('POST', '/readers', { id, name: `Gateway ${id}`, lat, lng: -0.12, radius_m: 4, format });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<ReaderCreated>();
  };
  const counted = async (name: string, protocol: string) => {
    const metric = await ctx.app.metricsRegistry!.getSingleMetric(name)!.get();
    return metric.values.find((v) => v.labels.protocol === protocol)?.value ?? 0;
  };
  const counts = async (protocol: string) => ({
    received: await counted('prison_fixes_received_total', protocol),
    refused: await counted('prison_fixes_refused_total', protocol),
    stored: await counted('prison_fixes_stored_by_protocol_total', protocol),
  });

  it('registers a reader with its format, ours by default, and refuses an unknown format naming the field', async () => {
    const omg = await addReader('wing-a-gw', 'openmqttgateway', 51.51);
    expect(omg.format).toBe('openmqttgateway');
    const ours = await ctx.api('POST', '/readers', { id: 'ours-1', name: 'Ours', lat: 51.5, lng: -0.12, radius_m: 4 });
    expect(ours.json<Reader>().format).toBe('prison');
    const bad = await ctx.api('POST', '/readers', { id: 'bad-1', name: 'Bad', lat: 51.5, lng: -0.12, radius_m: 4, format: 'ruuvi' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/format/);
  });

  it('OpenMQTTGateway / Theengs: one message per tag on {prefix}/{gateway}/BTtoMQTT/{MAC} places the tag at the gateway; a phone is refused', async () => {
    const tag = await addDevice(ctx, { kind: 'tag', id: 'C7:FA:E9:D4:A2:B1' });
    const phone = await addDevice(ctx, { kind: 'phone', id: 'D1:00:00:00:00:01' });
    const before = await counts('openmqttgateway_mqtt');
    await client.publishAsync('home/wing-a-gw/BTtoMQTT/C7FAE9D4A2B1', JSON.stringify({ id: 'c7:fa:e9:d4:a2:b1', mac_type: 1, rssi: -67, txpower: -59, name: 'tag' }), { qos: 1 });
    await client.publishAsync('home/wing-a-gw/BTtoMQTT/D10000000001', JSON.stringify({ id: 'D1:00:00:00:00:01', rssi: -50 }), { qos: 1 });
    // A gateway that is not registered, and a message that is not the format's, store nothing.
    await client.publishAsync('home/stranger-gw/BTtoMQTT/C7FAE9D4A2B1', JSON.stringify({ id: 'C7:FA:E9:D4:A2:B1', rssi: -30 }), { qos: 1 });
    await client.publishAsync('home/wing-a-gw/BTtoMQTT/C7FAE9D4A2B1', JSON.stringify({ id: 'C7:FA:E9:D4:A2:B1' }), { qos: 1 });
    await waitFor('every message handled', async () => (await counts('openmqttgateway_mqtt')).received - before.received === 4);
    const fixes = await fixesOf(tag.id);
    expect(fixes.map((f) => [f.latitude, f.longitude, f.accuracy])).toEqual([[51.51, -0.12, 4]]);
    expect(await fixesOf(phone.id)).toEqual([]);
    expect(await counts('openmqttgateway_mqtt')).toEqual({ received: before.received + 4, refused: before.refused + 3, stored: before.stored + 1 });
    // The phone and the malformed message count against the registered gateway; the stranger is in the metrics only.
    await waitFor('two refusals against the gateway', async () => (await listed('wing-a-gw'))?.refused_count === 2);
  });

  it('Minew: an array per scan on /gw/{MAC}/status, the gateway entry skipped; an upload repeated stores each tag once', async () => {
    await addReader('ac233fc07da5', 'minew', 51.52);
    const first = await addDevice(ctx, { kind: 'tag', id: '0B:E3:83:05:0D:E8' });
    const second = await addDevice(ctx, { kind: 'tag', id: 'E4:00:00:00:00:02' });
    const before = await counts('minew_mqtt');
    const at = Date.now() - 4_000;
    const upload = JSON.stringify([
      { timestamp: new Date(at).toISOString(), type: 'Gateway', mac: 'AC233FC07DA5', gatewayFree: 42, gatewayLoad: 1.15 },
      { timestamp: new Date(at).toISOString(), type: 'iBeacon', mac: '0BE383050DE8', bleName: '', ibeaconUuid: '6A08635B25F7410A8CF860EEFA2E6EAB', ibeaconMajor: 1000, ibeaconMinor: 1500, rssi: -58, ibeaconTxPower: -70, battery: 0 },
      { timestamp: new Date(at + 250).toISOString(), type: 'Unknown', mac: 'E40000000002', bleName: '', rssi: -71, rawData: '0201061AFF4C000215' },
      // A visitor's beacon: no tracker has it, so it is ignored, not refused.
      { timestamp: new Date(at).toISOString(), type: 'Unknown', mac: 'FFEEDDCCBBAA', bleName: '', rssi: -60, rawData: '' },
    ]);
    await client.publishAsync('/gw/ac233fc07da5/status', upload, { qos: 1 });
    await client.publishAsync('/gw/ac233fc07da5/status', upload, { qos: 1 });
    await waitFor('both uploads handled', async () => (await counts('minew_mqtt')).received - before.received === 6);
    // Received is counted as a message arrives; its sightings are stored a moment later, on a loaded machine later still.
    await waitFor('both tags stored', async () => (await fixesOf(first.id)).length > 0 && (await fixesOf(second.id)).length > 0);
    const [firstFix] = await fixesOf(first.id);
    expect(await fixesOf(first.id)).toHaveLength(1);
    expect(firstFix).toMatchObject({ latitude: 51.52, longitude: -0.12, accuracy: 4 });
    expect(firstFix!.recordedAt.getTime()).toBe(at);
    expect((await fixesOf(second.id)).map((f) => f.recordedAt.getTime())).toEqual([at + 250]);
    expect(await counts('minew_mqtt')).toEqual({ received: before.received + 6, refused: before.refused, stored: before.stored + 2 });
    await waitFor('the gateway seen', async () => (await listed('ac233fc07da5'))?.last_seen_at !== null);
  });

  it('over HTTP each gateway posts its own format with its secret as Bearer or Basic; a wrong secret is 401, a wrong shape 400', async () => {
    const gw = await addReader('minew-http', 'minew', 51.53);
    const omg = await addReader('omg-http', 'openmqttgateway', 51.54);
    const tag = await addDevice(ctx, { kind: 'tag', id: 'A0:00:00:00:00:03' });
    const post = (id: string, authorization: string, body: unknown) =>
      fetch(`${base}${API_PREFIX}/ingest/readers/${id}/sightings`, { method: 'POST', headers: { 'content-type': 'application/json', authorization }, body: JSON.stringify(body) });
    const basic = (secret: string) => `Basic ${Buffer.from(`gateway:${secret}`).toString('base64')}`;
    const before = await counts('minew_http');
    const at = Date.now() - 3_000;
    const minewBody = [{ timestamp: new Date(at).toISOString(), type: 'iBeacon', mac: 'A00000000003', rssi: -60 }];
    const ok = await post(gw.id, basic(gw.secret), minewBody);
    expect(await ok.json()).toEqual({ stored: 1, ignored: 0 });
    const again = await post(gw.id, basic(gw.secret), minewBody);
    expect(await again.json()).toEqual({ stored: 0, ignored: 1 });
    expect((await post(gw.id, basic('wrong'), minewBody)).status).toBe(401);
    const wrongShape = await post(gw.id, `Bearer ${gw.secret}`, { id: 'A0:00:00:00:00:03', rssi: -60 });
    expect(wrongShape.status).toBe(400);
    expect(((await wrongShape.json()) as { message: string }).message).toMatch(/^body: not a message in this reader's format \(Minew/);
    expect(await counts('minew_http')).toEqual({ received: before.received + 3, refused: before.refused + 1, stored: before.stored + 1 });
    // OpenMQTTGateway objects over HTTP, a list of them as one message.
    const omgRes = await post(omg.id, `Bearer ${omg.secret}`, [{ id: 'a0:00:00:00:00:03', rssi: -40 }]);
    expect(await omgRes.json()).toEqual({ stored: 1, ignored: 0 });
    expect((await fixesOf(tag.id)).at(-1)).toMatchObject({ latitude: 51.54 });
    expect((await counts('openmqttgateway_http')).stored).toBe(1);
  });
});
