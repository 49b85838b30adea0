// The operations overview (decision 021): the roll per block, open alerts by level and offline trackers, counted in
// one statement (one round trip, one snapshot of the data) so the numbers agree with each other.
import { sql } from 'drizzle-orm';
import {
  ALERT_TYPES,
  seesEveryBlock,
  OVERVIEW_OFFLINE_TRACKERS_LISTED,
  type BlockRoll,
  type OfflineTracker,
  type OpenAlertLevel,
  type Overview,
  type RollCount,
} from '@prison/shared';
import type { DbOrTx } from '../../db/client';
import { nobodyOrInCaseload, prisonerInCaseload, type Caseload } from '../../lib/caseload';
import { prisonerOccupies } from '../cells/occupancy';

interface OverviewRow {
  blocks: BlockRoll[];
  open_alerts: { alert_type: string; open: number; unacknowledged: number }[];
  offline_total: number;
  offline_newest: OfflineTracker[];
}

const ROLL_FIELDS = [
  'capacity',
  'assigned',
  'tracked',
  'online',
  'offline',
  'in_violation',
  'in_zone',
  'untracked',
] as const;

/**
 * `caseload` (decision 051): the blocks counted, their prisoners' alerts (and the alerts about nobody) and their
 * offline trackers; the prison's roll is then the sum of those blocks. Every block adds no condition.
 */
export async function readOverview(db: DbOrTx, caseload: Caseload = []): Promise<Overview> {
  const asOf = new Date().toISOString();
  const everyBlock = seesEveryBlock(caseload);
  const blocksCounted = everyBlock ? sql`` : sql`where block = any(${sql.param([...caseload])}::text[])`;
  const alertsCounted = everyBlock ? sql`` : sql`and ${nobodyOrInCaseload(sql`alerts.prisoner_id`, caseload)}`;
  const trackersCounted = everyBlock ? sql`` : sql`and ${prisonerInCaseload(sql`prisoners.prisoner_id`, caseload)}`;
  // "Assigned" is the occupancy rule (a place in a cell); "in violation" and "in zone" are the live map's rule (a
  // geofence alert that has not ended and is not resolved, by its worst level), so the numbers match those screens.
  const result = (await db.execute(sql`
    with trackers as materialized (
      -- Every device, once: hashed, cheaper than one index probe per assigned prisoner.
      select id, online from devices
    ),
    assigned as (
      -- Read from prisoners_assigned_cell_idx alone (migration 0009): its predicate is this where clause.
      select cells.block, trackers.id as device_id, trackers.online
      from prisoners
      join cells on cells.cell_id = prisoners.cell_id
      left join trackers on trackers.id = prisoners.tracking_device_id
      where ${prisonerOccupies()} and prisoners.cell_id is not null
    ),
    per_block as (
      select block,
             count(*)::int as assigned,
             count(device_id)::int as tracked,
             count(*) filter (where device_id is not null and online)::int as online,
             count(*) filter (where device_id is not null and not online)::int as offline
      from assigned
      group by block
    ),
    -- From the few open violations to their prisoners (not from every assigned prisoner to the alerts). Only a
    -- Critical or Warning one is a violation; a prisoner whose open ones are all Informational is in zone (044).
    violations_per_block as (
      select cells.block,
             count(*) filter (where violating.alarm)::int as in_violation,
             count(*) filter (where not violating.alarm)::int as in_zone
      from (
        select prisoner_id, bool_or(alert_type in ('Critical', 'Warning')) as alarm from alerts
        where kind = 'geofence' and ended_at is null and prisoner_id is not null and status <> 'Resolved'
        group by prisoner_id
      ) violating
      join prisoners on prisoners.prisoner_id = violating.prisoner_id
      join cells on cells.cell_id = prisoners.cell_id
      where ${prisonerOccupies()}
      group by cells.block
    ),
    block_capacity as (
      select block, count(*)::int as cells, sum(capacity)::int as capacity from cells ${blocksCounted} group by block
    ),
    blocks as (
      select c.block, c.cells, c.capacity,
             coalesce(b.assigned, 0) as assigned,
             coalesce(b.tracked, 0) as tracked,
             coalesce(b.online, 0) as online,
             coalesce(b.offline, 0) as offline,
             coalesce(v.in_violation, 0) as in_violation,
             coalesce(v.in_zone, 0) as in_zone,
             coalesce(b.assigned, 0) - coalesce(b.tracked, 0) as untracked
      from block_capacity c
      left join per_block b on b.block = c.block
      left join violations_per_block v on v.block = c.block
    ),
    open_alerts as (
      select alert_type, count(*)::int as open, count(*) filter (where status = 'New')::int as unacknowledged
      from alerts where status in ('New', 'Acknowledged') and needs_action ${alertsCounted}
      group by alert_type
    ),
    offline_trackers as (
      select devices.id as device_id, devices.name as device_name, prisoners.prisoner_id,
             prisoners.first_name, prisoners.last_name, prisoners.cell_id, devices.last_seen_at
      from devices join prisoners on prisoners.tracking_device_id = devices.id
      where not devices.online ${trackersCounted}
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
