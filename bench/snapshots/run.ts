// bench/snapshots: what the complete set of live positions costs when browsers that ask for nothing (the spec's
// client) receive it every second (docs/decisions/018). 10,000 online tracked prisoners, 2,000 fixes/s applied to the
// server's live state in-process (bench/ingest measures ingestion itself), 50 real socket.io-client browsers in a
// worker thread connected to the real server listening on a port. Three runs, the same load:
//   1. full set, emitted to the room of those browsers (what the server does: built and encoded once per tick);
//   2. baseline: the same set emitted once per socket (encoded once per browser);
//   3. baseline: browsers that ask for deltas, receiving `locationChanges` every 250 ms (our web app).
// Figures: server time per tick (build + serialise + emit, synchronous), server main-thread busy share, bytes per
// event, events per second per browser, and latency from the tick's start to the event's arrival in every browser and
// to the parsed event in the one socket.io-client browser (see browsers-worker.ts).
//
//   npm run snapshots -w @prison/bench -- [--seconds 15] [--prisoners 10000] [--browsers 50] [--fixes 2000]
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { Worker } from 'node:worker_threads';
import { API_PREFIX, AUTH_COOKIE } from '@prison/shared';
import { buildApp } from '../../apps/server/src/app';
import { loadConfig } from '../../apps/server/src/config';
import { createPglite, fromPglite } from '../../apps/server/src/db/client';
import { devices, prisoners } from '../../apps/server/src/db/schema';
import { createAdmin } from '../../apps/server/src/modules/admin/admin-service';
import { FULL_SET_BROWSERS_ROOM } from '../../apps/server/src/plugins/realtime';
import { hashSecret } from '../../apps/server/src/tracking/device-registry';
import { FULL_SET_MS, LIVE_FLUSH_MS } from '../../apps/server/src/tracking/live-positions';
import { percentile, printFigures, type Figure } from '../lib/report';
import type { BrowsersCommand, BrowsersOptions, BrowsersResult } from './browsers-worker';

const { values: args } = parseArgs({
  options: {
    seconds: { type: 'string', default: '15' },
    prisoners: { type: 'string', default: '10000' },
    browsers: { type: 'string', default: '50' },
    fixes: { type: 'string', default: '2000' },
  },
});
const SECONDS = Number(args.seconds);
const PRISONERS = Number(args.prisoners);
const BROWSERS = Number(args.browsers);
const FIXES_PER_SECOND = Number(args.fixes);
const CENTRE = { lat: 51.5, lng: -0.12 };
const SPAN_DEGREES = 0.02;
const CLOCK_DEVICE = 'bench-0';
const ADMIN = { username: 'bench', name: 'Bench', password: 'measure twice, cut once' };
const log = (text: string) => console.log(`[snapshots bench] ${text}`);

type Mode = 'full set to the room' | 'full set, one emit per socket' | 'deltas (locationChanges)';

interface RunResult {
  mode: Mode;
  tickMs: number[];
  busyShare: number;
  browsers: BrowsersResult;
  seconds: number;
}

