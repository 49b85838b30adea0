// Observation (welfare) checks (decision 063): each prisoner's level and interval, the checks officers
// record (never edited or deleted; a correction is a new entry naming the old one), and the due list of a block.
import { z } from 'zod';
import { boundedText, int32, intText, nameText, reasonText } from './text';
import { prisonerFlagKind } from './prisoner-identity';

export const OBSERVATION_LEVELS = ['standard', 'enhanced', 'high', 'constant'] as const;
export type ObservationLevel = (typeof OBSERVATION_LEVELS)[number];

export const OBSERVATION_LEVEL_LABELS: Record<ObservationLevel, string> = {
  standard: 'Standard',
  enhanced: 'Enhanced',
  high: 'High',
  constant: 'Constant',
};

/** Levels whose check, overdue by half an interval more, raises a Critical alert besides the Warning. */
export const CRITICAL_OBSERVATION_LEVELS: readonly ObservationLevel[] = ['high', 'constant'];

export const OBSERVATION_MAX_INTERVAL_MINUTES = 1440;
/** What an officer saw: at least this many words ("asleep, breathing normally"). */
export const OBSERVED_MIN_WORDS = 3;

/** How a check's place was judged (decision 063). */
export const CHECK_METHODS = ['position', 'control_room', 'no_tracker'] as const;
export type CheckMethod = (typeof CHECK_METHODS)[number];
/** An officer's tracker within this distance of the prisoner: the check is verified by position. */
export const CHECK_VERIFY_DISTANCE_M = 10;

/** The alert text of an overdue check (word for word). */
export function overdueAlertText(prisonerName: string, cellId: string | null): string {
  return `Observation check overdue: ${prisonerName}, cell ${cellId ?? 'none'}`;
}

const wordCount = (text: string) => text.trim().split(/\s+/).filter((word) => /[\p{L}\p{N}]/u.test(word)).length;

/** PUT /prisoners/{id}/observation. */
export const observationLevelInput = z.object({
  level: z.enum(OBSERVATION_LEVELS, { message: `must be one of ${OBSERVATION_LEVELS.join(', ')}` }),
  /** Overrides the level's interval for this prisoner; null: the level's own. */
  interval_minutes: int32(1, OBSERVATION_MAX_INTERVAL_MINUTES).nullable().optional(),
  reason: reasonText(500),
});
export type ObservationLevelInput = z.infer<typeof observationLevelInput>;

/**
 * The one-tap entries of a round (decision 099): what an officer sees at most doors on standard observation. Enhanced,
 * high and constant keep the written observation. "Not in cell" asks where he is.
 */
export const QUICK_OBSERVATIONS = ['seen_well', 'asleep_breathing', 'not_in_cell'] as const;
export type QuickObservation = (typeof QUICK_OBSERVATIONS)[number];
export const QUICK_OBSERVATION_LABELS: Record<QuickObservation, string> = {
  seen_well: 'Seen, well',
  asleep_breathing: 'Asleep, breathing seen',
  not_in_cell: 'Not in cell',
};
/** The levels whose checks may be a one-tap entry. */
export const QUICK_OBSERVATION_LEVELS: readonly ObservationLevel[] = ['standard'];

/** What a one-tap entry records as the observation ("Not in cell: at healthcare"). */
export function quickObservationText(quick: QuickObservation, where?: string | null): string {
  return quick === 'not_in_cell' ? `${QUICK_OBSERVATION_LABELS.not_in_cell}: ${where ?? ''}`.trim() : QUICK_OBSERVATION_LABELS[quick];
}

/**
 * POST /observations: a check (or, with `corrects_id`, a correction of an earlier one): what was seen in words
 * (`observed`), or, on standard observation, a one-tap entry (`quick`, with `where` for "Not in cell").
 */
