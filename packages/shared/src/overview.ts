// GET /overview: the operations overview on the home page (decision 021). Every number is a count taken
// from the database in one statement; the definitions are in docs/decisions/021-operations-overview.md.
import { z } from 'zod';
import { ALERT_TYPES } from './constants';

/** The roll of one block, or of the whole prison. */
export const rollCount = z.object({
  /** Sum of the cells' capacities. */
  capacity: z.number().int(),
  /** Prisoners On Trial or Incarcerated with a cell here (the occupancy rule, docs/CLIENT-CONTRACT.md). */
  assigned: z.number().int(),
  /** Assigned prisoners with a tracking device. */
  tracked: z.number().int(),
  /** Tracked prisoners whose device is online / offline (online + offline = tracked). */
  online: z.number().int(),
  offline: z.number().int(),
  /** Assigned prisoners with an open Critical or Warning geofence violation (not ended, not resolved). */
  in_violation: z.number().int(),
  /** Assigned prisoners whose open geofence violations are all Informational: "in zone", not alarms (decision 044). */
  in_zone: z.number().int(),
  /** Assigned minus tracked. */
  untracked: z.number().int(),
});
export type RollCount = z.infer<typeof rollCount>;

export const blockRoll = rollCount.extend({ block: z.string(), cells: z.number().int() });
export type BlockRoll = z.infer<typeof blockRoll>;

/** Alerts of one level that are not resolved; `unacknowledged` of them are still New (the Critical bar's count). */
export const openAlertLevel = z.object({
  alert_type: z.enum(ALERT_TYPES),
  open: z.number().int(),
  unacknowledged: z.number().int(),
});
export type OpenAlertLevel = z.infer<typeof openAlertLevel>;

/** A tracker assigned to a prisoner that is offline; `last_seen_at` null when it never reported. */
export const offlineTracker = z.object({
  device_id: z.string(),
  device_name: z.string(),
  prisoner_id: z.number().int(),
  first_name: z.string(),
  last_name: z.string(),
  cell_id: z.string().nullable(),
  last_seen_at: z.string().nullable(),
});
export type OfflineTracker = z.infer<typeof offlineTracker>;

/** How many offline trackers the overview lists by name (the newest losses first); `offline_trackers.total` counts all. */
export const OVERVIEW_OFFLINE_TRACKERS_LISTED = 5;

export const overviewResponse = z.object({
  /** When the counts were taken (server clock, ISO 8601 UTC). */
  as_of: z.string(),
  prison: rollCount.extend({ cells: z.number().int() }),
  blocks: z.array(blockRoll),
  /** One entry per level, in ALERT_TYPES order, zeros included. */
  open_alerts: z.array(openAlertLevel),
  offline_trackers: z.object({ total: z.number().int(), newest: z.array(offlineTracker) }),
});
export type Overview = z.infer<typeof overviewResponse>;
