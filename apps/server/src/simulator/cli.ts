// `npm run simulate -- --devices N --rate HZ --url URL`: drives any running server through the real device
// protocols. It needs device ids and secrets, from one of:
//   --username/--password (or ADMIN_USERNAME/ADMIN_PASSWORD): logs in and uses the devices named
//     "Simulated tracker N" (tags for --indoor, phones for the rest), registering the missing ones and issuing fresh
//     secrets for the others;
//   --devices-file FILE: a JSON list [{ "id": "...", "secret": "..." }] of devices registered beforehand.
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { API_PREFIX, type ClientSettings, type Device, type DeviceCreated } from '@prison/shared';
import { PrisonSite } from './site';
import { osmandTransport, Simulator, socketTransport, type SimulatedDevice } from './simulator';
import { httpSightingTransport, mqttSightingTransport, type SimulatedReader } from './sightings';

const SIMULATED_NAME = 'Simulated tracker';

const USAGE = `Usage: npm run simulate -- [options]
  --url URL            server address (default http://localhost:3000)
  --devices N          number of trackers (default 20)
  --rate HZ            fixes per second per tracker (default 0.5)
  --protocol P         osmand (default) or socket
  --osmand-url URL     where OsmAnd fixes go (default URL/api/v1/ingest/osmand; e.g. http://host:5055)
  --username U --password P   log in to register or reuse "${SIMULATED_NAME} N" devices
  --devices-file FILE  JSON [{ "id", "secret" }] instead of logging in
  --seconds S          stop after S seconds (default: run until Ctrl+C)
  --breach-every S     seconds between staged breaches (default 45)
  --indoor N           the first N trackers are tags walking the blocks' corridors, seen by the corridor readers
                       (registered, or registered again for a fresh secret; needs --username/--password; the
                       first N of a --devices-file must be registered with kind "tag")
  --mqtt-url URL       readers publish their sightings to this broker (default: POST URL/api/v1/ingest/sightings)`;

async function call<T>(url: string, init: RequestInit & { token?: string } = {}): Promise<T> {
  const res = await fetch(url, {
    ...init,
    headers: { ...(init.body ? { 'content-type': 'application/json' } : {}), ...(init.token ? { authorization: `Bearer ${init.token}` } : {}) },
  });
  const body = (await res.json().catch(() => ({}))) as T & { message?: string };
  if (!res.ok) throw new Error(`${init.method ?? 'GET'} ${url} answered ${res.status}: ${body.message ?? ''}`);
  return body;
}

/**
 * The simulator's own trackers: `indoor` tags first (only a tag may be placed by a reader, decision 092), then phones;
 * reused by kind, the missing ones registered.
 */
async function devicesThroughApi(api: string, username: string, password: string, wanted: number, indoor: number): Promise<SimulatedDevice[]> {
  const { token } = await call<{ token: string }>(`${api}/admin/login`, { method: 'POST', body: JSON.stringify({ username, password }) });
  const { data } = await call<{ data: Device[] }>(`${api}/devices`, { token });
  const mine = data.filter((d) => d.name.startsWith(SIMULATED_NAME));
  const result: SimulatedDevice[] = [];
  const tags = Math.min(indoor, wanted);
  let named = mine.length;
  for (const [kind, count] of [['tag', tags], ['phone', wanted - tags]] as const) {
    const reused = mine.filter((d) => (d.kind ?? 'phone') === kind).slice(0, count);
    // Their secrets were shown once to an earlier run: issue new ones (these devices belong to the simulator).
    for (const device of reused) {
      const rotated = await call<DeviceCreated>(`${api}/devices/${encodeURIComponent(device.id)}/rotate-secret`, { method: 'POST', token });
      result.push({ id: rotated.id, secret: rotated.secret });
    }
    for (let i = reused.length; i < count; i++) {
      const created = await call<DeviceCreated>(`${api}/devices`, { method: 'POST', token, body: JSON.stringify({ name: `${SIMULATED_NAME} ${++named}`, kind }) });
      result.push({ id: created.id, secret: created.secret });
    }
  }
  return result;
}

/** The site's corridor readers, each registered anew so its secret is known (a secret is shown only once). */
async function readersThroughApi(api: string, username: string, password: string, site: PrisonSite): Promise<SimulatedReader[]> {
  const { token } = await call<{ token: string }>(`${api}/admin/login`, { method: 'POST', body: JSON.stringify({ username, password }) });
  const { data } = await call<{ data: { id: string }[] }>(`${api}/readers`, { token });
  const existing = new Set(data.map((reader) => reader.id));
  const result: SimulatedReader[] = [];
  for (const point of site.readerPoints()) {
    if (existing.has(point.id)) await call(`${api}/readers/${encodeURIComponent(point.id)}`, { method: 'DELETE', token });
    const [lat, lng] = site.toLatLng(point.at);
    const created = await call<{ secret: string }>(`${api}/readers`, {
      method: 'POST',
      token,
      body: JSON.stringify({ id: point.id, name: point.name, lat, lng, radius_m: 10, block_id: point.block }),
    });
    result.push({ id: point.id, secret: created.secret, at: point.at });
  }
  return result;
}

