// Alerts (docs/CLIENT-CONTRACT.md; the workflow of "Beyond the spec").
import { z } from 'zod';
import { ALERT_LEVELS, ALERT_STATUSES, ALERT_TYPES, alertTypeOfLevel, DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, type AlertType } from './constants';
import { pageQuery } from './api';
import { boundedText, idText, intText, isoInstant, recentDate, recentTimestamp } from './text';

export const ALERT_KINDS = ['geofence', 'offline', 'sos', 'tamper', 'battery', 'manual', 'keep_apart', 'unescorted', 'roll_count', 'reader_silent', 'observation', 'duress'] as const;

/**
 * One of the nearest other staff trackers named by an officer's SOS (decision 072): its tracker, the
 * staff member, and how far away it was when the alarm was raised, in whole metres.
 */
export const nearbyStaffEntry = z.object({
  device_id: z.string(),
  staff_id: z.number().int(),
  name: z.string(),
  metres: z.number().int(),
});
export type NearbyStaffEntry = z.infer<typeof nearbyStaffEntry>;

/** One person who pressed "Responding" on an alert (decision 100): their name and when. */
export const alertResponder = z.object({
  admin_id: z.number().int(),
  name: z.string(),
  at: z.string(),
});
export type AlertResponder = z.infer<typeof alertResponder>;

export const alertRecord = z.object({
  id: z.number().int(),
  alert_type: z.enum(ALERT_TYPES),
  kind: z.string(),
  details: z.string(),
  date: z.string(),
  timestamp: z.string(),
  device_id: z.string().nullable(),
  prisoner_id: z.number().int().nullable(),
  geofence_id: z.string().nullable(),
  ended_at: z.string().nullable(),
  status: z.enum(ALERT_STATUSES),
  first_name: z.string().nullable(),
  last_name: z.string().nullable(),
  /** The prisoner's number (decision 101), so two of one name are told apart; null: about nobody. */
  prison_number: z.string().nullable().optional(),
  /** The prisoner's cell, so a name is never ambiguous. */
  cell_id: z.string().nullable(),
  acknowledged_by: z.string().nullable(),
  acknowledged_at: z.string().nullable(),
  resolved_by: z.string().nullable(),
  resolved_at: z.string().nullable(),
  note: z.string().nullable(),
  /**
   * How often the problem was seen, the first included: a device alarm repeated within 60 s (decision 038), a zone
   * breached again or a tracker offline again by the same person while the alert is open fold into it.
   */
  repeat_count: z.number().int().optional(),
  /** The last repeat, null when none (decision 038). */
  last_repeat_at: z.string().nullable().optional(),
  /** When the problem was last seen: the last repeat, else when the alert was raised. */
  last_seen_at: z.string().optional(),
  /** False for an event rather than work (an Informational zone alert): out of the open queue, counts and toasts. */
  needs_action: z.boolean().optional(),
  /** A staff SOS only (decision 072): the nearest other staff trackers at the alarm, nearest first; absent otherwise. */
  nearby_staff: z.array(nearbyStaffEntry).optional(),
  /**
   * An alert about a member of staff (his tracker's SOS or fall, a duress; decision 100): his name, shown as
   * "Staff: NAME" where a prisoner's alert shows "Prisoner: NAME"; absent on every other alert.
   */
  staff_name: z.string().optional(),
  /** Who pressed "Responding", in order (decision 100); absent until someone does. */
  responding: z.array(alertResponder).optional(),
  /** A duress alarm only: the account that raised it (it alone stands it down; decision 100). */
  raised_by_id: z.number().int().optional(),
});
export type AlertRecord = z.infer<typeof alertRecord>;

/**
 * POST /alert/all: an alert from an operator or an outside system (docs/CLIENT-CONTRACT.md fields). Idempotent (docs/CLIENT-CONTRACT.md
 * 19, docs/decisions/019): device_id, alert_type and details name the alert; a post naming one stored within the echo
 * window (as the spec's client posts back every showAlert: index, alert_type, message) answers it with 200 and
 * changes nothing; a new one answers 201. date and timestamp say when it happened and play no part in that.
 */
export const alertInput = z.object({
  device_id: idText(100).nullable().optional(),
  /** Stored capitalised; the lowercase level of the live event is taken too, as the spec's client posts it back. */
  alert_type: z
    .enum([...ALERT_TYPES, ...ALERT_LEVELS], { message: `alert_type must be one of ${ALERT_TYPES.join(', ')}` })
    .transform((type): AlertType => ((ALERT_TYPES as readonly string[]).includes(type) ? (type as AlertType) : alertTypeOfLevel(type as (typeof ALERT_LEVELS)[number]))),
  /** The alert's day, within a day of today. */
  date: recentDate.optional(),
  /** Within a day of now: an alert is about something happening, not history or the future. */
  timestamp: recentTimestamp.optional(),
  details: boundedText(2000, { multiline: true }).min(1, 'details is required'),
});
export type AlertInput = z.infer<typeof alertInput>;

