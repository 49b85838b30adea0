// The operations overview (decision 021): the roll per block, open alerts by level and offline trackers, counted in
// one statement (one round trip, one snapshot of the data) so the numbers agree with each other.
import { sql } from 'drizzle-orm';
import {
  ALERT_TYPES,
  OVERVIEW_OFFLINE_TRACKERS_LISTED,
  type BlockRoll,
  type OfflineTracker,
  type OpenAlertLevel,
  type Overview,
  type RollCount,
} from '@prison/shared';
import type { DbOrTx } from '../../db/client';
import { prisonerOccupies } from '../cells/occupancy';

interface OverviewRow {
  blocks: BlockRoll[];
  open_alerts: { alert_type: string; open: number; unacknowledged: number }[];
  offline_total: number;
  offline_newest: OfflineTracker[];
}

const ROLL_FIELDS = ['capacity', 'assigned', 'tracked', 'online', 'offline', 'in_violation', 'untracked'] as const;

export async function readOverview(db: DbOrTx): Promise<Overview> {
  const asOf = new Date().toISOString();
  // "Assigned" is the occupancy rule (a place in a cell); "in violation" is the live map's rule (listOpenViolations:
  // a geofence alert that has not ended and is not resolved), so the numbers match those screens.
  const result = (await db.execute(sql`
    with assigned as (
      select cells.block, prisoners.prisoner_id, devices.id as device_id, devices.online
      from prisoners
      join cells on cells.cell_id = prisoners.cell_id
      left join devices on devices.id = prisoners.tracking_device_id
      where ${prisonerOccupies()}
    ),
    violating as (
      select distinct prisoner_id from alerts
      where kind = 'geofence' and ended_at is null and prisoner_id is not null and status <> 'Resolved'
    ),
    per_block as (
      select a.block,
             count(*)::int as assigned,
             count(a.device_id)::int as tracked,
             count(*) filter (where a.device_id is not null and a.online)::int as online,
             count(*) filter (where a.device_id is not null and not a.online)::int as offline,
             count(v.prisoner_id)::int as in_violation
      from assigned a left join violating v on v.prisoner_id = a.prisoner_id
      group by a.block
    ),
    block_capacity as (
      select block, count(*)::int as cells, sum(capacity)::int as capacity from cells group by block
    ),
    blocks as (
      select c.block, c.cells, c.capacity,
             coalesce(b.assigned, 0) as assigned,
             coalesce(b.tracked, 0) as tracked,
             coalesce(b.online, 0) as online,
             coalesce(b.offline, 0) as offline,
             coalesce(b.in_violation, 0) as in_violation,
             coalesce(b.assigned, 0) - coalesce(b.tracked, 0) as untracked
      from block_capacity c left join per_block b on b.block = c.block
    ),
    open_alerts as (
      select alert_type, count(*)::int as open, count(*) filter (where status = 'New')::int as unacknowledged
      from alerts where status in ('New', 'Acknowledged')
      group by alert_type
    ),
    offline_trackers as (
      select devices.id as device_id, devices.name as device_name, prisoners.prisoner_id,
             prisoners.first_name, prisoners.last_name, prisoners.cell_id, devices.last_seen_at
      from devices join prisoners on prisoners.tracking_device_id = devices.id
      where not devices.online
    )
    select
      (select coalesce(json_agg(blocks order by blocks.block), '[]') from blocks) as blocks,
      (select coalesce(json_agg(open_alerts), '[]') from open_alerts) as open_alerts,
      (select count(*)::int from offline_trackers) as offline_total,
      (select coalesce(json_agg(newest), '[]') from (
         select device_id, device_name, prisoner_id, first_name, last_name, cell_id,
                to_char(last_seen_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as last_seen_at
         from offline_trackers
         order by offline_trackers.last_seen_at desc nulls last, device_id
         limit ${OVERVIEW_OFFLINE_TRACKERS_LISTED}
       ) newest) as offline_newest
  `)) as unknown as { rows: OverviewRow[] };
  const row = result.rows[0]!;

  // Every assigned prisoner is in exactly one block, so the prison's roll is the sum of the blocks'.
  const prison = { cells: 0 } as RollCount & { cells: number };
  for (const field of ROLL_FIELDS) prison[field] = 0;
  for (const block of row.blocks) {
    prison.cells += block.cells;
    for (const field of ROLL_FIELDS) prison[field] += block[field];
  }

  const open_alerts: OpenAlertLevel[] = ALERT_TYPES.map((alert_type) => {
    const level = row.open_alerts.find((entry) => entry.alert_type === alert_type);
    return { alert_type, open: level?.open ?? 0, unacknowledged: level?.unacknowledged ?? 0 };
  });

  return {
    as_of: asOf,
    prison,
    blocks: row.blocks,
    open_alerts,
    offline_trackers: { total: Number(row.offline_total), newest: row.offline_newest },
  };
}
