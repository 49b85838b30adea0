// bench/cluster: the server as separate processes (scripts/cluster.mjs, the code of `npm run cluster`) on PostgreSQL,
// 10,000 devices and 1,000 geofences, OsmAnd single-fix requests from wrk (a C load generator; osmand.lua: a random
// device per request, a fresh timestamp, some requests alert probes), a logged-in browser socket (deltas, as the web
// app) on each process. Four runs in one go, each printed beside the first:
//   (a) 1 process, no balancer (the baseline: one server with PostgreSQL, as today);
//   (b) 1 process behind HAProxy (deploy/haproxy.cfg.template): what the balancer costs;
//   (c1) 1 process behind HAProxy in cluster mode (REDIS_URL): what cluster mode itself costs;
//   (c) N processes behind HAProxy in cluster mode: fixes/s, alert latency to the browser on the OTHER process, CPU
//       per fix.
// Each run also prints the CPU per fix of the database's PostgreSQL backends (/proc of their pids), which share the
// machine's cores with the server.
// Alert latency: from the fix's send time (its timestamp, the wall clock when wrk made the request) to its showAlert.
// With several processes each alert reaches each browser; the one on the process that evaluated the fix has it first
// (a local emit), so the later of the sockets is the other process: that latency is the one reported, an upper
// bound of it. An alert missing on some browser, or shown twice on one, is counted, and so is a geofence alert stored
// for a fix sent while measuring but shown on no browser, or stored twice.
//
//   npm run cluster -w @prison/bench -- [--seconds 15] [--connections 64] [--processes 2] [--devices 10000]
//        [--geofences 1000] [--runs a,b,c1,c]
//
// Needs wrk and haproxy (apt-get install -y wrk haproxy), PostgreSQL (BENCH_PG_URL, default postgres://postgres@
// 127.0.0.1:5432/postgres: a database of its own, created and dropped) and Redis for (c) (BENCH_REDIS_URL, default
// redis://127.0.0.1:6379). Ports: 3410-3439 (processes), 3490-3492 (HAProxy); BENCH_CLUSTER_PORT moves them all.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { io, type Socket } from 'socket.io-client';
import { API_PREFIX, AUTH_COOKIE, type ShowAlertEvent } from '@prison/shared';
import { fromPostgres } from '../../apps/server/src/db/client';
import { devices, geofences, prisoners } from '../../apps/server/src/db/schema';
import { createAdmin } from '../../apps/server/src/modules/admin/admin-service';
import { hashSecret } from '../../apps/server/src/tracking/device-registry';
import { startCluster, type Cluster } from '../../scripts/cluster.mjs';
import { percentile, printFigures, type Figure } from '../lib/report';
import { runWrk, type WrkResult } from '../lib/wrk';

const { values: args } = parseArgs({
  options: {
    seconds: { type: 'string', default: '15' },
    connections: { type: 'string', default: '64' },
    processes: { type: 'string', default: '2' },
    devices: { type: 'string', default: '10000' },
    geofences: { type: 'string', default: '1000' },
    // Which runs, by their letters: `--runs a` measures the one process alone (single-fix throughput, CPU per fix).
    runs: { type: 'string', default: 'a,b,c1,c' },
  },
});
const SECONDS = Number(args.seconds);
const CONNECTIONS = Number(args.connections);
const PROCESSES = Number(args.processes);
const DEVICES = Number(args.devices);
const GEOFENCES = Number(args.geofences);
/** Devices whose prisoner has a Negative zone of its own (a tenth of the geofences), moved in and out of it. */
const PROBES = Math.min(100, Math.floor(GEOFENCES / 10), DEVICES);
const PROBE_SHARE = 0.02;
const ADMIN_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const PORT = Number(process.env.BENCH_CLUSTER_PORT ?? 3410);
const CENTRE = { lat: 51.5, lng: -0.12 };
/** About 55 km across: the Positive zones (50 to 200 m) cover about 1 % of it, so about 1 fix in 100 alerts. */
const SPAN_DEGREES = 0.5;
/** Probe homes are 0.01° (about 1 km) apart, north of the square; a probe's outside fix is 0.005° north of home. */
const PROBE_STEP = 0.01;
const PROBE_OUT = 0.005;
const PROBE_RADIUS_M = 100;
const ADMIN = { username: 'bench', name: 'Bench', password: 'measure twice, cut once' };
const WRK_SCRIPT = path.join(path.dirname(fileURLToPath(import.meta.url)), 'osmand.lua');
const log = (text: string) => console.log(`[cluster bench] ${text}`);

