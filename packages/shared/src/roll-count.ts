// Block areas and roll counts (decisions 062 and 098): where each block is on the site, and a count of a block (or of
// the prison): what the officers saw, cell by cell, with the trackers' advice beside it (never overruling it).
import { z } from 'zod';
import { GEOFENCE_MAX_POINTS, geoPoint } from './geofence';
import { prisonerFlagKind } from './prisoner-identity';
import { boundedText, int32, intText, nameText, reasonText } from './text';
import { COUNT_LINE_STATES, COUNT_OUT_REASONS, COUNT_STATES, COUNT_WHOLE_PRISON } from './roll-count-labels';

export * from './roll-count-labels';

/** A block's name as a path parameter or a body field (the cells' block names). */
export const blockName = nameText(50).min(1, 'block is required');

export const blockAreaParams = z.object({ id: blockName });

/** PUT /blocks/:id/area: the polygon, as `{ lat, lng }` points; self-intersection is checked on the server. */
export const blockAreaInput = z.object({
  points: z
    .array(geoPoint)
    .min(3, 'points: an area needs at least 3 points')
    .max(GEOFENCE_MAX_POINTS, `points: an area has at most ${GEOFENCE_MAX_POINTS} points`),
});
export type BlockAreaInput = z.infer<typeof blockAreaInput>;

export const blockArea = z.object({
  block: z.string(),
  points: z.array(geoPoint),
  updated_by: z.string(),
  updated_at: z.string(),
});
export type BlockArea = z.infer<typeof blockArea>;
export const blockAreaList = z.object({ data: z.array(blockArea) });

export const countLine = z.object({
  prisoner_id: z.number().int(),
  name: z.string(),
  /** Who is who (decision 101), read when the count starts; absent from counts started before they were kept. */
  prison_number: z.string().nullish(),
  photo_digest: z.string().nullish(),
  flags: z.array(prisonerFlagKind).nullish(),
  block: z.string(),
  cell_id: z.string(),
  device_id: z.string().nullable(),
  state: z.enum(COUNT_LINE_STATES),
  /** elsewhere: the geofence or block the tracker is in ("outside every area" when none). */
  where: z.string().nullable(),
  last_fix_at: z.string().nullable(),
});
export type CountLine = z.infer<typeof countLine>;

export const countBlockTotal = z.object({ block: z.string(), expected: z.number().int(), located: z.number().int() });

/** One submit of a count: the prisoners seen (cell by cell) or a typed number; every submit is kept, the last decides. */
export const countSubmission = z.object({
  at: z.string(),
  by: z.string(),
  /** null: a typed total, which names nobody. */
  seen: z.array(z.number().int()).nullable(),
  counted: z.number().int(),
  state: z.enum(['clear', 'discrepancy']),
  note: z.string().nullable(),
});
export type CountSubmission = z.infer<typeof countSubmission>;

/** A prisoner not seen, accounted for: where he is instead. */
export const countAccount = z.object({
  prisoner_id: z.number().int(),
  name: z.string(),
  block: z.string(),
  reason: z.enum(COUNT_OUT_REASONS),
  note: z.string().nullable(),
  by: z.string(),
  at: z.string(),
});
export type CountAccount = z.infer<typeof countAccount>;

/** A block's roll from its count: expected, seen (null: a whole-prison typed total), out with a reason, to find. */
export const countBlockRoll = z.object({
  block: z.string(),
  expected: z.number().int(),
  seen: z.number().int().nullable(),
  out: z.number().int(),
  to_find: z.number().int(),
});
export type CountBlockRoll = z.infer<typeof countBlockRoll>;

export const countRecord = z.object({
  id: z.number().int(),
  /** null: the whole prison. */
  block_id: z.string().nullable(),
  started_at: z.string(),
  started_by: z.string(),
  expected: z.number().int(),
  located: z.number().int(),
  /** Per block (one for a block's count, every block for the whole prison). */
  blocks: z.array(countBlockTotal),
  lines: z.array(countLine),
  state: z.enum(COUNT_STATES),
  /** The number seen by the last submit (the prisoners ticked, or the typed total). */
  counted: z.number().int().nullable(),
  /** The prisoners seen by the last submit; null when nothing was submitted or the last submit typed a number. */
  seen: z.array(z.number().int()).nullable(),
  /** Every submit, oldest first: a recount adds one, the last decides. */
  submissions: z.array(countSubmission),
  note: z.string().nullable(),
  submitted_at: z.string().nullable(),
  submitted_by: z.string().nullable(),
  /** The prisoners not seen by the last submit and not accounted for (empty after a typed total: see `missing`). */
  to_find: z.array(countLine),
  /** How many are not seen and not accounted for: to_find's length, or for a typed total the roll less the number. */
  missing: z.number().int(),
  /** Prisoners seen whose tracker places them elsewhere: the count stands, each tracker is flagged for a device check. */
  tracker_mismatches: z.array(countLine),
  /** The prisoners not seen, accounted for with a reason (which closed the discrepancy). */
  accounts: z.array(countAccount),
  /** Per block: expected, seen, out with a reason, to find. */
  roll: z.array(countBlockRoll),
  closed_at: z.string().nullable(),
  closed_by: z.string().nullable(),
  close_note: z.string().nullable(),
});
export type CountRecord = z.infer<typeof countRecord>;

