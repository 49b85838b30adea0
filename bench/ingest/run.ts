// bench/ingest: 10,000 devices and 1,000 geofences; fixes sent through the real protocols (OsmAnd HTTP, one fix per
// request, a Traccar server's JSON forwarder, one position per request, and the gateway batch endpoint) by concurrent client loops in a worker thread, against the real server
// started in this process, on PostgreSQL and on PGlite. Prints fixes stored per second, p50/p99 from a fix sent to
// its showAlert on a logged-in browser socket, and checks that every acknowledged fix is in the database.
// Baseline (same run, same database): one INSERT transaction per fix, the approach the batched writer replaces.
//
// With --keep-apart-pairs N (default 1,000; 0 skips it) the same load runs a second time on the same database with
// 2N of the devices worn by prisoners in N keep-apart pairs (decision 032), and its figures are printed beside the
// first run's. With --escorts N (default 200; 0 skips it) a third run adds N active escorts (decision 035): N more
// prisoners escorted by N officers, each side wearing one of the next 2N devices (so nearly every escort separates
// under this random load, and raises its unescorted alert), printed beside the first run's figures. With --movements N
// (default 200; 0 skips it) a last run adds N open controlled movements (decision 064): N more prisoners
// wearing the next N devices, each on its way to a bench geofence with no origin, so any zone entered is off route
// (a Warning through the fix-rule port) and the destination arrives; printed beside the run before it.
//
// With --mqtt-readers N (default 200; 0 skips it) an MQTT run follows the first for each of --mqtt-formats (decision
// 067; default every one: prison, openmqttgateway, minew and pozyx, the RTLS): a Mosquitto of its own (a free port
// of the 100 from --mqtt-port-from), N indoor readers each publishing --mqtt-tags tags of the bench devices
// --mqtt-rate times a second for --mqtt-seconds in that format (the RTLS: the same tags' positions), printed as
// sightings stored per second beside the OsmAnd and batch figures, 0 lost.
//
//   npm run ingest -w @prison/bench -- [--seconds 60] [--engine both|postgres|pglite] [--devices 10000]
//        [--geofences 1000] [--osmand-loops 48] [--traccar-loops 16] [--batch-loops 4] [--batch-size 200] [--keep-apart-pairs 1000]
//        [--escorts 200] [--mqtt-readers 200] [--mqtt-tags 10] [--mqtt-rate 10] [--mqtt-seconds 20]
//        [--mqtt-formats prison,openmqttgateway,minew,pozyx] [--mqtt-port-from 41500]
//        [--observations 2000] [--movements 200]
//
// With --observations N (default 2,000; 0 skips it) a last run adds N prisoners on observation levels (
// decision 063) whose checks fall due one after another through the run, so the overdue watcher raises their alerts
// while the load runs; printed beside the first run's figures.
//
// PostgreSQL: creates its own database on 127.0.0.1 (user postgres, or BENCH_PG_URL) and drops it at the end.
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { Worker } from 'node:worker_threads';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { API_PREFIX, AUTH_COOKIE } from '@prison/shared';
import { buildApp } from '../../apps/server/src/app';
import { loadConfig } from '../../apps/server/src/config';
import { createPglite, fromPglite, fromPostgres, type Database } from '../../apps/server/src/db/client';
import { devices, escorts, geofences, keepApartPairs, movementPrisoners, movements, observationLevels, positions, prisoners, staff } from '../../apps/server/src/db/schema';
import { createAdmin } from '../../apps/server/src/modules/admin/admin-service';
import { hashSecret } from '../../apps/server/src/tracking/device-registry';
import { percentile, printFigures, type Figure } from '../lib/report';
import type { LoadOptions, LoadResult } from './load-worker';
import { mqttPhase } from './mqtt-phase';
import type { BenchFormat } from './mqtt-worker';

