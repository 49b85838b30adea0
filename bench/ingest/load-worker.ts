// The load of bench/ingest, in its own thread so the server keeps the main one: client loops sending fixes over
// OsmAnd HTTP (one fix per request), a Traccar server's JSON forwarder (one position per request, as Traccar posts it)
// and the gateway batch endpoint, and a logged-in browser socket timing showAlert.
import { performance } from 'node:perf_hooks';
import { parentPort, workerData } from 'node:worker_threads';
import { io } from 'socket.io-client';
import type { BatchPositionsResponse, ShowAlertEvent } from '@prison/shared';

export interface LoadOptions {
  baseUrl: string;
  osmandUrl: string;
  cookie: string;
  devices: number;
  seconds: number;
  osmandLoops: number;
  /** Loops posting as Traccar's JSON forwarder, with this bearer token. */
  traccarLoops: number;
  traccarToken: string;
  batchLoops: number;
  batchSize: number;
  centre: { lat: number; lng: number };
  /** Side of the square the devices roam, in degrees. */
  spanDegrees: number;
}

export interface LoadResult {
  elapsedMs: number;
  ackedOsmand: number;
  ackedTraccar: number;
  ackedBatch: number;
  failed: number;
  firstError: string | null;
  /** Device index and device time (ms) of every acknowledged fix. */
  ackedDevice: Int32Array;
  ackedTime: Float64Array;
  alertLatenciesMs: number[];
  alertsReceived: number;
}

const options = workerData as LoadOptions;
const totalLoops = options.osmandLoops + options.traccarLoops + options.batchLoops;
const lastTime = new Float64Array(options.devices);
const sentAt = new Map<string, number>();
const ackedDevice: number[] = [];
const ackedTime: number[] = [];
const latencies: number[] = [];
let alertsReceived = 0;
let failed = 0;
let firstError: string | null = null;
let ackedOsmand = 0;
let ackedTraccar = 0;
let ackedBatch = 0;
let running = true;

const deviceId = (i: number) => `bench-${i}`;
const key = (i: number, time: number) => `${i}|${time}`;

/** A fix somewhere in the square: a jump, so a share of fixes lands in (and leaves) geofences. */
function nextFix(i: number) {
  const time = Math.max(Date.now(), lastTime[i]! + 1);
  lastTime[i] = time;
  return {
    i,
    time,
    latitude: options.centre.lat + (Math.random() - 0.5) * options.spanDegrees,
    longitude: options.centre.lng + (Math.random() - 0.5) * options.spanDegrees,
  };
}

function fail(error: unknown) {
  failed++;
  firstError ??= error instanceof Error ? error.message : String(error);
}

async function osmandLoop(loop: number) {
  for (let i = loop; running; i += totalLoops) {
    if (i >= options.devices) i = loop;
    const fix = nextFix(i);
    sentAt.set(key(i, fix.time), performance.now());
    try {
      const res = await fetch(`${options.osmandUrl}/?id=${deviceId(i)}&lat=${fix.latitude.toFixed(6)}&lon=${fix.longitude.toFixed(6)}&timestamp=${fix.time}&batt=80`);
      await res.arrayBuffer();
      if (!res.ok) throw new Error(`OsmAnd answered ${res.status}`);
      ackedOsmand++;
      ackedDevice.push(i);
      ackedTime.push(fix.time);
    } catch (error) {
      fail(error);
    }
  }
}

/** Jackson's date as Traccar serialises it: ISO 8601, milliseconds, +00:00. */
const jacksonDate = (ms: number) => new Date(ms).toISOString().replace('Z', '+00:00');