interface Scenario {
  label: string;
  processes: number;
  balancer: boolean;
  redisUrl: string | null;
}

const ALL_SCENARIOS: Scenario[] = [
  { label: '(a) 1 process, no balancer', processes: 1, balancer: false, redisUrl: null },
  { label: '(b) 1 process, HAProxy', processes: 1, balancer: true, redisUrl: null },
  // Cluster mode on one process: what the row lock, the shared positions and the change feed cost, apart from a
  // second process.
  { label: '(c1) 1 process, HAProxy, Redis', processes: 1, balancer: true, redisUrl: REDIS_URL },
  { label: `(c) ${PROCESSES} processes, HAProxy, Redis`, processes: PROCESSES, balancer: true, redisUrl: REDIS_URL },
];
const RUNS = new Set(args.runs.split(','));
const SCENARIOS = ALL_SCENARIOS.filter((scenario) => RUNS.has(scenario.label.slice(1, scenario.label.indexOf(')'))));

function probeHome(k: number) {
  return { lat: CENTRE.lat + SPAN_DEGREES / 2 + PROBE_STEP * (1 + (k % 10)), lng: CENTRE.lng + PROBE_STEP * Math.floor(k / 10) };
}

/** Positive zones for everyone (mixed shapes, as bench/ingest), and one Negative zone per probe prisoner. */
function benchGeofences(probePrisoners: number[]): (typeof geofences.$inferInsert)[] {
  const metresToLat = 1 / 111_320;
  const metresToLng = 1 / (111_320 * Math.cos((CENTRE.lat * Math.PI) / 180));
  const alertType = (i: number) => ['Informational', 'Warning', 'Critical'][i % 3]!;
  const positive = Array.from({ length: GEOFENCES - probePrisoners.length }, (_, i): typeof geofences.$inferInsert => {
    const lat = CENTRE.lat + (Math.random() - 0.5) * SPAN_DEGREES;
    const lng = CENTRE.lng + (Math.random() - 0.5) * SPAN_DEGREES;
    const size = 50 + Math.random() * 150;
    const base = { geofenceId: `bench-fence-${i}`, name: `Zone ${i}`, type: 'Positive', alertType: alertType(i) };
    if (i % 3 === 0) return { ...base, shape: 'Circle', radius: size, centerLat: lat, centerLng: lng };
    if (i % 3 === 1) {
      const [dLat, dLng] = [size * metresToLat, size * metresToLng];
      const coordinates: [number, number][] = [
        [lat - dLat, lng - dLng],
        [lat - dLat, lng + dLng],
        [lat + dLat, lng + dLng],
        [lat + dLat, lng - dLng],
      ];
      return { ...base, shape: 'Rectangle', coordinates };
    }
    const coordinates = Array.from({ length: 32 }, (_, k): [number, number] => {
      const angle = (k / 32) * 2 * Math.PI;
      const r = size * (k % 2 === 0 ? 1 : 0.7);
      return [lat + Math.sin(angle) * r * metresToLat, lng + Math.cos(angle) * r * metresToLng];
    });
    return { ...base, shape: 'Polygon', coordinates };
  });
  const negative = probePrisoners.map((prisonerId, k): typeof geofences.$inferInsert => {
    const home = probeHome(k);
    return {
      geofenceId: `bench-home-${k}`,
      name: `Home of probe ${k}`,
      type: 'Negative',
      alertType: 'Critical',
      shape: 'Circle',
      radius: PROBE_RADIUS_M,
      centerLat: home.lat,
      centerLng: home.lng,
      appliesTo: { prisoner_ids: [prisonerId] },
    };
  });
  return [...positive, ...negative];
}

async function seed(url: string) {
  const database = fromPostgres(url, 4);
  try {
    await database.migrate();
    const rows = Array.from({ length: DEVICES }, (_, i) => ({ id: `bench-${i}`, name: `Bench tracker ${i}`, secretHash: hashSecret(`bench-secret-${i}`) }));
    for (let i = 0; i < rows.length; i += 2000) await database.db.insert(devices).values(rows.slice(i, i + 2000));
    const probePrisoners = (
      await database.db
        .insert(prisoners)
        .values(Array.from({ length: PROBES }, (_, k) => ({ firstName: 'Probe', lastName: `Prisoner ${k}`, status: 'Incarcerated', trackingDeviceId: `bench-${k}` })))
        .returning({ id: prisoners.prisonerId })
    ).map((row) => row.id);
    const fences = benchGeofences(probePrisoners);
    for (let i = 0; i < fences.length; i += 500) await database.db.insert(geofences).values(fences.slice(i, i + 500));
    await createAdmin(database.db, ADMIN);
  } finally {
    await database.close();
  }
  log(`seeded ${DEVICES} devices, ${GEOFENCES - PROBES} Positive zones and ${PROBES} Negative zones of probe prisoners`);
}