const { values: args } = parseArgs({
  options: {
    seconds: { type: 'string', default: '60' },
    engine: { type: 'string', default: 'both' },
    devices: { type: 'string', default: '10000' },
    geofences: { type: 'string', default: '1000' },
    'osmand-loops': { type: 'string', default: '48' },
    'traccar-loops': { type: 'string', default: '16' },
    'batch-loops': { type: 'string', default: '4' },
    'batch-size': { type: 'string', default: '200' },
    'keep-apart-pairs': { type: 'string', default: '1000' },
    escorts: { type: 'string', default: '200' },
    'mqtt-readers': { type: 'string', default: '200' },
    'mqtt-tags': { type: 'string', default: '10' },
    'mqtt-rate': { type: 'string', default: '10' },
    'mqtt-seconds': { type: 'string', default: '20' },
    'mqtt-formats': { type: 'string', default: 'prison,openmqttgateway,minew,pozyx' },
    'mqtt-port-from': { type: 'string', default: '41500' },
    observations: { type: 'string', default: '2000' },
    movements: { type: 'string', default: '200' },
  },
});
const SECONDS = Number(args.seconds);
const DEVICES = Number(args.devices);
const GEOFENCES = Number(args.geofences);
const PAIRS = Math.min(Number(args['keep-apart-pairs']), Math.floor(DEVICES / 2));
const ESCORTS = Math.min(Number(args.escorts), Math.floor((DEVICES - 2 * PAIRS) / 2));
const OBSERVATIONS = Number(args.observations);
const MOVEMENTS = Math.min(Number(args.movements), DEVICES - 2 * PAIRS - 2 * ESCORTS);
const ADMIN_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const CENTRE = { lat: 51.5, lng: -0.12 };
/** The bearer token the bench's Traccar forwarder loops send. */
const TRACCAR_FORWARD_TOKEN = randomBytes(24).toString('hex');
/** About 55 km across: the geofences (50 to 200 m) cover about 1 % of it, so about 1 fix in 100 raises an alert. */
const SPAN_DEGREES = 0.5;
const ADMIN = { username: 'bench', name: 'Bench', password: 'measure twice, cut once' };
const log = (text: string) => console.log(`[ingest bench] ${text}`);

async function openDatabase(engine: 'postgres' | 'pglite'): Promise<{ database: Database; drop(): Promise<void> }> {
  if (engine === 'pglite') {
    const database = fromPglite(await createPglite());
    return { database, drop: () => database.close() };
  }
  const name = `prison_bench_ingest_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  const database = fromPostgres(url.toString(), 10);
  return {
    database,
    drop: async () => {
      await database.close();
      const dropper = new pg.Client({ connectionString: ADMIN_URL });
      await dropper.connect();
      await dropper.query(`drop database if exists ${name} with (force)`);
      await dropper.end();
    },
  };
}

/** Mixed shapes, all Positive (a Negative zone would put every device outside it in violation at once). */
function benchGeofences(): (typeof geofences.$inferInsert)[] {
  const metresToLat = 1 / 111_320;
  const metresToLng = 1 / (111_320 * Math.cos((CENTRE.lat * Math.PI) / 180));
  return Array.from({ length: GEOFENCES }, (_, i) => {
    const lat = CENTRE.lat + (Math.random() - 0.5) * SPAN_DEGREES;
    const lng = CENTRE.lng + (Math.random() - 0.5) * SPAN_DEGREES;
    const size = 50 + Math.random() * 150;
    const base = {
      geofenceId: `bench-fence-${i}`,
      name: `Zone ${i}`,
      type: 'Positive',
      alertType: ['Informational', 'Warning', 'Critical'][i % 3]!,
    };
    if (i % 3 === 0) return { ...base, shape: 'Circle', radius: size, centerLat: lat, centerLng: lng };
    if (i % 3 === 1) {
      return {
        ...base,
        shape: 'Rectangle',
        coordinates: [
          [lat - size * metresToLat, lng - size * metresToLng],
          [lat - size * metresToLat, lng + size * metresToLng],
          [lat + size * metresToLat, lng + size * metresToLng],
          [lat + size * metresToLat, lng - size * metresToLng],
        ] as [number, number][],
      };
    }
    // A 32-point star-ish polygon (concave), like a hand-drawn zone.
    const points: [number, number][] = Array.from({ length: 32 }, (_, k) => {
      const angle = (k / 32) * 2 * Math.PI;
      const r = size * (k % 2 === 0 ? 1 : 0.7);
      return [lat + Math.sin(angle) * r * metresToLat, lng + Math.cos(angle) * r * metresToLng];
    });
    return { ...base, shape: 'Polygon', coordinates: points };
  });
}

async function seed(database: Database) {
  const t0 = performance.now();
  const fences = benchGeofences();
  for (let i = 0; i < fences.length; i += 500) await database.db.insert(geofences).values(fences.slice(i, i + 500));
  const rows = Array.from({ length: DEVICES }, (_, i) => ({
    id: `bench-${i}`,
    name: `Bench tracker ${i}`,
    secretHash: hashSecret(`bench-secret-${i}`),
  }));
  for (let i = 0; i < rows.length; i += 2000) await database.db.insert(devices).values(rows.slice(i, i + 2000));
  await createAdmin(database.db, ADMIN);
  log(`seeded ${DEVICES} devices and ${GEOFENCES} geofences in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
}

