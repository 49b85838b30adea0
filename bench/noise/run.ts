// Alert noise: the demo's simulator walks its trackers for 10 simulated minutes (accelerated) against the real server
// and engine on an embedded database, twice in one run: once as configured ("one problem, one alert": repeats fold,
// zones damp crossings by their dwell, an offline tracker waits out the grace, zone entries are events), once with
// all of that off (dwell 0, no grace, zone entries as work, every occurrence its own alert) as the baseline. Prints
// the raw rule violations, the open alerts that need action, and the ratio.
//
//   npm run noise -w @prison/bench -- [--minutes 10] [--speed 10] [--devices 50]
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import { buildApp } from '../../apps/server/src/app';
import { loadConfig } from '../../apps/server/src/config';
import { createPglite, fromPglite } from '../../apps/server/src/db/client';
import { seedDemoRecords } from '../../apps/server/src/seed/demo-records';
import { startDemoTracking } from '../../apps/server/src/seed/demo-tracking';
import { printFigures } from '../lib/report';

const { values: args } = parseArgs({
  options: {
    minutes: { type: 'string', default: '10' },
    speed: { type: 'string', default: '10' },
    devices: { type: 'string', default: '50' },
  },
});
const MINUTES = Number(args.minutes);
const SPEED = Number(args.speed);
const DEVICES = Number(args.devices);

/**
 * Simulated time runs SPEED times faster than the wall clock for everything that reads the clock (the simulator's
 * walk and fixes, the server's fix checks, dwell and offline timers); timers still fire on the wall clock, so the
 * offline watcher looks SPEED times less often in simulated time (at most 50 s late at the defaults).
 */
function accelerateClock(speed: number): void {
  const RealDate = Date;
  const realNow = RealDate.now.bind(RealDate);
  const start = realNow();
  const now = () => start + (realNow() - start) * speed;
  class SimulatedDate extends RealDate {
    constructor(...values: unknown[]) {
      if (values.length === 0) super(now());
      else super(...(values as [string | number | Date]));
    }
    static override now(): number {
      return now();
    }
  }
  globalThis.Date = SimulatedDate as DateConstructor;
}

/** A small seeded generator (mulberry32), so both runs stage the same walks and breaches. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Counted {
  /** Alert rows stored. */
  alerts: number;
  /** Every occurrence, folded ones included: what the alerts would be one by one. */
  occurrences: number;
  /** Not acknowledged (nobody works in the bench) and work, not an event. */
  openNeedingAction: number;
  /** Occurrences of open work, folded ones counted one by one: the open queue without folding. */
  openOccurrences: number;
}

async function simulate(label: string, quiet: boolean): Promise<Counted> {
  const database = fromPglite(await createPglite());
  await database.migrate();
  const config = loadConfig({
    DEMO: 'false',
    LOG_LEVEL: 'error',
    WEB_DIST: '/nonexistent',
    OSMAND_PORT: '0',
    HOST: '127.0.0.1',
    SIMULATOR_DEVICES: String(DEVICES),
    OFFLINE_GRACE_SECONDS: quiet ? '120' : '0',
    ZONE_ENTRIES_NEED_ACTION: quiet ? 'false' : 'true',
  });
  const app = await buildApp({ config, database, logger: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  for (let i = 0; i < 100 && app.osmandPort() === null; i++) await new Promise((r) => setTimeout(r, 20));
  const random = Math.random;
  Math.random = seededRandom(20_261_208);
  try {
    await seedDemoRecords(app.db);
    const tracking = await startDemoTracking(app);
    if (!quiet) {
      // The baseline: no zone damps a crossing.
      await app.db.execute(sql`update geofences set dwell_seconds = 0`);
      await app.reloadGeofences();
    }
    const started = Date.now();
    console.error(`${label}: ${DEVICES} trackers for ${MINUTES} simulated minutes at x${SPEED} (port ${(app.server.address() as AddressInfo).port})`);
    while (Date.now() - started < MINUTES * 60_000) await new Promise((r) => setTimeout(r, 1000));
    await tracking.stop();
    const result = (await app.db.execute(sql`
      select count(*)::int as alerts,
             coalesce(sum(repeat_count + 1), 0)::int as occurrences,
             (count(*) filter (where status = 'New' and needs_action))::int as open_needing_action,
             coalesce(sum(repeat_count + 1) filter (where status = 'New' and needs_action), 0)::int as open_occurrences
      from alerts`)) as unknown as { rows: { alerts: number; occurrences: number; open_needing_action: number; open_occurrences: number }[] };
    const row = result.rows[0]!;
    const byKind = (await app.db.execute(sql`
      select kind, alert_type as level, count(*)::int as alerts, sum(repeat_count + 1)::int as occurrences,
             (count(*) filter (where status = 'New' and needs_action))::int as open_needing_action
      from alerts group by kind, alert_type order by kind, alert_type`)) as unknown as { rows: Record<string, unknown>[] };
    console.error(`${label}: alerts by kind and level`);
    console.table(byKind.rows);
    return { alerts: row.alerts, occurrences: row.occurrences, openNeedingAction: row.open_needing_action, openOccurrences: row.open_occurrences };
  } finally {
    Math.random = random;
    await app.close();
    await database.close();
  }
}

accelerateClock(SPEED);
const quiet = await simulate('one problem, one alert', true);
const baseline = await simulate('baseline: no dwell, no grace, entries as work, every occurrence its own alert', false);
// Raw: what the rules saw with nothing damped, each occurrence once (the baseline run's occurrences).
const raw = baseline.occurrences;
printFigures(
  `Alert noise: the demo's simulator, ${DEVICES} trackers, ${MINUTES} simulated minutes at x${SPEED}, embedded database (baseline: dwell, grace, events and folding off, same run, same seed)`,
  [
    { name: 'raw rule violations (every crossing, entry and silence; baseline run)', value: raw, unit: 'violations' },
    { name: 'alerts stored', value: quiet.alerts, unit: 'alerts', baseline: baseline.alerts },
    { name: 'occurrences seen by the rules', value: quiet.occurrences, unit: 'occurrences', baseline: baseline.occurrences },
    { name: 'open alerts needing action', value: quiet.openNeedingAction, unit: 'alerts', baseline: baseline.openOccurrences, target: 'fewer' },
    {
      name: 'raw violations per open alert needing action',
      value: raw / Math.max(1, quiet.openNeedingAction),
      unit: 'x',
      baseline: raw / Math.max(1, baseline.openOccurrences),
    },
  ],
);
process.exit(0);