async function main() {
  const { values } = parseArgs({
    options: {
      url: { type: 'string', default: 'http://localhost:3000' },
      devices: { type: 'string', default: '20' },
      rate: { type: 'string', default: '0.5' },
      protocol: { type: 'string', default: 'osmand' },
      'osmand-url': { type: 'string' },
      username: { type: 'string', default: process.env.ADMIN_USERNAME },
      password: { type: 'string', default: process.env.ADMIN_PASSWORD },
      'devices-file': { type: 'string' },
      seconds: { type: 'string' },
      'breach-every': { type: 'string', default: '45' },
      indoor: { type: 'string', default: '0' },
      'mqtt-url': { type: 'string' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) return console.log(USAGE);
  const count = Number(values.devices);
  const rate = Number(values.rate);
  if (!Number.isInteger(count) || count < 1) throw new Error('--devices must be a whole number of 1 or more');
  if (!(rate > 0)) throw new Error('--rate must be a positive number of fixes per second');
  if (values.protocol !== 'osmand' && values.protocol !== 'socket') throw new Error('--protocol must be osmand or socket');
  const indoor = Number(values.indoor);
  if (!Number.isInteger(indoor) || indoor < 0) throw new Error('--indoor must be a whole number of 0 or more');
  const base = values.url.replace(/\/$/, '');
  const api = `${base}${API_PREFIX}`;

  let devices: SimulatedDevice[];
  if (values['devices-file']) {
    devices = (JSON.parse(readFileSync(values['devices-file'], 'utf8')) as SimulatedDevice[]).slice(0, count);
  } else if (values.username && values.password) {
    devices = await devicesThroughApi(api, values.username, values.password, count, indoor);
  } else {
    throw new Error(`give --username and --password (or ADMIN_USERNAME/ADMIN_PASSWORD), or --devices-file\n\n${USAGE}`);
  }

  // The map centre comes from the server when it answers (it needs a session), else the default.
  let centre = { lat: 51.5007, lng: -0.1246 };
  if (values.username && values.password) {
    const { token } = await call<{ token: string }>(`${api}/admin/login`, { method: 'POST', body: JSON.stringify({ username: values.username, password: values.password }) });
    centre = (await call<ClientSettings>(`${api}/settings`, { token }).catch(() => ({ mapCenter: centre }))).mapCenter;
  }

  const site = new PrisonSite(centre.lat, centre.lng);
  let readers: SimulatedReader[] = [];
  if (indoor > 0) {
    if (!values.username || !values.password) throw new Error('--indoor needs --username and --password to register the readers');
    readers = await readersThroughApi(api, values.username, values.password, site);
  }
  const sightings = values['mqtt-url'] ? mqttSightingTransport(values['mqtt-url']) : httpSightingTransport(`${api}/ingest/sightings`);
  const transport = values.protocol === 'socket' ? socketTransport(base, devices) : osmandTransport(values['osmand-url'] ?? `${api}/ingest/osmand`);
  let lastError = '';
  const simulator = new Simulator({
    site,
    devices,
    readers,
    sightings,
    indoorDevices: indoor,
    transport,
    rateHz: rate,
    breachEverySeconds: Number(values['breach-every']),
    onError: (error) => {
      lastError = error instanceof Error ? error.message : String(error);
    },
    onSightingError: (error) => {
      lastError = error instanceof Error ? error.message : String(error);
    },
  });
  simulator.start();
  console.log(`Simulating ${devices.length} trackers at ${rate} Hz each over ${values.protocol} (${base}). Ctrl+C stops.`);
  const report = setInterval(() => {
    const readerStats = readers.length ? `; reader messages ${simulator.stats.sightingMessages}, failed ${simulator.stats.sightingsFailed}` : '';
    console.log(`sent ${simulator.stats.sent}, failed ${simulator.stats.failed}${readerStats}${lastError ? ` (last error: ${lastError})` : ''}`);
    lastError = '';
  }, 5000);
  const stop = async () => {
    clearInterval(report);
    await simulator.stop();
    console.log(`stopped: sent ${simulator.stats.sent}, failed ${simulator.stats.failed}`);
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
  if (values.seconds) setTimeout(() => void stop(), Number(values.seconds) * 1000);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
