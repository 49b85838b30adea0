// Changes that weaken an alarm wait for a second person (decision 041): the request with its reason,
// the list of pending changes, and the approver's decision.
import { z } from 'zod';
import { REQUIRED, boundedText, intText, isoInstant } from './text';

export * from './weakening-banner';

/**
 * What a pending change is about: a geofence, a keep-apart pair, an account (a new or raised administrator) or a
 * prisoner (a cell move that lifts an alarm; decision 091).
 */
export const PENDING_CHANGE_TARGETS = ['geofence', 'keep_apart', 'admin', 'prisoner'] as const;
export type PendingChangeTarget = (typeof PENDING_CHANGE_TARGETS)[number];
/**
 * What it does: a geofence is updated or deleted; a keep-apart pair is ended; an administrator account is created or
 * an account raised to administrator; a prisoner is moved to another cell.
 */
export const PENDING_CHANGE_KINDS = ['update', 'delete', 'end', 'create', 'role', 'move'] as const;
export type PendingChangeKind = (typeof PENDING_CHANGE_KINDS)[number];
export const PENDING_CHANGE_DECISIONS = ['approved', 'refused'] as const;
export type PendingChangeDecision = (typeof PENDING_CHANGE_DECISIONS)[number];

const LETTER = /\p{L}/gu;

/** Why the alarm should alert less: words, not a mark (at least 3 letters). */
export const changeReason = boundedText(500, { multiline: true })
  .min(1, REQUIRED)
  .refine((value) => (value.match(LETTER)?.length ?? 0) >= 3, 'must say why in words');

const HOUR_MS = 3_600_000;
/** A weakening of a Critical or Warning zone ends at most this long after it is asked (decision 091). */
export const WEAKENING_MAX_DAYS = 7;
/** The end time a weakening gets when none is given. */
export const WEAKENING_DEFAULT_HOURS = 8;

/** The end time of a weakening: later than now, at most 7 days ahead (the server checks it again at approval). */
export const weakeningUntil = isoInstant().refine((value) => {
  const at = Date.parse(value);
  return at > Date.now() && at <= Date.now() + WEAKENING_MAX_DAYS * 24 * HOUR_MS;
}, `must be later than now and at most ${WEAKENING_MAX_DAYS} days ahead`);

/** The end time of a weakening asked now without one: 8 hours from now. */
export const defaultWeakeningUntil = (now = Date.now()) => new Date(now + WEAKENING_DEFAULT_HOURS * HOUR_MS);

/** The body of a delete that needs a reason (and, for a Critical or Warning zone, when it ends). */
export const deleteWithReason = z.object({ reason: changeReason.optional(), until: weakeningUntil.optional() }).strict().nullish();

/** The words of a refusal under the two-person rule (403), so a client can tell it from a role's refusal. */
export const TWO_PERSON_RULE = 'Two-person rule';

export const pendingChange = z.object({
  id: z.number().int(),
  target_type: z.enum(PENDING_CHANGE_TARGETS),
  target_id: z.string(),
  /** The geofence's name or the pair's two prisoners, as they were when asked. */
  target_name: z.string(),
  kind: z.enum(PENDING_CHANGE_KINDS),
  /** What changes, in plain words ("Alert level: Critical → Informational"). */
  changes: z.array(z.string()),
  reason: z.string(),
  requested_by: z.string(),
  requested_by_admin_id: z.number().int().nullable(),
  requested_at: z.string(),
  decision: z.enum(PENDING_CHANGE_DECISIONS).nullable(),
  decided_by: z.string().nullable(),
  decided_at: z.string().nullable(),
  decision_note: z.string().nullable(),
  /** A weakening of a Critical or Warning zone: when it is reverted by itself (decision 091); null otherwise. */
  until: z.string().nullable(),
  /** When it was reverted (its end time reached), or null. */
  reverted_at: z.string().nullable(),
});
export type PendingChange = z.infer<typeof pendingChange>;

export const pendingChangeQuery = z.object({
  /** `pending` (default): waiting for a decision; `decided`: approved or refused; `all`. */
  status: z.enum(['pending', 'decided', 'all'], { message: 'status must be pending, decided or all' }).default('pending'),
  target_type: z.enum(PENDING_CHANGE_TARGETS, { message: `target_type must be one of ${PENDING_CHANGE_TARGETS.join(', ')}` }).optional(),
  target_id: boundedText(100).optional(),
});
export type PendingChangeQuery = z.infer<typeof pendingChangeQuery>;

export const pendingChangeParams = z.object({ id: intText() });

/** POST /pending-changes/{id}/approve or /refuse: an optional note. */
export const pendingChangeDecisionInput = z.object({ note: boundedText(500, { multiline: true }).optional() }).strict().nullish();

export const pendingChangeListResponse = z.object({ data: z.array(pendingChange) });
export const pendingChangeDecisionResponse = z.object({ message: z.string(), change: pendingChange });

/**
 * GET /pending-changes/weakened: the approved weakenings of Critical and Warning zones still in force, soonest end
 * first. Every staff screen shows a banner while one of a Critical zone is (decision 091).
 */
export const activeWeakening = z.object({
  id: z.number().int(),
  geofence_id: z.string(),
  geofence_name: z.string(),
  /** The zone's level before the change. */
  level: z.enum(['Critical', 'Warning']),
  kind: z.enum(['update', 'delete']),
  changes: z.array(z.string()),
  requested_by: z.string(),
  approved_by: z.string(),
  approved_at: z.string(),
  until: z.string(),
});
export type ActiveWeakening = z.infer<typeof activeWeakening>;
export const activeWeakeningList = z.object({ data: z.array(activeWeakening) });