async function wrk(url: string, seconds: number): Promise<WrkResult> {
  const env = {
    BENCH_DEVICES: String(DEVICES),
    BENCH_PROBES: String(PROBES),
    BENCH_PROBE_SHARE: String(PROBE_SHARE),
    BENCH_CENTRE_LAT: String(CENTRE.lat),
    BENCH_CENTRE_LNG: String(CENTRE.lng),
    BENCH_SPAN: String(SPAN_DEGREES),
    BENCH_PROBE_STEP: String(PROBE_STEP),
    BENCH_PROBE_OUT: String(PROBE_OUT),
  };
  return runWrk({ url, clients: CONNECTIONS, seconds, script: WRK_SCRIPT, env });
}

/** CPU time (user + system) of a process so far, in ms, from /proc (clock ticks of 10 ms). */
function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** CPU time (ms) of the bench database's PostgreSQL backends now, by pid (a backend that ended meanwhile is lost). */
async function backendCpuMs(client: pg.Client): Promise<Map<number, number>> {
  const { rows } = await client.query<{ pid: number }>(
    'select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
  );
  const cpu = new Map<number, number>();
  for (const { pid } of rows) {
    try {
      cpu.set(pid, cpuMs(pid));
    } catch {
      // ended meanwhile
    }
  }
  return cpu;
}

/** One browser per process: a login on that process, then a socket pinned to it (HAProxy's SERVERID cookie). */
async function openBrowsers(cluster: Cluster, onAlert: (browser: number, alert: ShowAlertEvent) => void): Promise<Socket[]> {
  const sockets: Socket[] = [];
  for (const [index, node] of cluster.nodes.entries()) {
    const response = await fetch(`http://127.0.0.1:${node.port}${API_PREFIX}/admin/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: ADMIN.username, password: ADMIN.password }),
    });
    if (!response.ok) throw new Error(`login on ${node.name}: ${response.status} ${await response.text()}`);
    const { token } = (await response.json()) as { token: string };
    const socket = io(cluster.haproxy ? cluster.url : `http://127.0.0.1:${node.port}`, {
      transports: ['websocket'],
      reconnection: false,
      forceNew: true,
      extraHeaders: { cookie: `SERVERID=${node.name}; ${AUTH_COOKIE}=${token}` },
      auth: { deltas: true },
    });
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('connect_error', reject);
    });
    socket.on('showAlert', (alert: ShowAlertEvent) => onAlert(index, alert));
    sockets.push(socket);
  }
  return sockets;
}

interface RunResult {
  fixesPerSecond: number;
  requestP99Ms: number;
  failed: number;
  notStored: number;
  alertP50: number;
  alertP99: number;
  localP99: number;
  timed: number;
  missing: number;
  doubled: number;
  alertsNotShown: number;
  alertsStoredTwice: number;
  nodeCpuUsPerFix: number;
  databaseCpuUsPerFix: number;
  haproxyCpuUsPerFix: number;
}

async function storedFixes(client: pg.Client): Promise<number> {
  return Number((await client.query<{ n: string }>(`select count(*) as n from positions where device_id like 'bench-%'`)).rows[0]!.n);
}

