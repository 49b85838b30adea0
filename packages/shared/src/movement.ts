// Controlled movements (decision 064): prisoners sent to work, education, healthcare or visits and
// expected at a destination geofence by a due time. Each prisoner is `arrived` when a fix falls inside the destination,
// `overdue` when the due time passes first, `off_route` when he enters a geofence that is neither origin nor destination.
// A movement authorises (decision 099): while in force its destination and the zones it names on the way do not alarm
// for its prisoners; it ends or is cancelled in one tap.
import { z } from 'zod';
import { idText, int32, intText, isoInstant, reasonText } from './text';

export const MOVEMENT_STATES = ['underway', 'arrived', 'overdue', 'off_route'] as const;
export type MovementState = (typeof MOVEMENT_STATES)[number];

/** Worst first: a group's state is the worst of its prisoners'. */
export const MOVEMENT_STATE_ORDER: Record<MovementState, number> = { overdue: 0, off_route: 1, underway: 2, arrived: 3 };

export const MOVEMENT_STATE_LABELS: Record<MovementState, string> = {
  underway: 'Underway',
  arrived: 'Arrived',
  overdue: 'Overdue',
  off_route: 'Off route',
};

/** The worst state of a group's prisoners (an empty group is underway). */
export function worstMovementState(states: readonly MovementState[]): MovementState {
  let worst: MovementState = states.length ? 'arrived' : 'underway';
  for (const state of states) if (MOVEMENT_STATE_ORDER[state] < MOVEMENT_STATE_ORDER[worst]) worst = state;
  return worst;
}

/** The most prisoners one movement takes (a work party or a class). */
export const MOVEMENT_MAX_PRISONERS = 50;
/** `due_by` within this many hours from now (a movement is today's business). */
export const MOVEMENT_MAX_HOURS = 12;

/** The most zones on the way one movement may name. */
export const MOVEMENT_MAX_VIA = 10;
/** The quick due-by choices beside the picker, in minutes from now. */
export const MOVEMENT_QUICK_DUE_MINUTES = [15, 30, 60] as const;

/** The Warning alerts' texts. */
export const movementOverdueText = (prisoner: string, destination: string) => `${prisoner} has not arrived at ${destination}`;
export const movementOffRouteText = (prisoner: string, geofence: string, destination: string) => `${prisoner} entered ${geofence} on the way to ${destination}`;

/** POST /movements. */
export const movementInput = z
  .object({
    prisoner_ids: z
      .array(int32(1), { message: 'prisoner_ids must be a list of prisoner ids' })
      .min(1, { message: 'prisoner_ids must name at least one prisoner' })
      .max(MOVEMENT_MAX_PRISONERS, { message: `prisoner_ids may name at most ${MOVEMENT_MAX_PRISONERS} prisoners` })
      .refine((ids) => new Set(ids).size === ids.length, { message: 'prisoner_ids must not repeat a prisoner' }),
    destination_geofence_id: idText(100).pipe(z.string().min(1, { message: 'destination_geofence_id is required' })),
    due_by: isoInstant(),
    escort_staff_id: int32(1).nullable().optional(),
    /** Zones on the way (a corridor, a gate): no alarm of theirs and not off route while the movement is in force. */
    via_geofence_ids: z
      .array(idText(100).pipe(z.string().min(1, { message: 'must not be empty' })), { message: 'via_geofence_ids must be a list of geofence ids' })
      .max(MOVEMENT_MAX_VIA, { message: `via_geofence_ids may name at most ${MOVEMENT_MAX_VIA} zones` })
      .refine((ids) => new Set(ids).size === ids.length, { message: 'via_geofence_ids must not repeat a zone' })
      .optional(),
    /** Why prisoners go to a destination that is closed at due_by (required then, audited). */
    reason: reasonText(500).optional(),
  })
  .superRefine((v, ctx) => {
    const due = Date.parse(v.due_by);
    const now = Date.now();
    if (due <= now) ctx.addIssue({ code: 'custom', path: ['due_by'], message: 'must be later than now' });
    else if (due > now + MOVEMENT_MAX_HOURS * 3_600_000) ctx.addIssue({ code: 'custom', path: ['due_by'], message: `must be within ${MOVEMENT_MAX_HOURS} hours from now` });
  });
export type MovementInput = z.infer<typeof movementInput>;

export const movementQuery = z.object({
  /** Only the movements of this prisoner (the prisoner's details show the current one). */
  prisoner_id: intText().optional(),
});
export type MovementQuery = z.infer<typeof movementQuery>;

export const movementPrisoner = z.object({
  prisoner_id: z.number().int(),
  first_name: z.string(),
  last_name: z.string(),
  cell_id: z.string().nullable(),
  state: z.enum(MOVEMENT_STATES),
  arrived_at: z.string().nullable(),
  /** The geofence entered on the way, when off route. */
  off_route_geofence: z.string().nullable(),
});
export type MovementPrisoner = z.infer<typeof movementPrisoner>;

export const movement = z.object({
  id: z.number().int(),
  state: z.enum(MOVEMENT_STATES),
  destination: z.object({ geofence_id: z.string(), name: z.string() }),
  due_by: z.string(),
  escort: z.object({ staff_id: z.number().int(), first_name: z.string(), last_name: z.string() }).nullable(),
  created_at: z.string(),
  created_by: z.string(),
  /** The zones on the way it names. */
  via: z.array(z.object({ geofence_id: z.string(), name: z.string() })),
  /** Why it goes to a destination closed at due_by (null: open then). */
  closed_reason: z.string().nullable(),
  /** In force: started, not ended, not cancelled (and not older than a day): its zones do not alarm for its prisoners. */
  in_force: z.boolean(),
  ended_at: z.string().nullable(),
  ended_by: z.string().nullable(),
  cancelled: z.boolean(),
  prisoners: z.array(movementPrisoner),
});
export type Movement = z.infer<typeof movement>;

export const movementListResponse = z.object({ data: z.array(movement) });
export const movementWriteResponse = z.object({ message: z.string(), movement });