/** The naive way: one transaction per fix, for a few seconds, on the same database. */
async function baselinePerFixTransactions(database: Database, seconds: number): Promise<number> {
  const end = performance.now() + seconds * 1000;
  let n = 0;
  const start = Date.now();
  while (performance.now() < end) {
    await database.db.transaction(async (tx) => {
      await tx
        .insert(positions)
        .values({ deviceId: 'baseline', recordedAt: new Date(start + n), latitude: CENTRE.lat, longitude: CENTRE.lng })
        .onConflictDoNothing();
      await tx.execute(sql`update devices set last_seen_at = now() where id = 'bench-0'`);
    });
    n++;
  }
  await database.db.execute(sql`delete from positions where device_id = 'baseline'`);
  return n / seconds;
}

function runLoad(options: LoadOptions): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./load-worker-entry.mjs', import.meta.url), { workerData: options });
    worker.once('message', (message: LoadResult | { error: string }) => {
      void worker.terminate();
      if ('error' in message) reject(new Error(message.error));
      else resolve(message);
    });
    worker.once('error', reject);
  });
}

/** 2N prisoners wearing the first 2N devices, in N keep-apart pairs (device 2k with device 2k+1). */
async function seedKeepApart(database: Database, pairs: number): Promise<void> {
  const rows = Array.from({ length: pairs * 2 }, (_, i) => ({
    firstName: 'Bench',
    lastName: `Prisoner ${i}`,
    status: 'Incarcerated',
    trackingDeviceId: `bench-${i}`,
  }));
  const ids: number[] = [];
  for (let i = 0; i < rows.length; i += 1000) {
    const made = await database.db.insert(prisoners).values(rows.slice(i, i + 1000)).returning({ id: prisoners.prisonerId });
    ids.push(...made.map((m) => m.id));
  }
  const pairRows = Array.from({ length: pairs }, (_, k) => ({
    prisonerA: ids[2 * k]!,
    prisonerB: ids[2 * k + 1]!,
    reason: 'Violence',
    scope: 'cell',
    createdBy: 'bench',
  }));
  for (let i = 0; i < pairRows.length; i += 1000) await database.db.insert(keepApartPairs).values(pairRows.slice(i, i + 1000));
  log(`seeded ${pairs} keep-apart pairs (${pairs * 2} prisoners wearing trackers)`);
}

/** N prisoners and N officers wearing the devices after the keep-apart ones, in N escorts in force (5 km apart at most). */
async function seedEscorts(database: Database, count: number): Promise<void> {
  const first = 2 * PAIRS;
  const prisonerRows = Array.from({ length: count }, (_, i) => ({
    firstName: 'Escorted',
    lastName: `Prisoner ${i}`,
    status: 'Incarcerated',
    trackingDeviceId: `bench-${first + i}`,
  }));
  const staffRows = Array.from({ length: count }, (_, i) => ({
    firstName: 'Bench',
    lastName: `Officer ${i}`,
    role: 'Police',
    badgeNumber: String(900_000 + i),
    trackingDeviceId: `bench-${first + count + i}`,
  }));
  const prisonerIds = (await database.db.insert(prisoners).values(prisonerRows).returning({ id: prisoners.prisonerId })).map((r) => r.id);
  const staffIds = (await database.db.insert(staff).values(staffRows).returning({ id: staff.staffId })).map((r) => r.id);
  await database.db.insert(escorts).values(
    prisonerIds.map((prisonerId, i) => ({ prisonerId, staffId: staffIds[i]!, maxDistanceM: 5000, startsAt: new Date(Date.now() - 60_000), createdBy: 'bench' })),
  );
  log(`seeded ${count} escorts (${count} prisoners and ${count} officers wearing trackers)`);
}