async function runScenario(scenario: Scenario, databaseUrl: string, client: pg.Client): Promise<RunResult> {
  log(`${scenario.label}: starting`);
  const exits: string[] = [];
  const cluster = await startCluster({
    processes: scenario.processes,
    host: '127.0.0.1',
    port: PORT + 80,
    osmandPort: PORT + 81,
    statsPort: PORT + 82,
    nodePort: PORT,
    nodeOsmandPort: PORT + 50,
    databaseUrl,
    redisUrl: scenario.redisUrl,
    balancer: scenario.balancer,
    // OsmAnd by device id, as the baseline was measured.
    env: { LOG_LEVEL: 'warn', DEVICE_OFFLINE_SECONDS: '3600', DEVICE_SECRET_REQUIRED: 'false' },
    write: (line) => {
      if (!line.includes('"level":"warn"')) console.log(line); // warnings (e.g. slow writes) would flood the output
    },
    onExit: (name, code, signal) => exits.push(`${name} exited (${signal ?? code})`),
  });
  try {
    const nodes = cluster.nodes.length;
    // Latency per alert and browser.
    const received = new Map<string, number[]>();
    let measuringFrom = Number.POSITIVE_INFINITY;
    let doubled = 0;
    const sockets = await openBrowsers(cluster, (browser, alert) => {
      const sentAt = alert.timestamp ? Date.parse(alert.timestamp) : Number.NaN;
      if (!(sentAt >= measuringFrom)) return;
      // One fix inside two overlapping zones raises two alerts: the stored alert's id tells them apart.
      const key = `${alert.index}|${sentAt}|${alert.alertId ?? alert.message}`;
      const times = received.get(key) ?? new Array<number>(nodes).fill(Number.NaN);
      if (!Number.isNaN(times[browser]!)) doubled++;
      times[browser] = Date.now() - sentAt;
      received.set(key, times);
    });
    log(`${scenario.label}: ${nodes} browser socket(s) connected; warming up for 3 s`);
    await wrk(cluster.osmandUrl, 3);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const storedBefore = await storedFixes(client);
    const pids = cluster.nodes.map((n) => n.pid);
    const nodeCpuBefore = pids.map(cpuMs);
    const haproxyCpuBefore = cluster.haproxy ? cpuMs(cluster.haproxy.pid) : 0;
    const databaseCpuBefore = await backendCpuMs(client);
    measuringFrom = Date.now();
    log(`${scenario.label}: ${CONNECTIONS} wrk connections for ${SECONDS} s to ${cluster.osmandUrl}`);
    const result = await wrk(cluster.osmandUrl, SECONDS);
    const measuredUntil = Date.now();
    const perNodeCpu = pids.map((pid, k) => cpuMs(pid) - nodeCpuBefore[k]!);
    const nodeCpu = perNodeCpu.reduce((sum, ms) => sum + ms, 0);
    const haproxyCpu = cluster.haproxy ? cpuMs(cluster.haproxy.pid) - haproxyCpuBefore : 0;
    let databaseCpu = 0;
    for (const [pid, ms] of await backendCpuMs(client)) databaseCpu += ms - (databaseCpuBefore.get(pid) ?? 0);
    // The alerts of the last fixes are still on their way, and the batched writer may hold the last fixes briefly.
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const stored = (await storedFixes(client)) - storedBefore;
    // The geofence alerts of the fixes sent while measuring, as stored: each must have been shown, none stored twice.
    const alertRows = await client.query<{ stored: number; twice: number }>(
      `select count(*)::int as stored, (count(*) - count(distinct (device_id, geofence_id, timestamp)))::int as twice
       from alerts where kind = 'geofence' and timestamp >= to_timestamp($1 / 1000.0) and timestamp < to_timestamp($2 / 1000.0)`,
      [measuringFrom, measuredUntil],
    );
    const { stored: alertsStored, twice: alertsStoredTwice } = alertRows.rows[0]!;
    const shownInWindow = [...received.keys()].filter((key) => Number(key.split('|')[1]) < measuredUntil).length;
    for (const socket of sockets) socket.disconnect();
    if (exits.length > 0) throw new Error(`${scenario.label}: ${exits.join(', ')}`);

    const acked = result.requests - result.non2xx;
    const toOther: number[] = [];
    const toOwn: number[] = [];
    let missing = 0;
    for (const times of received.values()) {
      const got = times.filter((t) => !Number.isNaN(t));
      if (got.length < nodes) missing++;
      toOther.push(Math.max(...got));
      toOwn.push(Math.min(...got));
    }
    toOther.sort((a, b) => a - b);
    toOwn.sort((a, b) => a - b);
    log(
      `${scenario.label}: ${acked.toLocaleString('en-US')} fixes acknowledged (${result.non2xx} refused, ${result.socketErrors} socket errors), ` +
        `${stored.toLocaleString('en-US')} stored; ${received.size} alerts seen, ${missing} missing on some browser, ${doubled} shown twice; ` +
        `${alertsStored} geofence alerts stored (${alertsStoredTwice} twice), ${shownInWindow} of them shown; ` +
        `CPU ${cluster.nodes.map((n, k) => `${n.name} ${(perNodeCpu[k]! / 1000).toFixed(1)} s`).join(', ')}, PostgreSQL ${(databaseCpu / 1000).toFixed(1)} s`,
    );
    return {
      fixesPerSecond: acked / (result.durationUs / 1e6),
      requestP99Ms: result.p99 / 1000,
      failed: result.non2xx + result.socketErrors,
      notStored: Math.max(0, acked - stored),
      alertP50: percentile(toOther, 50),
      alertP99: percentile(toOther, 99),
      localP99: percentile(toOwn, 99),
      timed: received.size,
      missing,
      doubled,
      alertsNotShown: Math.max(0, alertsStored - shownInWindow),
      alertsStoredTwice,
      nodeCpuUsPerFix: (nodeCpu * 1000) / Math.max(1, acked),
      databaseCpuUsPerFix: (databaseCpu * 1000) / Math.max(1, acked),
      haproxyCpuUsPerFix: (haproxyCpu * 1000) / Math.max(1, acked),
    };
  } finally {
    await cluster.stop();
  }
}

