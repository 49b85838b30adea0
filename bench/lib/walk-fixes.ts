// Fixes of bench trackers walking about a 1.5 km site, written in SQL a chunk of about 2 million at a time: the one
// fill the investigation benches share, so their figures are about the same data.
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import type { Database } from '../../apps/server/src/db/client';

export interface WalkFill {
  /** Trackers `bench-1` ... `bench-N`, each worn by prisoner N. */
  trackers: number;
  perTracker: number;
  /** Epoch milliseconds of the first fix. */
  start: number;
  intervalS: number;
  log: (line: string) => void;
}

export async function fillWalkFixes(db: Database, { trackers, perTracker, start, intervalS, log }: WalkFill): Promise<void> {
  const chunk = Math.max(1, Math.floor(2_000_000 / trackers));
  for (let s = 0; s < perTracker; s += chunk) {
    const t0 = performance.now();
    await db.db.execute(
      sql.raw(`
      insert into positions (device_id, prisoner_id, recorded_at, received_at, latitude, longitude)
      select 'bench-' || d, d, ts, ts,
        51.5 + 0.0135 * (((d * 7919) % 1000) / 1000.0 - 0.5) + 0.0004 * sin(s / 40.0 + d),
        -0.12 + 0.02 * (((d * 104729) % 997) / 997.0 - 0.5) + 0.0006 * cos(s / 50.0 + d)
      from generate_series(${s}, ${Math.min(perTracker, s + chunk) - 1}) s
      cross join generate_series(1, ${trackers}) d
      cross join lateral (select to_timestamp(${start / 1000} + s * ${intervalS} + d % ${intervalS}) as ts) t
      order by s, d`),
    );
    if ((s / chunk) % 10 === 0) log(`filled ${(Math.min(perTracker, s + chunk) * trackers).toLocaleString('en-US')} fixes (chunk ${(performance.now() - t0).toFixed(0)} ms)`);
  }
}
