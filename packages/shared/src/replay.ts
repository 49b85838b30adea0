// Replay of everyone: every tracker's fixes over a window, compact, with the alerts of the window
// and the geofences as they were (rebuilt from the audit trail, decision 069).
import { z } from 'zod';
import { ALERT_TYPES } from './constants';
import { geofence } from './geofence';
import { idText, isoInstant } from './text';

/** The longest window one replay may ask for. */
export const REPLAY_MAX_WINDOW_HOURS = 24;
/** The most fixes one answer carries; above it every track is thinned to one fix per `step_ms` (decision 069). */
export const REPLAY_MAX_POINTS = 400_000;
/** The most people one replay may name. */
export const REPLAY_MAX_PEOPLE = 200;
/** The most alerts one answer marks on the timeline. */
export const REPLAY_MAX_ALERTS = 2000;

/** "1,2,3" in a query string: whole positive ids, at most `max` of them. */
function idList(max: number) {
  return z
    .string({ message: 'must be a comma-separated list of ids' })
    .regex(/^\d{1,10}(,\d{1,10})*$/, 'must be a comma-separated list of ids')
    .transform((value) => [...new Set(value.split(',').map(Number))])
    .pipe(z.array(z.number().int().min(1, 'ids must be 1 or more').max(2_147_483_647, 'ids must be at most 2147483647')).max(max, `may name at most ${max} ids`));
}

export const replayQuery = z
  .object({
    from: isoInstant(),
    to: isoInstant(),
    block: idText(100).min(1, 'block must not be empty').optional(),
    prisoner_ids: idList(REPLAY_MAX_PEOPLE).optional(),
    staff_ids: idList(REPLAY_MAX_PEOPLE).optional(),
  })
  .superRefine((value, ctx) => {
    const from = Date.parse(value.from);
    const to = Date.parse(value.to);
    if (!(from < to)) ctx.addIssue({ code: 'custom', path: ['to'], message: 'to must be after from' });
    else if (to - from > REPLAY_MAX_WINDOW_HOURS * 3_600_000) {
      ctx.addIssue({ code: 'custom', path: ['to'], message: `the window may span at most ${REPLAY_MAX_WINDOW_HOURS} hours` });
    }
  });
export type ReplayQuery = z.infer<typeof replayQuery>;

export const REPLAY_WEARERS = ['prisoner', 'staff', 'none'] as const;

export const replayTrack = z.object({
  device_id: z.string(),
  /** Who wore it: the prisoner of its fixes, else the staff member wearing it now, else nobody. */
  wearer: z.enum(REPLAY_WEARERS),
  prisoner_id: z.number().nullable(),
  staff_id: z.number().nullable(),
  name: z.string(),
  block: z.string().nullable(),
  /** The prisoner's prison number and cell now (the people list and the labels name them); null for staff and nobody. */
  prison_number: z.string().nullable(),
  cell_id: z.string().nullable(),
  /** Flat [t, lat, lng, t, lat, lng, ...], oldest first; t in milliseconds after `from`. */
  points: z.array(z.number()),
});
export type ReplayTrack = z.infer<typeof replayTrack>;

export const replayAlert = z.object({
  id: z.number(),
  /** Milliseconds after `from`. */
  t: z.number(),
  alert_type: z.enum(ALERT_TYPES),
  kind: z.string(),
  details: z.string(),
  prisoner_id: z.number().nullable(),
  device_id: z.string().nullable(),
  /** Milliseconds after `from` when it was first acknowledged or resolved (it stops colouring its marker); null: still open. */
  closed_t: z.number().nullable(),
});
export type ReplayAlert = z.infer<typeof replayAlert>;

export const replayGeofenceChange = z.object({
  /** Milliseconds after `from`. */
  t: z.number(),
  geofence_id: z.string(),
  /** The geofence from then on; null: deleted. */
  geofence: geofence.nullable(),
});
export type ReplayGeofenceChange = z.infer<typeof replayGeofenceChange>;

export const replayResponse = z.object({
  from: z.string(),
  to: z.string(),
  /** 0: every fix; otherwise each track keeps its first fix per step_ms (more than REPLAY_MAX_POINTS fixes). */
  step_ms: z.number(),
  tracks: z.array(replayTrack),
  alerts: z.array(replayAlert),
  /** The geofences as they were at `from`, and each change after it within the window. */
  geofences: z.array(geofence),
  geofence_changes: z.array(replayGeofenceChange),
});
export type ReplayResponse = z.infer<typeof replayResponse>;
