// The records benches' data: prisoners spread over ten years of entries with varied names, statuses and cells, a
// tracker on every prisoner in a cell and a year of alerts (bench/records/run.ts and cpu.ts share it).
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import type { Database } from '../../apps/server/src/db/client';

/** 100,000 prisoners in one statement, spread over ten years of entries, with varied names, statuses and cells. */
export async function fill(database: Database, prisoners: number, log: (text: string) => void) {
  const t0 = performance.now();
  const exec = async (text: string) => {
    if (database.pglite) await database.pglite.exec(text);
    else await database.db.execute(sql.raw(text));
  };
  await exec(`insert into cells (cell_id, block, capacity, security_level)
    select 'B-' || c, chr(65 + c % 6), 4, (array['High','Medium','Low'])[1 + c % 3] from generate_series(1, 500) c`);
  await exec(`insert into prisoners (first_name, last_name, date_of_birth, gender, national_id, entry_date, status, cell_id, created_at)
    select (array['James','Oliver','Amelia','Piotr','Kwame','Carlos','Imran','Minh','Sophie','Liam'])[1 + i % 10],
           (array['Smith','Jones','Taylor','Brown','Nowak','Mensah','Garcia','Khan','Nguyen','Walker','Smithson','Evans'])[1 + (i / 10) % 12]
             || case when i % 7 = 0 then '' else ' ' || (i % 997) end,
           date '1960-01-01' + (i % 15000), (array['Male','Female','Other'])[1 + i % 3], 'United Kingdom',
           date '2015-01-01' + (i % 3650),
           (array['Incarcerated','Incarcerated','On Trial','Released','Transferred'])[1 + i % 5],
           case when i % 5 < 3 and i <= 2000 then 'B-' || (1 + i % 500) end,
           timestamptz '2015-01-01' + make_interval(secs => i * 3000)
    from generate_series(1, ${prisoners}) i`);
  // For the overview: a tracker on every prisoner in a cell (one in ten offline), and a year of alerts,
  // nearly all resolved, a few hundred open, some of them running geofence violations.
  await exec(`insert into devices (id, name, secret_hash, online, last_seen_at)
    select 'bench-' || p.prisoner_id, 'Tracker ' || p.prisoner_id, 'x', p.prisoner_id % 10 <> 0, now() - make_interval(mins => p.prisoner_id % 600)
    from prisoners p where p.cell_id is not null`);
  await exec(`update prisoners set tracking_device_id = 'bench-' || prisoner_id where cell_id is not null`);
  await exec(`insert into alerts (alert_type, kind, details, date, timestamp, prisoner_id, status, ended_at)
    select (array['Informational','Warning','Critical'])[1 + i % 3], case when i % 4 = 0 then 'geofence' else 'offline' end,
           'bench alert ' || i, (now() - make_interval(mins => i * 5))::date, now() - make_interval(mins => i * 5),
           1 + i % 2000, case when i <= 300 then (array['New','Acknowledged'])[1 + i % 2] else 'Resolved' end,
           case when i > 300 or i % 8 = 0 then now() end
    from generate_series(1, ${prisoners}) i`);
  await exec('vacuum analyze');
  log(
    `${database.kind}: loaded ${prisoners.toLocaleString('en-US')} prisoners in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );
}