const database = fromPglite(await createPglite());
await database.migrate();
const t0 = performance.now();
const now = new Date();
const deviceRows = Array.from({ length: PRISONERS }, (_, i) => ({
  id: `bench-${i}`,
  name: `Bench tracker ${i}`,
  secretHash: hashSecret(`bench-secret-${i}`),
  online: true,
  lastSeenAt: now,
  lastFixAt: now,
  lastLatitude: CENTRE.lat + (Math.random() - 0.5) * SPAN_DEGREES,
  lastLongitude: CENTRE.lng + (Math.random() - 0.5) * SPAN_DEGREES,
}));
for (let i = 0; i < deviceRows.length; i += 2000) await database.db.insert(devices).values(deviceRows.slice(i, i + 2000));
const prisonerRows = deviceRows.map((d, i) => ({ firstName: 'Bench', lastName: `Prisoner ${i}`, status: 'Incarcerated', trackingDeviceId: d.id }));
for (let i = 0; i < prisonerRows.length; i += 2000) await database.db.insert(prisoners).values(prisonerRows.slice(i, i + 2000));
await createAdmin(database.db, ADMIN);
log(`seeded ${PRISONERS} tracked prisoners in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

const config = loadConfig({ DEMO: 'false', LOG_LEVEL: 'warn', WEB_DIST: '/nonexistent', OSMAND_PORT: '0', HOST: '127.0.0.1', DEVICE_OFFLINE_SECONDS: '3600' });
const app = await buildApp({ config, database, logger: false });
await app.listen({ port: 0, host: '127.0.0.1' });
// The bench drives the ticks itself (the same methods the timers call), so each tick is timed.
app.tracking.live.stop();
const live = app.tracking.live;
const registry = app.tracking.registry;
const online = [...registry.all()].filter((d) => d.online && d.latitude !== null);
log(`${online.length} devices online in the server's registry`);
const login = await app.inject({ method: 'POST', url: `${API_PREFIX}/admin/login`, payload: { username: ADMIN.username, password: ADMIN.password } });
const cookie = `${AUTH_COOKIE}=${login.json<{ token: string }>().token}`;
const baseUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;

/** What the ingest path does after a fix is committed: new position in the registry, then `moved`. */
function applyFixes(count: number): void {
  const at = Date.now();
  for (let k = 0; k < count; k++) {
    const device = online[1 + Math.floor(Math.random() * (online.length - 1))]!;
    device.latitude! += (Math.random() - 0.5) * 0.0001;
    device.longitude! += (Math.random() - 0.5) * 0.0001;
    device.lastFixAt = at;
    live.moved(device);
  }
}

/** The clock device reports at each tick's start: browsers measure latency from its `at`. */
function stampClock(): void {
  const clock = registry.get(CLOCK_DEVICE)!;
  clock.lastFixAt = Date.now();
  live.moved(clock);
}

/** The baseline the room replaces: the set built once, but emitted (so encoded and framed) once per socket. */
function fullSetPerSocket(): void {
  const set = live.snapshot();
  const room = app.realtime.io.sockets.adapter.rooms.get(FULL_SET_BROWSERS_ROOM) ?? new Set<string>();
  for (const id of room) app.realtime.io.sockets.sockets.get(id)?.emit('locationUpdate', set);
}

async function run(mode: Mode): Promise<RunResult> {
  const worker = new Worker(new URL('./browsers-worker-entry.mjs', import.meta.url), {
    workerData: { baseUrl, cookie, browsers: BROWSERS, deltas: mode.startsWith('deltas'), clockDevice: CLOCK_DEVICE } satisfies BrowsersOptions,
  });
  const messages: unknown[] = [];
  let wake: (() => void) | null = null;
  worker.on('message', (message: unknown) => {
    messages.push(message);
    wake?.();
  });
  worker.on('error', (error) => log(`worker failed: ${error.message}`));
  const next = async (): Promise<unknown> => {
    while (messages.length === 0) await new Promise<void>((resolve) => (wake = resolve));
    const message = messages.shift();
    if (typeof message === 'object' && message && 'error' in message) throw new Error(String(message.error));
    return message;
  };
  if ((await next()) !== 'ready') throw new Error('browsers not ready');
  log(`${mode}: ${BROWSERS} browsers connected; measuring ${SECONDS} s`);

  worker.postMessage('measure' satisfies BrowsersCommand);
  const tickMs: number[] = [];
  const timers: NodeJS.Timeout[] = [];
  const fixesPerFlush = Math.round((FIXES_PER_SECOND * LIVE_FLUSH_MS) / 1000);
  const timed = (send: () => void) => () => {
    stampClock();
    const start = performance.now();
    send();
    tickMs.push(performance.now() - start);
  };
  if (mode === 'deltas (locationChanges)') {
    timers.push(setInterval(() => applyFixes(fixesPerFlush), LIVE_FLUSH_MS));
    timers.push(setInterval(timed(() => live.flush()), LIVE_FLUSH_MS));
  } else {
    timers.push(setInterval(() => applyFixes(fixesPerFlush), LIVE_FLUSH_MS));
    // The deltas keep being collected (and dropped: no browser asked for them), as in the server.
    timers.push(setInterval(() => live.flush(), LIVE_FLUSH_MS));
    timers.push(setInterval(timed(mode === 'full set to the room' ? () => live.sendFullSet() : fullSetPerSocket), FULL_SET_MS));
  }
  const elu0 = performance.eventLoopUtilization();
  const started = performance.now();
  await new Promise((resolve) => setTimeout(resolve, SECONDS * 1000));
  for (const timer of timers) clearInterval(timer);
  const busyShare = performance.eventLoopUtilization(elu0).utilization;
  const seconds = (performance.now() - started) / 1000;
  // Let the last events arrive before the browsers stop counting.
  await new Promise((resolve) => setTimeout(resolve, 1500));
  worker.postMessage('stop' satisfies BrowsersCommand);
  const browsers = (await next()) as BrowsersResult;
  await worker.terminate();
  live.flush();
  return { mode, tickMs, busyShare, browsers, seconds };
}

/** Building the set and serialising it, alone (what one tick costs before any browser is written to). */
function breakdown(): Figure[] {
  const build: number[] = [];
  const serialise: number[] = [];
  for (let i = 0; i < 20; i++) {
    let start = performance.now();
    const set = live.snapshot();
    build.push(performance.now() - start);
    start = performance.now();
    JSON.stringify(set);
    serialise.push(performance.now() - start);
  }
  build.sort((a, b) => a - b);
  serialise.sort((a, b) => a - b);
  return [
    { name: `building the full set of ${online.length} p50`, value: percentile(build, 50), unit: 'ms' },
    { name: 'serialising it (JSON.stringify) p50', value: percentile(serialise, 50), unit: 'ms' },
  ];
}
const parts = breakdown();

const results: RunResult[] = [];
for (const mode of ['full set to the room', 'full set, one emit per socket', 'deltas (locationChanges)'] as const) results.push(await run(mode));
await app.close();
await database.close();

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
function figures(result: RunResult, baseline?: RunResult): Figure[] {
  const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
  const measure = (r: RunResult) => {
    const t = sorted(r.tickMs);
    const received = sorted(r.browsers.receivedMs);
    const parsed = sorted(r.browsers.parsedMs);
    const e = sum(r.browsers.events);
    const b = sum(r.browsers.bytes);
    return {
      tickP50: percentile(t, 50),
      tickP99: percentile(t, 99),
      busy: r.busyShare * 100,
      bytesPerEvent: e ? b / e : 0,
      rate: e / BROWSERS / r.seconds,
      perBrowser: b / BROWSERS / r.seconds / 1024,
      receivedP50: percentile(received, 50),
      receivedP99: percentile(received, 99),
      parsedP50: percentile(parsed, 50),
      parsedP99: percentile(parsed, 99),
    };
  };
  const m = measure(result);
  const base = baseline ? measure(baseline) : undefined;
  const name = (text: string) => `${result.mode}: ${text}`;
  return [
    { name: name('server time per tick p50 (build + serialise + emit)'), value: m.tickP50, unit: 'ms', baseline: base?.tickP50 },
    { name: name('server time per tick p99'), value: m.tickP99, unit: 'ms', baseline: base?.tickP99 },
    { name: name('server main thread busy'), value: m.busy, unit: '%', baseline: base?.busy },
    { name: name('bytes per event'), value: m.bytesPerEvent, unit: 'B', baseline: base?.bytesPerEvent },
    { name: name('events per second per browser'), value: m.rate, unit: '/s', baseline: base?.rate, target: result.mode.startsWith('full') ? '<= 1' : '' },
    { name: name('received per browser'), value: m.perBrowser, unit: 'KiB/s', baseline: base?.perBrowser },
    { name: name('tick start -> arrived, all browsers p50'), value: m.receivedP50, unit: 'ms', baseline: base?.receivedP50 },
    { name: name('tick start -> arrived, all browsers p99'), value: m.receivedP99, unit: 'ms', baseline: base?.receivedP99 },
    { name: name('tick start -> parsed by socket.io-client p50'), value: m.parsedP50, unit: 'ms', baseline: base?.parsedP50 },
    { name: name('tick start -> parsed by socket.io-client p99'), value: m.parsedP99, unit: 'ms', baseline: base?.parsedP99 },
  ];
}
const [room, perSocket, deltas] = results as [RunResult, RunResult, RunResult];
printFigures('bench/snapshots: one tick of the full set, in parts', parts);
printFigures(
  `bench/snapshots: ${PRISONERS} tracked prisoners online, ${FIXES_PER_SECOND} fixes/s, ${BROWSERS} browsers, ${SECONDS} s per run (baseline: one emit per socket)`,
  figures(room, perSocket),
);
printFigures(`bench/snapshots: deltas at the same load (baseline: the full set to the room)`, figures(deltas, room));