/**
 * Without `page` and `limit` (the spec's client asks so, and counts what comes back) the answer is not a page: every
 * open Critical and Warning (at most ALERTS_UNPAGED_OPEN_MAX) and the newest ALERTS_UNPAGED_NEWEST alerts, newest
 * first. With either of them it pages (page 1 and DEFAULT_PAGE_SIZE when one is left out).
 */
export const alertListQuery = pageQuery.extend({
  page: intText(1).optional(),
  limit: intText(1, MAX_PAGE_SIZE).optional(),
  status: z.enum(ALERT_STATUSES).optional(),
  alert_type: z.enum(ALERT_TYPES).optional(),
  prisoner_id: intText().optional(),
  from: isoInstant().optional(),
  to: isoInstant().optional(),
  /** true: the work (the open queue); false: the events (Informational zone alerts); absent: both. */
  needs_action: z.enum(['true', 'false'], { message: 'needs_action must be true or false' }).optional(),
});
export type AlertListQuery = z.infer<typeof alertListQuery>;

/** The unpaged answer's newest alerts, and its bound on the open Criticals and Warnings it adds. */
export const ALERTS_UNPAGED_NEWEST = 1000;
export const ALERTS_UNPAGED_OPEN_MAX = 5000;
/** The page and page size a query asks for; null: neither was given, the unpaged answer. */
export function alertPaging(query: Pick<AlertListQuery, 'page' | 'limit'>): { page: number; limit: number } | null {
  if (query.page === undefined && query.limit === undefined) return null;
  return { page: query.page ?? 1, limit: query.limit ?? DEFAULT_PAGE_SIZE };
}

const alertTypeCounts = z.object({ Critical: z.number().int(), Warning: z.number().int(), Informational: z.number().int() });

/**
 * GET /alert/prisoneralerts answers this body: the list in `data`, paging and counts beside it (docs/CLIENT-CONTRACT.md:
 * the spec's client reads `response.data.data`, and `response.data` is the body).
 */
export const alertPage = z.object({
  data: z.array(alertRecord),
  currentPage: z.number().int(),
  totalPages: z.number().int(),
  totalAlerts: z.number().int(),
  /** Per type over every filter except the type (the layout reads every level's open count from one request). */
  counts: alertTypeCounts,
  /** Per type over every filter, the type included: the alerts screen's header (decision 029). */
  filteredCounts: alertTypeCounts,
  /** Per status over every filter (decision 029). */
  statusCounts: z.object({ New: z.number().int(), Acknowledged: z.number().int(), Resolved: z.number().int() }),
});
export type AlertPage = z.infer<typeof alertPage>;

/** The newest open alerts listed per prisoner on the live map (its popup); the count says how many there are. */
export const LIVE_MAP_ALERTS_LISTED = 5;

/**
 * GET /alert/live-map (decision 026): per prisoner with an open (New) alert or an open geofence violation, the worst
 * open level (what the marker's colour follows), how many are open and the first few (worst first, then newest).
 */
export const liveMapPrisonerAlerts = z.object({
  prisoner_id: z.number().int(),
  /** A geofence violation of any level that has not ended and is not resolved. */
  in_violation: z.boolean(),
  /**
   * The worst level among those violations (null when none): Critical or Warning is "In violation", Informational
   * only "In zone" (decision 044).
   */
  violation_level: z.enum(ALERT_TYPES).nullable(),
  /** The worst level among the open (New) alerts; null when none is open. */
  worst_level: z.enum(ALERT_TYPES).nullable(),
  open_count: z.number().int(),
  open: z.array(
    z.object({ id: z.number().int(), alert_type: z.enum(ALERT_TYPES), details: z.string(), timestamp: z.string() }),
  ),
});
export type LiveMapPrisonerAlerts = z.infer<typeof liveMapPrisonerAlerts>;
/**
 * An open (not resolved) staff SOS with the nearest staff at the alarm (decision 072): the live map marks the officer
 * and them when the alert is opened there. About nobody, so shown to every caseload (decision 051).
 */
export const liveMapStaffInDanger = z.object({
  alert_id: z.number().int(),
  device_id: z.string(),
  details: z.string(),
  timestamp: z.string(),
  status: z.enum(ALERT_STATUSES),
  nearby_staff: z.array(nearbyStaffEntry),
});
export type LiveMapStaffInDanger = z.infer<typeof liveMapStaffInDanger>;
export const liveMapAlerts = z.object({
  data: z.array(liveMapPrisonerAlerts),
  /** Added by decision 072: the open staff SOS alerts, newest first. */
  staff_in_danger: z.array(liveMapStaffInDanger).optional(),
});
export type LiveMapAlerts = z.infer<typeof liveMapAlerts>;
