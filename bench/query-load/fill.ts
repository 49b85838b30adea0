// The stored week of bench/query-load: N trackers worn by N prisoners over a site about 1.5 km across, each roaming
// about 60 m around its own spot, one fix every INTERVAL seconds at its own second, inserted in arrival order with the
// secondary indexes built afterwards (as bench/investigations fills its table).
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import type { Database } from '../../apps/server/src/db/client';

export interface Layout {
  trackers: number;
  /** Fixes per tracker. */
  perTracker: number;
  intervalS: number;
  /** Epoch ms of the first fix. */
  start: number;
}

const run = (db: Database, text: string) => db.db.execute(sql.raw(text));

export async function fillWeek(db: Database, layout: Layout, log: (text: string) => void): Promise<void> {
  const { trackers, perTracker, intervalS, start } = layout;
  const { rows: indexes } = (await run(db, `select indexname, indexdef from pg_indexes where tablename = 'positions' and indexname <> 'positions_pkey'`)) as unknown as {
    rows: { indexname: string; indexdef: string }[];
  };
  for (const index of indexes) await run(db, `drop index ${index.indexname}`);
  await run(db, `insert into devices (id, name, secret_hash) select 'bench-' || d, 'Bench ' || d, 'x' from generate_series(1, ${trackers}) d`);
  await run(db, `insert into prisoners (prisoner_id, first_name, last_name, status, tracking_device_id)
    select d, 'Bench', 'Prisoner ' || d, 'Incarcerated', 'bench-' || d from generate_series(1, ${trackers}) d`);
  await run(db, `select setval(pg_get_serial_sequence('prisoners', 'prisoner_id'), ${trackers})`);
  const chunk = Math.max(1, Math.floor(2_000_000 / trackers));
  for (let s = 0; s < perTracker; s += chunk) {
    const t0 = performance.now();
    await run(db, `
      insert into positions (device_id, prisoner_id, recorded_at, received_at, latitude, longitude)
      select 'bench-' || d, d, ts, ts,
        51.5 + 0.0135 * (((d * 7919) % 1000) / 1000.0 - 0.5) + 0.0004 * sin(s / 40.0 + d),
        -0.12 + 0.02 * (((d * 104729) % 997) / 997.0 - 0.5) + 0.0006 * cos(s / 50.0 + d)
      from generate_series(${s}, ${Math.min(perTracker, s + chunk) - 1}) s
      cross join generate_series(1, ${trackers}) d
      cross join lateral (select to_timestamp(${start / 1000} + s * ${intervalS} + d % ${intervalS}) as ts) t
      order by s, d`);
    if ((s / chunk) % 10 === 0) log(`filled ${(Math.min(perTracker, s + chunk) * trackers).toLocaleString('en-US')} fixes (chunk ${(performance.now() - t0).toFixed(0)} ms)`);
  }
  const t0 = performance.now();
  for (const index of indexes) await run(db, index.indexdef);
  log(`built ${indexes.length} indexes in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  await run(db, 'vacuum analyze positions');
}