/** N prisoners on observation (the four levels in turn), their checks due one after another over the next run. */
async function seedObservations(database: Database, count: number): Promise<void> {
  const levels = ['standard', 'enhanced', 'high', 'constant'] as const;
  const rows = Array.from({ length: count }, (_, i) => ({ firstName: 'Observed', lastName: `Prisoner ${i}`, status: 'Incarcerated' }));
  const ids: number[] = [];
  for (let i = 0; i < rows.length; i += 1000) {
    const made = await database.db.insert(prisoners).values(rows.slice(i, i + 1000)).returning({ id: prisoners.prisonerId });
    ids.push(...made.map((m) => m.id));
  }
  const start = Date.now() + 5_000;
  const spreadMs = SECONDS * 1000;
  const levelRows = ids.map((prisonerId, i) => ({
    prisonerId,
    level: levels[i % levels.length]!,
    // One minute: a high or constant prisoner's Critical follows its Warning by 30 s, within the run too.
    intervalMinutes: 1,
    reason: 'Bench observation',
    setBy: 'bench',
    setAt: new Date(),
    dueAt: new Date(start + Math.round((i / count) * spreadMs)),
  }));
  for (let i = 0; i < levelRows.length; i += 1000) await database.db.insert(observationLevels).values(levelRows.slice(i, i + 1000));
  log(`seeded ${count} prisoners on observation, due one after another over ${SECONDS} s`);
}

/** N prisoners wearing the devices after the escorts' ones, each in an open movement to a bench geofence (due in an hour). */
async function seedMovements(database: Database, count: number): Promise<void> {
  const first = 2 * PAIRS + 2 * ESCORTS;
  const prisonerRows = Array.from({ length: count }, (_, i) => ({ firstName: 'Moving', lastName: `Prisoner ${i}`, status: 'Incarcerated', trackingDeviceId: `bench-${first + i}` }));
  const prisonerIds = (await database.db.insert(prisoners).values(prisonerRows).returning({ id: prisoners.prisonerId })).map((r) => r.id);
  const dueBy = new Date(Date.now() + 3_600_000);
  const rows = prisonerIds.map((_, i) => ({ destinationGeofenceId: `bench-fence-${i % GEOFENCES}`, destinationName: `Zone ${i % GEOFENCES}`, dueBy, createdBy: 'bench' }));
  const movementIds = (await database.db.insert(movements).values(rows).returning({ id: movements.id })).map((r) => r.id);
  await database.db.insert(movementPrisoners).values(prisonerIds.map((prisonerId, i) => ({ movementId: movementIds[i]!, prisonerId, originGeofenceIds: [] })));
  log(`seeded ${count} open movements (${count} prisoners wearing trackers)`);
}

interface PhaseResult {
  fixesPerSecond: number;
  osmandPerSecond: number;
  traccarPerSecond: number;
  batchPerSecond: number;
  p50: number;
  p99: number;
  timed: number;
  missing: number;
}

async function verify(database: Database, result: LoadResult): Promise<{ missing: number; stored: number }> {
  const rows = (await database.db.execute(
    sql`select device_id, floor(extract(epoch from recorded_at) * 1000 + 0.5)::float8 as ms from positions where device_id like 'bench-%'`,
  )) as unknown as { rows: { device_id: string; ms: number }[] };
  const stored = new Set(rows.rows.map((r) => `${r.device_id}|${Number(r.ms)}`));
  let missing = 0;
  for (let k = 0; k < result.ackedDevice.length; k++) {
    if (!stored.has(`bench-${result.ackedDevice[k]}|${result.ackedTime[k]}`)) missing++;
  }
  return { missing, stored: stored.size };
}

