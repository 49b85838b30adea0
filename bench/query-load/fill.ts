// The stored week of bench/query-load: N trackers worn by N prisoners over a site about 1.5 km across, each roaming
// about 60 m around its own spot, one fix every INTERVAL seconds at its own second, inserted in arrival order with the
// secondary indexes built afterwards (as bench/investigations fills its table).
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import type { Database } from '../../apps/server/src/db/client';
import { fillWalkFixes } from '../lib/walk-fixes';

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
  await fillWalkFixes(db, { trackers, perTracker, start, intervalS, log });
  const t0 = performance.now();
  for (const index of indexes) await run(db, index.indexdef);
  log(`built ${indexes.length} indexes in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  await run(db, 'vacuum analyze positions');
}
