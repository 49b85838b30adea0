// GET /metrics (decision 059): off without METRICS_TOKEN, refused without the token or with a wrong
// one, and with it every promised series, the counters equal to what this test sent through the real protocols.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config';
import { PRODUCT_ROOT } from '../../lib/version';
import {
  addDevice,
  addPrisoner,
  browserSocket,
  connected,
  deviceSocket,
  osmandGet,
  useListeningApp,
  type BrowserSocket,
} from '../../tracking/tracking-test-kit';
import { sample } from '../../../test/metrics-sample';
import { useTestApp } from '../../../test/test-app';
import { tokenMatches } from './routes';

const TOKEN = 'scrape-token-for-the-metrics-test';
const NODE = 'metrics-test-node';
const LAT = 51.5007;
const LNG = -0.1246;
const CLUSTER_ONLY = ['prison_redis_up', 'prison_change_feed_up'];

describe('METRICS_TOKEN', () => {
  it('empty is unset; too short or with spaces stops the start naming it', () => {
    expect(loadConfig({ METRICS_TOKEN: '' }).METRICS_TOKEN).toBeUndefined();
    expect(loadConfig({ METRICS_TOKEN: TOKEN }).METRICS_TOKEN).toBe(TOKEN);
    expect(() => loadConfig({ METRICS_TOKEN: 'short' })).toThrow(/METRICS_TOKEN must be at least 16 characters/);
    expect(() => loadConfig({ METRICS_TOKEN: 'has a space in the middle' })).toThrow(/METRICS_TOKEN/);
  });

  it('compares tokens whatever their length, without throwing', () => {
    expect(tokenMatches(TOKEN, TOKEN)).toBe(true);
    expect(tokenMatches(`${TOKEN}x`, TOKEN)).toBe(false);
    expect(tokenMatches('x', TOKEN)).toBe(false);
    expect(tokenMatches(undefined, TOKEN)).toBe(false);
  });
});

describe('/metrics without METRICS_TOKEN', () => {
  const ctx = useTestApp('pglite');
  it('is off: 404 even with a token, and /readyz still tells the version', async () => {
    const res = await ctx().app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: 'Metrics are off: set METRICS_TOKEN to turn them on' });
    const ready = await ctx().app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.json()).toMatchObject({
      status: 'ready',
      version: expect.stringMatching(/^\d+\.\d+\.\d+/),
      commit: expect.stringMatching(/^([0-9a-f]{4,40}|unknown)$/),
    });
  });
});