async function main() {
  for (const [tool, flag] of [['wrk', '--version'], ['haproxy', '-v']] as const) {
    // wrk --version exits 1 after printing its version; a missing tool fails to spawn (status null).
    if (spawnSync(tool, [flag]).status === null) throw new Error(`${tool} is not installed: apt-get install -y ${tool}`);
  }
  // Other work on the machine shares its cores with the processes measured: say how busy it was.
  const loadBefore = os.loadavg()[0]!;
  const name = `prison_bench_cluster_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  const databaseUrl = url.toString();
  const client = new pg.Client({ connectionString: databaseUrl });
  const results: RunResult[] = [];
  try {
    await seed(databaseUrl);
    await client.connect();
    for (const scenario of SCENARIOS) results.push(await runScenario(scenario, databaseUrl, client));
  } finally {
    await client.end().catch(() => undefined);
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
  const [base] = results as [RunResult];
  const figures: Figure[] = [];
  for (const [i, scenario] of SCENARIOS.entries()) {
    const r = results[i]!;
    const isBase = i === 0;
    const baseline = <T>(value: T) => (isBase ? undefined : value);
    const other = scenario.processes > 1 ? ' (browser on the other process)' : '';
    figures.push(
      { name: `${scenario.label}: fixes/s`, value: r.fixesPerSecond, unit: 'fixes/s', baseline: baseline(base.fixesPerSecond) },
      { name: `${scenario.label}: OsmAnd request p99`, value: r.requestP99Ms, unit: 'ms', baseline: baseline(base.requestP99Ms) },
      { name: `${scenario.label}: fix sent -> showAlert p50${other}`, value: r.alertP50, unit: 'ms', baseline: baseline(base.alertP50) },
      {
        name: `${scenario.label}: fix sent -> showAlert p99${other}`,
        value: r.alertP99,
        unit: 'ms',
        baseline: baseline(base.alertP99),
        target: '<= 250',
      },
    );
    if (scenario.processes > 1) {
      figures.push({ name: `${scenario.label}: fix sent -> showAlert p99 (browser on the same process)`, value: r.localP99, unit: 'ms', baseline: base.alertP99 });
    }
    figures.push(
      { name: `${scenario.label}: alerts timed`, value: r.timed, unit: 'alerts' },
      { name: `${scenario.label}: alerts missing on a browser / shown twice`, value: r.missing + r.doubled, unit: 'alerts', target: '0' },
      { name: `${scenario.label}: alerts stored but shown nowhere / stored twice`, value: r.alertsNotShown + r.alertsStoredTwice, unit: 'alerts', target: '0' },
      { name: `${scenario.label}: server CPU per fix (all processes)`, value: r.nodeCpuUsPerFix, unit: 'µs', baseline: baseline(base.nodeCpuUsPerFix) },
      { name: `${scenario.label}: PostgreSQL CPU per fix (the database's backends)`, value: r.databaseCpuUsPerFix, unit: 'µs', baseline: baseline(base.databaseCpuUsPerFix) },
    );
    if (scenario.balancer) figures.push({ name: `${scenario.label}: HAProxy CPU per fix`, value: r.haproxyCpuUsPerFix, unit: 'µs' });
    figures.push({ name: `${scenario.label}: failed requests, acknowledged fixes not stored`, value: r.failed + r.notStored, unit: 'fixes', target: '0' });
  }
  printFigures(
    `bench/cluster: ${DEVICES.toLocaleString('en-US')} devices, ${GEOFENCES.toLocaleString('en-US')} geofences, OsmAnd fixes from wrk ` +
      `(${CONNECTIONS} connections, ${SECONDS} s per run) on PostgreSQL, on ${os.cpus().length} cores, ` +
      `load average ${loadBefore.toFixed(1)} before and ${os.loadavg()[0]!.toFixed(1)} after (baseline: run ${SCENARIOS[0]!.label.split(" ")[0]})`,
    figures,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
