// Location history: a prisoner's stored fixes over a time range, thinned for drawing, and exported.
import { z } from 'zod';
import { ALERT_STATUSES, ALERT_TYPES } from './constants';
import { intText, isoInstant } from './text';

/** The most points a history answer draws by default; longer ranges are thinned on the server. */
export const HISTORY_DEFAULT_MAX_POINTS = 2000;
export const HISTORY_MAX_POINTS_LIMIT = 20_000;
/** The longest range one request may ask for. */
export const HISTORY_MAX_RANGE_DAYS = 31;
/** A gap between two fixes longer than this is a loss of signal: it counts towards no geofence. */
export const HISTORY_MAX_GAP_SECONDS = 300;

const range = z.object({
  prisoner_id: intText(),
  from: isoInstant(),
  to: isoInstant(),
});

/** Shared checks of both history queries: the range is ordered and not too long. */
function checkRange(value: { from: string; to: string }, ctx: z.RefinementCtx) {
  const from = Date.parse(value.from);
  const to = Date.parse(value.to);
  if (!(from < to)) ctx.addIssue({ code: 'custom', path: ['to'], message: 'to must be after from' });
  else if (to - from > HISTORY_MAX_RANGE_DAYS * 86_400_000) {
    ctx.addIssue({
      code: 'custom',
      path: ['to'],
      message: `the range may span at most ${HISTORY_MAX_RANGE_DAYS} days`,
    });
  }
}

export const historyQuery = range
  .extend({
    max_points: intText(2, HISTORY_MAX_POINTS_LIMIT).default(HISTORY_DEFAULT_MAX_POINTS),
  })
  .superRefine(checkRange);
export type HistoryQuery = z.infer<typeof historyQuery>;

export const HISTORY_EXPORT_FORMATS = ['gpx', 'csv'] as const;
export const historyExportQuery = range
  .extend({ format: z.enum(HISTORY_EXPORT_FORMATS, { message: 'format must be gpx or csv' }).default('gpx') })
  .superRefine(checkRange);
export type HistoryExportQuery = z.infer<typeof historyExportQuery>;

export const historyPoint = z.object({
  /** ISO instant of the fix (device time). */
  t: z.string(),
  lat: z.number(),
  lng: z.number(),
  speed: z.number().nullable().optional(),
  accuracy: z.number().nullable().optional(),
});
export type HistoryPoint = z.infer<typeof historyPoint>;

export const historyGeofenceTime = z.object({ geofence_id: z.string(), name: z.string(), seconds: z.number() });
export type HistoryGeofenceTime = z.infer<typeof historyGeofenceTime>;

export const historyAlert = z.object({
  id: z.number().int(),
  alert_type: z.enum(ALERT_TYPES),
  kind: z.string(),
  details: z.string(),
  timestamp: z.string(),
  status: z.enum(ALERT_STATUSES),
});
export type HistoryAlert = z.infer<typeof historyAlert>;

export const historyResponse = z.object({
  prisoner_id: z.number().int(),
  prisoner_name: z.string(),
  from: z.string(),
  to: z.string(),
  points: z.array(historyPoint),
  /** Every fix in the range (points may hold fewer). */
  total: z.number().int(),
  thinned: z.boolean(),
  /** Distance along all fixes, in metres. */
  distance_m: z.number(),
  geofence_time: z.array(historyGeofenceTime),
  alerts: z.array(historyAlert),
});
export type HistoryResponse = z.infer<typeof historyResponse>;

/** Player speeds of the history screen. */
export const HISTORY_PLAYER_SPEEDS = [1, 2, 5, 10, 30, 60] as const;
