// Escorts (issue 12 part 4, decision 035): a prisoner in the care of a police officer or guard, who must stay within
// `max_distance_m` of them between `from` and `until`; while it holds, a Negative perimeter raises nothing for them.
import { z } from 'zod';
import { int32, intText, isoInstant } from './text';

export const ESCORT_DEFAULT_DISTANCE_M = 50;
export const ESCORT_MIN_DISTANCE_M = 5;
export const ESCORT_MAX_DISTANCE_M = 5000;
/** Further apart than the distance for longer than this: the prisoner is unescorted (a Critical alert). */
export const ESCORT_SEPARATION_SECONDS = 30;

/** POST /escorts. `from` defaults to now; `until` null: until ended. */
export const escortInput = z
  .object({
    prisoner_id: int32(),
    staff_id: int32(),
    max_distance_m: int32(ESCORT_MIN_DISTANCE_M, ESCORT_MAX_DISTANCE_M).optional(),
    from: isoInstant().optional(),
    until: isoInstant().nullable().optional(),
  })
  .refine((v) => !v.until || Date.parse(v.until) > Math.max(v.from ? Date.parse(v.from) : 0, Date.now()), {
    path: ['until'],
    message: 'must be later than from and than now',
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
});
export type Escort = z.infer<typeof escort>;

export const escortListResponse = z.object({ data: z.array(escort) });
export const escortWriteResponse = z.object({ message: z.string(), escort });
