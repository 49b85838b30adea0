// Escorts (decision 035): a prisoner in the care of a police officer or guard, who must stay within
// `max_distance_m` of them between `from` and `until`; while it holds, a Negative perimeter raises nothing for them.
import { z } from 'zod';
import { int32, intText, isoInstant } from './text';

export const ESCORT_DEFAULT_DISTANCE_M = 50;
export const ESCORT_MIN_DISTANCE_M = 5;
export const ESCORT_MAX_DISTANCE_M = 5000;
/** Further apart than the distance for longer than this: the prisoner is unescorted (a Critical alert). */
export const ESCORT_SEPARATION_SECONDS = 30;
/**
 * The officer's newest fix may be at most this old for an escort to hold (decision 092): a tracker that stops
 * reporting is offline only after DEVICE_OFFLINE_SECONDS, far longer than a prisoner needs to walk out.
 */
export const ESCORT_OFFICER_FIX_MAX_AGE_SECONDS = 30;

/** Sane dates (decision 037): `from` at most a day back (an escort recorded late) and at most 7 days ahead. */
export const ESCORT_FROM_PAST_HOURS = 24;
/** An escort is planned at most this far ahead, and `until` is at most this long after `from`. */
export const ESCORT_MAX_DAYS = 7;
const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/**
 * POST /escorts. `from` defaults to now; `until` null: until ended. `unmonitored: true` records an escort whose
 * officer wears no tracker; it exempts the prisoner from nothing (decision 037).
 */
export const escortInput = z
  .object({
    prisoner_id: int32(),
    staff_id: int32(),
    max_distance_m: int32(ESCORT_MIN_DISTANCE_M, ESCORT_MAX_DISTANCE_M).optional(),
    from: isoInstant().optional(),
    until: isoInstant().nullable().optional(),
    unmonitored: z.boolean({ message: 'unmonitored must be true or false' }).optional(),
  })
  .superRefine((v, ctx) => {
    const now = Date.now();
    const from = v.from ? Date.parse(v.from) : now;
    if (from < now - ESCORT_FROM_PAST_HOURS * HOUR_MS || from > now + ESCORT_MAX_DAYS * DAY_MS)
      ctx.addIssue({ code: 'custom', path: ['from'], message: `must be within ${ESCORT_FROM_PAST_HOURS} hours before now and ${ESCORT_MAX_DAYS} days after` });
    if (!v.until) return;
    const until = Date.parse(v.until);
    if (until <= Math.max(from, now)) ctx.addIssue({ code: 'custom', path: ['until'], message: 'must be later than from and than now' });
    else if (until > from + ESCORT_MAX_DAYS * DAY_MS) ctx.addIssue({ code: 'custom', path: ['until'], message: `must be at most ${ESCORT_MAX_DAYS} days after from` });
  });
export type EscortInput = z.infer<typeof escortInput>;

export const escortQuery = z.object({
  /** Only this prisoner's escorts. */
  prisoner_id: intText().optional(),
  /** `true`: only escorts in force now (not ended, from reached, until not passed). */
  active: z.enum(['true', 'false'], { message: 'active must be true or false' }).optional(),
});
export type EscortQuery = z.infer<typeof escortQuery>;

export const escort = z.object({
  id: z.number().int(),
  prisoner: z.object({ prisoner_id: z.number().int(), first_name: z.string(), last_name: z.string(), cell_id: z.string().nullable() }),
  staff: z.object({ staff_id: z.number().int(), first_name: z.string(), last_name: z.string(), role: z.string() }),
  max_distance_m: z.number().int(),
  from: z.string(),
  until: z.string().nullable(),
  created_at: z.string(),
  created_by: z.string(),
  ended_at: z.string().nullable(),
  ended_by: z.string().nullable(),
  /** Not ended, begun, and not past `until`. */
  active: z.boolean(),
  /** Recorded without a tracked officer: exempts the prisoner from nothing (decision 037). */
  unmonitored: z.boolean(),
  /** In force and proven now (officer's tracker online, officer's position known, not separated): the perimeter waits. */
  escorting: z.boolean(),
  /** Why an escort in force is not escorting (one of ESCORT_NOT_ESCORTING, or the separation); null otherwise. */
  not_escorting_reason: z.string().nullable(),
});
export type Escort = z.infer<typeof escort>;

/** Why an escort in force holds nothing (decision 037): each way its proof can be missing, in the operator's words. */
export const ESCORT_NOT_ESCORTING = {
  unmonitored: 'Unmonitored: record only',
  'no-tracker': 'Officer has no tracker',
  offline: "Officer's tracker offline",
  'no-position': 'No position from the officer yet',
  stale: `No fix from the officer's tracker for over ${ESCORT_OFFICER_FIX_MAX_AGE_SECONDS} s`,
} as const;

export function escortSeparatedReason(distanceMetres: number, maxDistanceM: number): string {
  return `Separated: ${Math.round(distanceMetres)} m from the officer (limit ${maxDistanceM} m)`;
}

export const escortListResponse = z.object({ data: z.array(escort) });
export const escortWriteResponse = z.object({ message: z.string(), escort });