async function traccarLoop(loop: number) {
  for (let i = loop; running; i += totalLoops) {
    if (i >= options.devices) i = loop;
    const fix = nextFix(i);
    sentAt.set(key(i, fix.time), performance.now());
    const time = jacksonDate(fix.time);
    const body = {
      position: {
        id: 0, attributes: { batteryLevel: 80, motion: true }, deviceId: i + 1, protocol: 'gt06', serverTime: time, deviceTime: time,
        fixTime: time, valid: true, latitude: fix.latitude, longitude: fix.longitude, altitude: 0, speed: 2.5, course: 90,
        address: null, accuracy: 0, network: null, geofenceIds: null,
      },
      device: { id: i + 1, attributes: {}, groupId: 0, calendarId: 0, name: deviceId(i), uniqueId: deviceId(i), status: 'online', lastUpdate: time, positionId: 0, phone: null, model: null, contact: null, category: null, disabled: false, expirationTime: null },
    };
    try {
      const res = await fetch(`${options.baseUrl}/api/v1/ingest/traccar`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${options.traccarToken}` },
        body: JSON.stringify(body),
      });
      await res.arrayBuffer();
      if (!res.ok) throw new Error(`Traccar forwarder answered ${res.status}`);
      ackedTraccar++;
      ackedDevice.push(i);
      ackedTime.push(fix.time);
    } catch (error) {
      fail(error);
    }
  }
}

async function batchLoop(loop: number) {
  let i = loop;
  while (running) {
    const fixes = [];
    for (let n = 0; n < options.batchSize; n++) {
      fixes.push(nextFix(i));
      i += totalLoops;
      if (i >= options.devices) i = loop;
    }
    const now = performance.now();
    for (const fix of fixes) sentAt.set(key(fix.i, fix.time), now);
    try {
      const res = await fetch(`${options.baseUrl}/api/v1/ingest/positions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          positions: fixes.map((f) => ({ device_id: deviceId(f.i), secret: `bench-secret-${f.i}`, latitude: f.latitude, longitude: f.longitude, timestamp: f.time, battery: 80 })),
        }),
      });
      if (!res.ok) throw new Error(`batch answered ${res.status}: ${await res.text()}`);
      const body = (await res.json()) as BatchPositionsResponse;
      for (const result of body.results) {
        const fix = fixes[result.index]!;
        if (result.outcome === 'stored') {
          ackedBatch++;
          ackedDevice.push(fix.i);
          ackedTime.push(fix.time);
        } else fail(new Error(result.message ?? result.outcome));
      }
    } catch (error) {
      fail(error);
    }
  }
}

async function main() {
  const socket = io(options.baseUrl, { transports: ['websocket'], extraHeaders: { cookie: options.cookie } });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });
  socket.on('showAlert', (alert: ShowAlertEvent) => {
    alertsReceived++;
    const i = Number(alert.index.slice('bench-'.length));
    const sent = alert.timestamp ? sentAt.get(key(i, Date.parse(alert.timestamp))) : undefined;
    if (sent !== undefined) latencies.push(performance.now() - sent);
  });
  const start = performance.now();
  const loops = [
    ...Array.from({ length: options.osmandLoops }, (_, k) => osmandLoop(k)),
    ...Array.from({ length: options.traccarLoops }, (_, k) => traccarLoop(options.osmandLoops + k)),
    ...Array.from({ length: options.batchLoops }, (_, k) => batchLoop(options.osmandLoops + options.traccarLoops + k)),
  ];
  setTimeout(() => {
    running = false;
  }, options.seconds * 1000);
  await Promise.all(loops);
  const elapsedMs = performance.now() - start;
  // Alerts of the last fixes may still be on their way.
  await new Promise((resolve) => setTimeout(resolve, 500));
  socket.disconnect();
  const result: LoadResult = {
    elapsedMs,
    ackedOsmand,
    ackedTraccar,
    ackedBatch,
    failed,
    firstError,
    ackedDevice: Int32Array.from(ackedDevice),
    ackedTime: Float64Array.from(ackedTime),
    alertLatenciesMs: latencies,
    alertsReceived,
  };
  parentPort!.postMessage(result, [result.ackedDevice.buffer as ArrayBuffer, result.ackedTime.buffer as ArrayBuffer]);
}

main().catch((error: unknown) => {
  parentPort!.postMessage({ error: error instanceof Error ? error.stack : String(error) });
});
