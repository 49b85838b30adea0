// Changes that weaken an alarm wait for a second person (issue 20 part 5, decision 041): the request with its reason,
// the list of pending changes, and the approver's decision.
import { z } from 'zod';
import { REQUIRED, boundedText, intText } from './text';

/** What a pending change is about: a geofence, or a keep-apart pair. */
export const PENDING_CHANGE_TARGETS = ['geofence', 'keep_apart'] as const;
export type PendingChangeTarget = (typeof PENDING_CHANGE_TARGETS)[number];
/** What it does: a geofence is updated or deleted; a keep-apart pair is ended. */
export const PENDING_CHANGE_KINDS = ['update', 'delete', 'end'] as const;
export type PendingChangeKind = (typeof PENDING_CHANGE_KINDS)[number];
export const PENDING_CHANGE_DECISIONS = ['approved', 'refused'] as const;
export type PendingChangeDecision = (typeof PENDING_CHANGE_DECISIONS)[number];

const LETTER = /\p{L}/gu;

/** Why the alarm should alert less: words, not a mark (at least 3 letters). */
export const changeReason = boundedText(500, { multiline: true })
  .min(1, REQUIRED)
  .refine((value) => (value.match(LETTER)?.length ?? 0) >= 3, 'must say why in words');

/** The body of a delete that needs a reason. */
export const deleteWithReason = z.object({ reason: changeReason.optional() }).strict().nullish();

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