/**
 * POST /counts: a block's count (`block_id`) or the whole prison's (`scope: "prison"`), one of the two. An empty body
 * starts nothing: counting every block is asked for in words, never by leaving a field out (decision 095).
 */
export const countStartInput = z
  .object({
    block_id: blockName.optional(),
    scope: z.literal(COUNT_WHOLE_PRISON, { message: 'must be "prison" (the whole prison); a block is named by block_id' }).optional(),
  })
  .superRefine((body, ctx) => {
    if (body.block_id === undefined && body.scope === undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['block_id'],
        message: 'is required: name the block to count, or send scope "prison" to count the whole prison',
      });
    else if (body.block_id !== undefined && body.scope !== undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['scope'],
        message: 'a count is of one block (block_id) or of the whole prison (scope "prison"), not both',
      });
  });
export type CountStartInput = z.infer<typeof countStartInput>;

export const COUNT_MAX_COUNTED = 100_000;
/** The most prisoners one submit can tick (a whole prison's roll). */
export const COUNT_MAX_SEEN = 10_000;
/**
 * POST /counts/:id/submit: the prisoners seen (`seen`, ticked cell by cell) or the number counted (`counted`, typed),
 * one of the two. A second submit of a discrepancy is a recount.
 */
export const countSubmitInput = z
  .object({
    seen: z
      .array(int32(1))
      .max(COUNT_MAX_SEEN, `seen: at most ${COUNT_MAX_SEEN} prisoners`)
      .optional()
      .describe('the prisoners the officer saw (prisoner_id each)'),
    counted: int32(0, COUNT_MAX_COUNTED).optional().describe('the number of prisoners the officer counted'),
    note: boundedText(1000, { multiline: true }).optional(),
  })
  .superRefine((body, ctx) => {
    if (body.seen === undefined && body.counted === undefined)
      ctx.addIssue({ code: 'custom', path: ['seen'], message: 'is required: the prisoners seen, or the number counted (counted)' });
    else if (body.seen !== undefined && body.counted !== undefined)
      ctx.addIssue({ code: 'custom', path: ['counted'], message: 'send the prisoners seen (seen) or a number (counted), not both' });
  });
export type CountSubmitInput = z.infer<typeof countSubmitInput>;

export const countAccountInput = z
  .object({
    prisoner_id: int32(1),
    reason: z.enum(COUNT_OUT_REASONS, { message: `must be one of ${COUNT_OUT_REASONS.join(', ')}` }),
    note: boundedText(500).optional(),
  })
  .superRefine((account, ctx) => {
    if (account.reason === 'other' && !account.note?.trim())
      ctx.addIssue({ code: 'custom', path: ['note'], message: 'is required when the reason is other: say where he is' });
  });
export type CountAccountInput = z.infer<typeof countAccountInput>;

/**
 * POST /counts/:id/close: a discrepancy ends by accounting for each prisoner not seen (`accounts`), with an optional
 * note; a note alone is refused (409): only a recount that agrees or an account of each one ends it.
 */
export const countCloseInput = z.object({
  accounts: z.array(countAccountInput).max(COUNT_MAX_SEEN, `accounts: at most ${COUNT_MAX_SEEN}`).optional(),
  note: reasonText(1000, { multiline: true }).optional(),
});
export type CountCloseInput = z.infer<typeof countCloseInput>;

/** The landing of a cell, read from its number ("A-204": landing 2); null when the cell id has no such number. */
export function landingOf(cellId: string): number | null {
  const digits = /(\d{3,})\D*$/.exec(cellId)?.[1];
  return digits === undefined ? null : Number(digits.slice(0, digits.length - 2));
}

export const countParams = z.object({ id: intText() });
export const countListQuery = z.object({ block_id: blockName.optional() });
export const countList = z.object({ data: z.array(countRecord) });

/** The overview's line per block: its last count (null: never counted). */
export const latestCount = z.object({ block: z.string(), count: countRecord.nullable() });
export const latestCountList = z.object({ data: z.array(latestCount) });
export type LatestCount = z.infer<typeof latestCount>;

/** The socket event reminding a block's officers of a scheduled count. */
export interface CountDueEvent {
  block: string;
  /** The scheduled time, "HH:MM" in the prison's TZ. */
  time: string;
  message: string;
}

/** A scheduled count not submitted this long after its time raises a Warning alert. */
export const COUNT_OVERDUE_MINUTES = 15;
export const DEFAULT_COUNT_TIMES = '08:00,12:30,17:00,21:00';