describe('/metrics with METRICS_TOKEN', () => {
  const ctx = useListeningApp('pglite', { METRICS_TOKEN: TOKEN, NODE_NAME: NODE });
  const sockets: BrowserSocket[] = [];
  afterAll(() => sockets.forEach((socket) => socket.close()));
  const scrape = (authorization?: string) =>
    fetch(`${ctx().baseUrl}/metrics`, { headers: authorization ? { authorization } : {} });

  it('refuses a scrape without the token, with a wrong one or another scheme', async () => {
    for (const authorization of [
      undefined,
      `Bearer ${TOKEN}x`,
      'Bearer wrong-token-of-enough-length',
      `Basic ${TOKEN}`,
      TOKEN,
    ]) {
      const res = await scrape(authorization);
      expect(res.status, String(authorization)).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe('Bearer realm="metrics"');
      expect(await res.text()).not.toContain('prison_');
    }
  });

  it('counts what the protocols received, refused and stored, and the alerts raised; every promised series is there', async () => {
    const before = await (await scrape(`Bearer ${TOKEN}`)).text();
    const received0 = sample(before, 'prison_fixes_received_total', { protocol: 'osmand' }) ?? 0;
    const stored0 = sample(before, 'prison_fixes_stored_total') ?? 0;
    expect(received0).toBe(0);

    const prisoner = await addPrisoner(ctx());
    const device = await addDevice(ctx(), { prisoner_id: prisoner.id });
    const start = Math.floor(Date.now() / 1000) - 100;
    const SENT = 7;
    for (let i = 0; i < SENT; i++) {
      const res = await osmandGet(ctx().osmandUrl, {
        id: device.id,
        lat: LAT + i * 0.0001,
        lon: LNG,
        timestamp: start + i,
      });
      expect(res.status).toBe(200);
    }
    // Refused: a latitude out of range, an unknown device, a missing id.
    expect((await osmandGet(ctx().osmandUrl, { id: device.id, lat: 91, lon: LNG, timestamp: start + 50 })).status).toBe(
      400,
    );
    expect((await osmandGet(ctx().osmandUrl, { id: 'no-such-device', lat: LAT, lon: LNG })).status).toBe(400);
    expect((await osmandGet(ctx().osmandUrl, { lat: LAT, lon: LNG })).status).toBe(400);
    // An SOS: one more fix stored, one Critical alert raised and still open.
    expect(
      (await osmandGet(ctx().osmandUrl, { id: device.id, lat: LAT, lon: LNG, timestamp: start + 60, alarm: 'sos' }))
        .status,
    ).toBe(200);
    // One fix over the device's Socket.IO protocol, and one logged-in browser.
    const phone = deviceSocket(ctx().baseUrl, { deviceId: device.id, secret: device.secret });
    const browser = browserSocket(ctx().baseUrl, ctx().cookie, { deltas: true });
    sockets.push(phone, browser);
    await Promise.all([connected(phone), connected(browser)]);
    const ack = await phone
      .timeout(5000)
      .emitWithAck('updateLocation', {
        trackingId: device.id,
        latitude: LAT,
        longitude: LNG,
        timestamp: (start + 70) * 1000,
      });
    expect(ack).toEqual({ ok: true });

    const res = await scrape(`Bearer ${TOKEN}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/plain');
    const text = await res.text();
    expect(sample(text, 'prison_fixes_received_total', { protocol: 'osmand' })).toBe(SENT + 3 + 1);
    expect(sample(text, 'prison_fixes_refused_total', { protocol: 'osmand' })).toBe(3);
    expect(sample(text, 'prison_fixes_received_total', { protocol: 'socketio' })).toBe(1);
    expect(sample(text, 'prison_fixes_refused_total', { protocol: 'socketio' })).toBe(0);
    expect(sample(text, 'prison_fixes_stored_total')! - stored0).toBe(SENT + 1 + 1);
    expect(sample(text, 'prison_alerts_raised_total', { level: 'Critical' })).toBe(1);
    expect(sample(text, 'prison_fix_to_alert_seconds_count')).toBe(1);
    expect(sample(text, 'prison_fix_to_alert_seconds_sum')).toBeLessThan(5);
    expect(sample(text, 'prison_open_critical_alerts')).toBe(1);
    expect(sample(text, 'prison_browsers_connected')).toBe(1);
    expect(sample(text, 'prison_socket_connections_total', { kind: 'browser' })).toBe(1);
    expect(sample(text, 'prison_socket_connections_total', { kind: 'device' })).toBe(1);
    expect(sample(text, 'prison_socket_reconnects_total', { kind: 'browser' })).toBe(0);
    expect(sample(text, 'prison_open_critical_alert_oldest_seconds')).toBeGreaterThan(0);
    expect(sample(text, 'prison_open_critical_alert_oldest_seconds')).toBeLessThan(60);
    expect(sample(text, 'prison_escalate_after_seconds')).toBe(120);
    expect(sample(text, 'prison_devices_online')).toBe(1);
    expect(sample(text, 'prison_devices', { state: 'registered' })).toBe(1);
    expect(sample(text, 'prison_write_queue_fixes')).toBe(0);
    expect(sample(text, 'prison_db_pool_connections', { state: 'max' })).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'prison_database_up')).toBe(1);
    expect(sample(text, 'prison_cluster_leader')).toBe(1);
    expect(sample(text, 'nodejs_eventloop_lag_seconds')).toBeGreaterThanOrEqual(0);
    expect(sample(text, 'process_resident_memory_bytes')).toBeGreaterThan(0);
    // Redis and the change feed exist in cluster mode only: a single process does not report them as down.
    for (const name of CLUSTER_ONLY) expect(text).not.toContain(name);
    // Every series carries the node name.
    const series = text.split('\n').filter((line) => line && !line.startsWith('#'));
    expect(series.length).toBeGreaterThan(30);
    for (const line of series) expect(line).toContain(`node="${NODE}"`);
    // The Grafana dashboard in deploy/ asks only for series this server exposes.
    const dashboard = JSON.parse(readFileSync(path.join(PRODUCT_ROOT, 'deploy/grafana-dashboard.json'), 'utf8')) as {
      panels: { targets?: { expr: string }[] }[];
    };
    const asked = new Set(
      dashboard.panels
        .flatMap((panel) => panel.targets ?? [])
        .flatMap((target) => [...target.expr.matchAll(/\b(?:prison|nodejs|process|http)_\w+/g)].map((m) => m[0])),
    );
    expect(asked.size).toBeGreaterThan(10);
    for (const name of [...asked].filter((n) => !CLUSTER_ONLY.includes(n)))
      expect(text, name).toMatch(new RegExp(`^${name}[{ ]`, 'm'));
  });

  it('counts a browser session connecting again as a reconnect', async () => {
    const scrapeText = async () => (await scrape(`Bearer ${TOKEN}`)).text();
    const before = await scrapeText();
    const connections0 = sample(before, 'prison_socket_connections_total', { kind: 'browser' })!;
    const reconnects0 = sample(before, 'prison_socket_reconnects_total', { kind: 'browser' })!;
    const browsers0 = sample(before, 'prison_browsers_connected');
    const first = browserSocket(ctx().baseUrl, ctx().cookie, { deltas: true });
    await connected(first);
    first.close();
    for (let i = 0; i < 100 && sample(await scrapeText(), 'prison_browsers_connected') !== browsers0; i++)
      await new Promise((resolve) => setTimeout(resolve, 20));
    const again = browserSocket(ctx().baseUrl, ctx().cookie, { deltas: true });
    sockets.push(again);
    await connected(again);
    const text = await scrapeText();
    expect(sample(text, 'prison_socket_connections_total', { kind: 'browser' })).toBe(connections0 + 2);
    expect(sample(text, 'prison_socket_reconnects_total', { kind: 'browser' })).toBe(reconnects0 + 1);
  });
});