async function benchEngine(engine: 'postgres' | 'pglite'): Promise<Figure[]> {
  log(`${engine}: preparing`);
  const { database, drop } = await openDatabase(engine);
  try {
    await database.migrate();
    await seed(database);
    const baseline = await baselinePerFixTransactions(database, Math.min(5, SECONDS));
    log(`${engine}: baseline, one transaction per fix: ${Math.round(baseline)} fixes/s`);
    const config = loadConfig({
      DEMO: 'false',
      DEVICE_SECRET_REQUIRED: 'false', // OsmAnd by device id, as the baseline was measured
      LOG_LEVEL: 'warn',
      WEB_DIST: '/nonexistent',
      OSMAND_PORT: '0',
      HOST: '127.0.0.1',
      DEVICE_OFFLINE_SECONDS: '3600',
      TRACCAR_FORWARD_TOKEN,
    });
    const phase = async (label: string): Promise<PhaseResult> => {
      const app = await buildApp({ config, database, logger: false });
      await app.listen({ port: 0, host: '127.0.0.1' });
      for (let i = 0; i < 100 && app.osmandPort() === null; i++) await new Promise((r) => setTimeout(r, 20));
      try {
        const login = await app.inject({
          method: 'POST',
          url: `${API_PREFIX}/admin/login`,
          payload: { username: ADMIN.username, password: ADMIN.password },
        });
        const token = login.json<{ token: string }>().token;
        const baseUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
        log(
          `${label}: sending for ${SECONDS} s (${args['osmand-loops']} OsmAnd loops, ${args['traccar-loops']} Traccar forwarder loops, ${args['batch-loops']} batch loops of ${args['batch-size']})`,
        );
        const result = await runLoad({
          baseUrl,
          osmandUrl: `http://127.0.0.1:${app.osmandPort()}`,
          cookie: `${AUTH_COOKIE}=${token}`,
          devices: DEVICES,
          seconds: SECONDS,
          osmandLoops: Number(args['osmand-loops']),
          traccarLoops: Number(args['traccar-loops']),
          traccarToken: TRACCAR_FORWARD_TOKEN,
          batchLoops: Number(args['batch-loops']),
          batchSize: Number(args['batch-size']),
          centre: CENTRE,
          spanDegrees: SPAN_DEGREES,
        });
        await app.close();
        const acked = result.ackedOsmand + result.ackedTraccar + result.ackedBatch;
        const { missing, stored } = await verify(database, result);
        const latencies = [...result.alertLatenciesMs].sort((a, b) => a - b);
        log(
          `${label}: acknowledged ${acked} (OsmAnd ${result.ackedOsmand}, Traccar ${result.ackedTraccar}, batch ${result.ackedBatch}), failed ${result.failed}` +
            `${result.firstError ? ` (first: ${result.firstError})` : ''}; stored ${stored}; acknowledged but missing ${missing}; ` +
            `alerts received ${result.alertsReceived}, timed ${latencies.length}`,
        );
        if (missing > 0) throw new Error(`${missing} acknowledged fixes are not in the database`);
        const seconds = result.elapsedMs / 1000;
        return {
          fixesPerSecond: acked / seconds,
          osmandPerSecond: result.ackedOsmand / seconds,
          traccarPerSecond: result.ackedTraccar / seconds,
          batchPerSecond: result.ackedBatch / seconds,
          p50: percentile(latencies, 50),
          p99: percentile(latencies, 99),
          timed: latencies.length,
          missing,
        };
      } finally {
        if (app.server.listening) await app.close();
      }
    };
    const today = await phase(engine);
    const figures: Figure[] = [
      {
        name: `${engine}: fixes stored per second`,
        value: today.fixesPerSecond,
        unit: 'fixes/s',
        baseline,
        target: engine === 'postgres' ? '>= 5,000' : '',
      },
      { name: `${engine}: OsmAnd HTTP (1 fix/request)`, value: today.osmandPerSecond, unit: 'fixes/s' },
      { name: `${engine}: Traccar forwarder JSON (1 position/request)`, value: today.traccarPerSecond, unit: 'fixes/s' },
      { name: `${engine}: gateway batch`, value: today.batchPerSecond, unit: 'fixes/s' },
      { name: `${engine}: fix sent -> showAlert p50`, value: today.p50, unit: 'ms' },
      {
        name: `${engine}: fix sent -> showAlert p99`,
        value: today.p99,
        unit: 'ms',
        target: engine === 'postgres' ? '<= 250' : '',
      },
      { name: `${engine}: alerts timed`, value: today.timed, unit: 'alerts' },
      { name: `${engine}: acknowledged fixes missing from the database`, value: today.missing, unit: 'fixes', target: '0' },
    ];
    const formats = Number(args['mqtt-readers']) > 0 ? (args['mqtt-formats'].split(',').filter(Boolean) as BenchFormat[]) : [];
    for (const [i, format] of formats.entries()) {
      const mqtt = await mqttPhase(
        database,
        config,
        {
          format,
          portFrom: Number(args['mqtt-port-from']),
          readers: Number(args['mqtt-readers']),
          tagsPerMessage: Number(args['mqtt-tags']),
          rate: Number(args['mqtt-rate']),
          seconds: Number(args['mqtt-seconds']),
          devices: DEVICES,
        },
        (text) => log(`${engine}: ${text}`),
      );
      log(`${engine}: MQTT ${format} published ${mqtt.published} sightings (${Math.round(mqtt.publishedPerSecond)}/s), stored ${mqtt.stored}, lost ${mqtt.missing}`);
      // Baseline: the OsmAnd and batch figures of the first run, same database, same process.
      const what = format === 'pozyx' ? 'RTLS (Pozyx) positions' : `MQTT ${format} reader sightings`;
      figures.splice(
        3 + 2 * i,
        0,
        { name: `${engine}: ${what} stored per second`, value: mqtt.sightingsPerSecond, unit: 'fixes/s', baseline: today.fixesPerSecond, target: engine === 'postgres' ? '>= 10,000' : '' },
        { name: `${engine}: ${what} published but not stored`, value: mqtt.missing, unit: 'sightings', target: '0' },
      );
    }
    if (PAIRS > 0) {
      await seedKeepApart(database, PAIRS);
      const label = `${engine}, ${PAIRS} keep-apart pairs`;
      const paired = await phase(label);
      // Baseline: the run above without pairs, on the same database, in the same process.
      figures.push(
        { name: `${label}: fixes stored per second`, value: paired.fixesPerSecond, unit: 'fixes/s', baseline: today.fixesPerSecond },
        { name: `${label}: fix sent -> showAlert p99`, value: paired.p99, unit: 'ms', baseline: today.p99 },
        { name: `${label}: acknowledged fixes missing from the database`, value: paired.missing, unit: 'fixes', target: '0' },
      );
    }
    if (ESCORTS > 0) {
      await seedEscorts(database, ESCORTS);
      const label = `${engine}, ${PAIRS} keep-apart pairs and ${ESCORTS} escorts`;
      const escorted = await phase(label);
      // Baseline: the first run (no pairs, no escorts), on the same database, in the same process.
      figures.push(
        { name: `${label}: fixes stored per second`, value: escorted.fixesPerSecond, unit: 'fixes/s', baseline: today.fixesPerSecond },
        { name: `${label}: fix sent -> showAlert p99`, value: escorted.p99, unit: 'ms', baseline: today.p99 },
        { name: `${label}: acknowledged fixes missing from the database`, value: escorted.missing, unit: 'fixes', target: '0' },
      );
    }
    if (MOVEMENTS > 0) {
      // Baseline: the run just before (the same pairs and escorts), on the same database, in the same process.
      const before = figures.filter((f) => f.name.endsWith(': fixes stored per second')).at(-1)!.value;
      await seedMovements(database, MOVEMENTS);
      const label = `${engine}, ${PAIRS} keep-apart pairs, ${ESCORTS} escorts and ${MOVEMENTS} open movements`;
      const moving = await phase(label);
      figures.push(
        { name: `${label}: fixes stored per second`, value: moving.fixesPerSecond, unit: 'fixes/s', baseline: before, target: `>= ${Math.round(before * 0.9)} (90 %)` },
        { name: `${label}: share of the run before`, value: (100 * moving.fixesPerSecond) / before, unit: '%', target: '>= 90' },
        { name: `${label}: fix sent -> showAlert p99`, value: moving.p99, unit: 'ms' },
        { name: `${label}: acknowledged fixes missing from the database`, value: moving.missing, unit: 'fixes', target: '0' },
      );
    }
    if (OBSERVATIONS > 0) {
      await seedObservations(database, OBSERVATIONS);
      const label = `${engine}, ${OBSERVATIONS} prisoners on observation`;
      const observed = await phase(label);
      const [{ raised }] = (
        (await database.db.execute(sql`select count(*)::int as raised from alerts where kind = 'observation'`)) as unknown as { rows: [{ raised: number }] }
      ).rows;
      log(`${label}: ${raised} overdue alerts raised during the run`);
      // Baseline: the first run (no observation levels), on the same database, in the same process.
      figures.push(
        { name: `${label}: fixes stored per second`, value: observed.fixesPerSecond, unit: 'fixes/s', baseline: today.fixesPerSecond, target: '>= 90 % of baseline' },
        { name: `${label}: share of the first run's fixes per second`, value: (100 * observed.fixesPerSecond) / today.fixesPerSecond, unit: '%', target: '>= 90' },
        { name: `${label}: overdue alerts raised during the run`, value: raised, unit: 'alerts' },
        { name: `${label}: acknowledged fixes missing from the database`, value: observed.missing, unit: 'fixes', target: '0' },
      );
    }
    return figures;
  } finally {
    await drop();
  }
}

const engines: ('postgres' | 'pglite')[] =
  args.engine === 'both' ? ['postgres', 'pglite'] : [args.engine as 'postgres' | 'pglite'];
const figures: Figure[] = [];
for (const engine of engines) figures.push(...(await benchEngine(engine)));
printFigures(
  `bench/ingest: ${DEVICES} devices, ${GEOFENCES} geofences, ${SECONDS} s per engine and run ` +
    `(baseline: one transaction per fix; for the keep-apart and escort runs, the first run; for the movements run, the run before it)`,
  figures,
);