export const observationCheckInput = z
  .object({
    prisoner_id: int32(),
    observed: boundedText(1000, { multiline: true })
      .trim()
      .min(1, 'is required: what you saw')
      .refine((text) => wordCount(text) >= OBSERVED_MIN_WORDS, `must say what you saw in at least ${OBSERVED_MIN_WORDS} words`)
      .optional(),
    quick: z.enum(QUICK_OBSERVATIONS, { message: `must be one of ${QUICK_OBSERVATIONS.join(', ')}` }).optional(),
    where: boundedText(200).trim().min(1, 'is required: where he is').optional(),
    corrects_id: int32().optional(),
  })
  .superRefine((v, ctx) => {
    if (v.quick === undefined && v.observed === undefined) ctx.addIssue({ code: 'custom', path: ['observed'], message: 'is required: what you saw' });
    if (v.quick !== undefined && v.observed !== undefined)
      ctx.addIssue({ code: 'custom', path: ['observed'], message: 'must be left out with quick: the one-tap entry says what you saw' });
    if (v.quick === 'not_in_cell' && v.where === undefined) ctx.addIssue({ code: 'custom', path: ['where'], message: 'is required: where he is' });
    if (v.quick !== 'not_in_cell' && v.where !== undefined) ctx.addIssue({ code: 'custom', path: ['where'], message: 'goes only with quick: not_in_cell' });
  });
export type ObservationCheckInput = z.infer<typeof observationCheckInput>;

/** POST /prisoners/{id}/observation/handover: the officer now watching a prisoner on constant observation. */
export const observationHandoverInput = z.object({ staff_id: int32() });
export type ObservationHandoverInput = z.infer<typeof observationHandoverInput>;

export const observationDueQuery = z.object({
  block_id: nameText(50).min(1, 'is required: the block name'),
});
export type ObservationDueQuery = z.infer<typeof observationDueQuery>;

export const observationHistoryQuery = z.object({ limit: intText(1, 200).default(50) });

export const observationWatcher = z.object({
  staff_id: z.number().int(),
  name: z.string(),
  since: z.string(),
});

export const observationCheck = z.object({
  id: z.number().int(),
  prisoner_id: z.number().int(),
  observed: z.string(),
  checked_at: z.string(),
  checked_by: z.string(),
  staff_id: z.number().int().nullable(),
  method: z.enum(CHECK_METHODS),
  verified_by_position: z.boolean(),
  distance_m: z.number().nullable(),
  corrects_id: z.number().int().nullable(),
  level: z.enum(OBSERVATION_LEVELS),
  interval_minutes: z.number().int(),
  /** When the next check is due (a correction moves nothing: null). */
  due_at: z.string().nullable(),
});
export type ObservationCheck = z.infer<typeof observationCheck>;

/** A prisoner's observation: level, interval in force, the last check and when the next is due. */
export const observationStatus = z.object({
  prisoner_id: z.number().int(),
  level: z.enum(OBSERVATION_LEVELS),
  interval_minutes: z.number().int(),
  /** The level's own interval is overridden for this prisoner. */
  interval_overridden: z.boolean(),
  reason: z.string().nullable(),
  last_check_at: z.string().nullable(),
  last_check_by: z.string().nullable(),
  last_verified_by_position: z.boolean().nullable(),
  /** Null only for a prisoner not in custody who was never scheduled (everyone in custody has one, decision 099). */
  due_at: z.string().nullable(),
  overdue: z.boolean(),
  watcher: observationWatcher.nullable(),
});
export type ObservationStatus = z.infer<typeof observationStatus>;

export const observationDueItem = observationStatus.extend({
  first_name: z.string(),
  last_name: z.string(),
  /** Who is who (decision 101): the number, photo and flags in force beside the name on the round screen. */
  prison_number: z.string(),
  photo_digest: z.string().nullable(),
  flags: z.array(prisonerFlagKind),
  cell_id: z.string().nullable(),
});
export type ObservationDueItem = z.infer<typeof observationDueItem>;

export const observationDueResponse = z.object({ block: z.string(), now: z.string(), data: z.array(observationDueItem) });
export type ObservationDueResponse = z.infer<typeof observationDueResponse>;

export const observationWriteResponse = z.object({ message: z.string(), observation: observationStatus });
export const observationCheckResponse = z.object({ message: z.string(), check: observationCheck, observation: observationStatus });
export const observationHistoryResponse = z.object({ observation: observationStatus, checks: z.array(observationCheck) });

/** GET /observations/verify: the chain of checks recomputed; the first row that does not match, if any. */
export const observationVerifyResponse = z.object({
  ok: z.boolean(),
  checked: z.number().int(),
  first_bad_id: z.number().int().nullable(),
  problem: z.string().nullable(),
});
export type ObservationVerifyResponse = z.infer<typeof observationVerifyResponse>;
