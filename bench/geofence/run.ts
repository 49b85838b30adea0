// Geofence evaluation throughput on one core: GeofenceEngine.evaluate (spatial index, exact containment, per-device
// states) for many moving devices, beside a linear scan of the same geofences in the same run.
//   npx tsx bench/geofence/run.ts            (or: npm run geofence -w @prison/bench)
// Options: --seconds S (per measurement, default 2), --devices N (default 10000), --geofences 1000,10000,
// --scoped 1|0 (default 1): also 5,000 prisoners with 2 zones each plus 1,000 shared zones (decision 033), beside
// the 1,000 shared zones alone on the same walks.
import { cpus, loadavg } from 'node:os';
import { destinationPoint, normalizeLongitude, type StoredGeofence } from '@prison/shared';
import { GeofenceEngine, type Wearer } from '../../apps/server/src/tracking/geofence-engine';
import { GeofenceIndex, linearScanClassify } from '../../apps/server/src/tracking/geofence-index';
import { printFigures, type Figure } from '../lib/report';

const args = new Map<string, string>();
for (let i = 2; i < process.argv.length - 1; i += 2)
  args.set(process.argv[i]!.replace(/^--/, ''), process.argv[i + 1]!);
const SECONDS = Number(args.get('seconds') ?? 2);
const DEVICES = Number(args.get('devices') ?? 10_000);
const STEPS_PER_DEVICE = 64;
const AREA_METERS = 20_000;
const CENTER: [number, number] = [52.0, 5.0];

/** Deterministic pseudo-random numbers (mulberry32), so every run measures the same geofences and walks. */
function random(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A point uniformly in the ~20 km square around the centre. */
function pointInArea(rand: () => number): [number, number] {
  const [lat, lng] = destinationPoint(CENTER[0], CENTER[1], (rand() - 0.5) * AREA_METERS, 0);
  return destinationPoint(lat, lng, (rand() - 0.5) * AREA_METERS, 90);
}

/** Mixed geofences: a third circles, a third 32-point (concave) polygons, a third rectangles; one in ten Negative. */
function makeGeofences(count: number, seed: number): StoredGeofence[] {
  const rand = random(seed);
  const fences: StoredGeofence[] = [];
  for (let i = 0; i < count; i++) {
    const [lat, lng] = pointInArea(rand);
    const size = 30 + rand() * 270; // metres
    const common = {
      geofence_id: `g${i}`,
      name: `Zone ${i}`,
      type: i % 10 === 0 ? ('Negative' as const) : ('Positive' as const),
      alert_type: 'Warning' as const,
      dwell_seconds: i % 4 === 0 ? 30 : 0,
      buffer_meters: [0, 5, 10][i % 3]!,
      radius: null,
      center_lat: null,
      center_lng: null,
      coordinates: null,
    };
    if (i % 3 === 0) {
      fences.push({ ...common, shape: 'Circle', radius: size, center_lat: lat, center_lng: lng });
    } else if (i % 3 === 1) {
      const ring: [number, number][] = [];
      for (let k = 0; k < 32; k++)
        ring.push(destinationPoint(lat, lng, size * (k % 2 === 0 ? 1 : 0.6), (360 * k) / 32));
      fences.push({ ...common, shape: 'Polygon', coordinates: ring });
    } else {
      const [north] = destinationPoint(lat, lng, size, 0);
      const [, east] = destinationPoint(lat, lng, size * (0.5 + rand()), 90);
      fences.push({
        ...common,
        shape: 'Rectangle',
        coordinates: [
          [lat, lng],
          [north, lng],
          [north, east],
          [lat, east],
        ],
      });
    }
  }
  return fences;
}

interface Walks {
  lats: Float64Array;
  lngs: Float64Array;
}

/** Each device walks about 2 m per fix (the original phone app's rate of reporting). */
function makeWalks(devices: number, steps: number, seed: number): Walks {
  const rand = random(seed);
  const lats = new Float64Array(devices * steps);
  const lngs = new Float64Array(devices * steps);
  const metersToLat = 1 / 111_195;
  const metersToLng = metersToLat / Math.cos((CENTER[0] * Math.PI) / 180);
  for (let d = 0; d < devices; d++) {
    let [lat, lng] = pointInArea(rand);
    let heading = rand() * 2 * Math.PI;
    for (let s = 0; s < steps; s++) {
      heading += (rand() - 0.5) * 0.8;
      lat += Math.cos(heading) * 2 * metersToLat;
      lng = normalizeLongitude(lng + Math.sin(heading) * 2 * metersToLng);
      // Fix-major order: step s of every device, then step s + 1, as fixes arrive from a fleet.
      lats[s * devices + d] = lat;
      lngs[s * devices + d] = lng;
    }
  }
  return { lats, lngs };
}

/**
 * Runs `body(i)` in batches for about `seconds` of this process's CPU time and returns calls per CPU second. CPU
 * time, not wall time, so that other processes sharing the machine do not count against the figure.
 */
function measure(seconds: number, batch: number, body: (i: number) => void): number {
  let calls = 0;
  const start = process.cpuUsage();
  let used = 0;
  while (used < seconds * 1e6) {
    for (let k = 0; k < batch; k++) body(calls + k);
    calls += batch;
    const now = process.cpuUsage(start);
    used = now.user + now.system;
  }
  return (calls / used) * 1e6;
}

function benchmark(
  count: number,
  walks: Walks,
): { engine: number; index: number; linear: number; candidates: number; transitions: number } {
  const geofences = makeGeofences(count, 42 + count);
  const total = walks.lats.length;
  const deviceIds = Array.from({ length: DEVICES }, (_, d) => `device-${d}`);
  const engine = new GeofenceEngine(geofences);
  const t0 = Date.parse('2026-01-01T00:00:00Z');
  // Warm-up: every device's first fix (which meets every Negative geofence once) and the JIT.
  let transitions = 0;
  for (let i = 0; i < total; i++)
    engine.evaluate(deviceIds[i % DEVICES]!, walks.lats[i]!, walks.lngs[i]!, new Date(t0 + i));
  let time = t0 + total;
  const engineRate = measure(SECONDS, 1000, (i) => {
    const k = i % total;
    // Time moves forward for every fix, so no fix is dropped as a repeat.
    transitions += engine.evaluate(deviceIds[k % DEVICES]!, walks.lats[k]!, walks.lngs[k]!, new Date(++time)).length;
  });

  const index = new GeofenceIndex(geofences);
  let candidates = 0;
  let queries = 0;
  const indexRate = measure(SECONDS, 1000, (i) => {
    const k = i % total;
    candidates += index.query(walks.lats[k]!, walks.lngs[k]!);
    queries++;
  });

  const out = new Uint8Array(count);
  const linearRate = measure(SECONDS, 10, (i) => {
    const k = i % total;
    linearScanClassify(index, walks.lats[k]!, walks.lngs[k]!, out);
  });
  return { engine: engineRate, index: indexRate, linear: linearRate, candidates: candidates / queries, transitions };
}

/**
 * Zones for some prisoners (decision 033): `prisoners` devices, each worn by its own prisoner in one of 10 blocks,
 * `perPrisoner` zones applying to each prisoner alone, and `shared` zones of everyone. Measured beside the shared
 * zones alone, on the same walks and wearers: the per-prisoner zones should cost next to nothing.
 */
function benchmarkScoped(prisoners: number, perPrisoner: number, shared: number): { scoped: number; sharedOnly: number; transitions: number } {
  const walks = makeWalks(prisoners, STEPS_PER_DEVICE, 11);
  const total = walks.lats.length;
  const deviceIds = Array.from({ length: prisoners }, (_, d) => `prisoner-device-${d}`);
  const wearers: Wearer[] = Array.from({ length: prisoners }, (_, d) => ({ prisonerId: d + 1, block: `B${d % 10}` }));
  const sharedFences = makeGeofences(shared, 42 + shared);
  const own = makeGeofences(prisoners * perPrisoner, 99).map((fence, i) => ({
    ...fence,
    geofence_id: `own-${i}`,
    applies_to: { prisoner_ids: [Math.floor(i / perPrisoner) + 1] },
  }));
  const run = (geofences: StoredGeofence[]) => {
    const engine = new GeofenceEngine(geofences, [], { timeZone: 'UTC' });
    const t0 = Date.parse('2026-01-01T00:00:00Z');
    let transitions = 0;
    for (let i = 0; i < total; i++)
      engine.evaluate(deviceIds[i % prisoners]!, walks.lats[i]!, walks.lngs[i]!, new Date(t0 + i), wearers[i % prisoners]);
    let time = t0 + total;
    const rate = measure(SECONDS, 1000, (i) => {
      const k = i % total;
      const d = k % prisoners;
      transitions += engine.evaluate(deviceIds[d]!, walks.lats[k]!, walks.lngs[k]!, new Date(++time), wearers[d]).length;
    });
    return { rate, transitions };
  };
  const sharedOnly = run(sharedFences);
  const scoped = run([...sharedFences, ...own]);
  return { scoped: scoped.rate, sharedOnly: sharedOnly.rate, transitions: scoped.transitions };
}

const walks = makeWalks(DEVICES, STEPS_PER_DEVICE, 7);
const targets: Record<number, number> = { 1000: 1_000_000, 10_000: 250_000 };
const figures: Figure[] = [];
const verdicts: string[] = [];
const counts = (args.get('geofences') ?? '1000,10000').split(',').map(Number);
for (const count of counts) {
  const result = benchmark(count, walks);
  const target = targets[count] ?? 0;
  figures.push({
    name: `GeofenceEngine.evaluate, ${count.toLocaleString('en-US')} geofences (baseline: linear scan)`,
    value: result.engine,
    unit: 'evaluations/s',
    baseline: result.linear,
    target: `>= ${target.toLocaleString('en-US')}`,
  });
  figures.push({
    name: `GeofenceIndex.query only, ${count.toLocaleString('en-US')} geofences`,
    value: result.index,
    unit: 'evaluations/s',
    baseline: result.linear,
  });
  figures.push({
    name: `candidates per fix, ${count.toLocaleString('en-US')} geofences`,
    value: result.candidates,
    unit: 'geofences',
  });
  verdicts.push(
    `${count} geofences: ${result.engine >= target ? 'target met' : 'TARGET MISSED'} (${Math.round(result.engine).toLocaleString('en-US')} >= ${target.toLocaleString('en-US')}; ${(result.engine / result.linear).toFixed(0)}x the linear scan)`,
  );
}
if ((args.get('scoped') ?? '1') !== '0') {
  const result = benchmarkScoped(5000, 2, 1000);
  figures.push({
    name: 'GeofenceEngine.evaluate, 1,000 shared + 10,000 per-prisoner geofences (2 each, 5,000 prisoners) (baseline: the 1,000 shared alone)',
    value: result.scoped,
    unit: 'evaluations/s',
    baseline: result.sharedOnly,
    target: '>= 1,000,000',
  });
  verdicts.push(
    `scoped: ${result.scoped >= 1_000_000 ? 'target met' : 'TARGET MISSED'} (${Math.round(result.scoped).toLocaleString('en-US')} evaluations/s with 11,000 geofences, ${((100 * result.scoped) / result.sharedOnly).toFixed(0)} % of the 1,000 shared alone)`,
  );
}
printFigures(
  `Geofence evaluation per CPU second on one core (${DEVICES.toLocaleString('en-US')} devices walking ~2 m per fix ` +
    `in a 20 km square; node ${process.version}; load average ${loadavg()[0]!.toFixed(1)} on ${cpus().length} cores)`,
  figures,
);
for (const verdict of verdicts) console.log(verdict);
