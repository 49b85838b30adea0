// Keep-apart pairs (non-associations, decision 032): two prisoners who never share a cell, nor a
// landing or a block when the scope says so, and whose trackers raise a Warning when they meet.
import { z } from 'zod';
import { KEEP_APART_SCOPES } from './cell-rules';
import { changeReason } from './pending-change';
import { boundedText, idText, int32, intText } from './text';

export const KEEP_APART_REASONS = [
  'Bullying',
  'Gang related',
  'Organised crime',
  'Police or legal request',
  'Threat',
  'Violence',
  'Other',
] as const;
export type KeepApartReason = (typeof KEEP_APART_REASONS)[number];

/** POST /keep-apart. */
export const keepApartInput = z
  .object({
    prisoner_a: int32(),
    prisoner_b: int32(),
    reason: z.enum(KEEP_APART_REASONS, { message: `reason must be one of ${KEEP_APART_REASONS.join(', ')}` }),
    /** Not in the same cell, landing (one block, one landing number of the cell) or block. */
    scope: z.enum(KEEP_APART_SCOPES, { message: `scope must be one of ${KEEP_APART_SCOPES.join(', ')}` }),
    comment: boundedText(1000, { multiline: true }).nullable().optional(),
    /**
     * Two prisoners who already share what the scope forbids are kept apart only if one of them moves in the same step
     * (decision 102): which one (prisoner_a or prisoner_b) and to which cell. The move follows every cell rule.
     */
    move_prisoner_id: int32().optional(),
    move_cell_id: idText(50).min(1, 'move_cell_id is required').optional(),
  })
  .refine((v) => v.prisoner_a !== v.prisoner_b, {
    path: ['prisoner_b'],
    message: 'must be another prisoner than prisoner_a',
  })
  .refine((v) => (v.move_prisoner_id === undefined) === (v.move_cell_id === undefined), {
    path: ['move_cell_id'],
    message: 'move_prisoner_id and move_cell_id go together',
  })
  .refine((v) => v.move_prisoner_id === undefined || [v.prisoner_a, v.prisoner_b].includes(v.move_prisoner_id), {
    path: ['move_prisoner_id'],
    message: 'must be prisoner_a or prisoner_b',
  });
export type KeepApartInput = z.infer<typeof keepApartInput>;

/** POST /keep-apart/{id}/end: why the pair no longer applies. */
export const keepApartEndInput = z.object({
  /** Ending a pair waits for a second person (decision 041), who reads this. */
  reason: changeReason,
});
export type KeepApartEndInput = z.infer<typeof keepApartEndInput>;

export const keepApartQuery = z.object({
  prisoner_id: intText().optional(),
  /** `true`: only pairs that have not ended. */
  active: z.enum(['true', 'false'], { message: 'active must be true or false' }).optional(),
});
export type KeepApartQuery = z.infer<typeof keepApartQuery>;

const pairPrisoner = z.object({
  prisoner_id: z.number().int(),
  first_name: z.string(),
  last_name: z.string(),
  cell_id: z.string().nullable(),
});

export const keepApartPair = z.object({
  id: z.number().int(),
  prisoner_a: pairPrisoner,
  prisoner_b: pairPrisoner,
  reason: z.enum(KEEP_APART_REASONS),
  scope: z.enum(KEEP_APART_SCOPES),
  comment: z.string().nullable(),
  created_at: z.string(),
  created_by: z.string(),
  ended_at: z.string().nullable(),
  ended_by: z.string().nullable(),
  end_reason: z.string().nullable(),
});
export type KeepApartPair = z.infer<typeof keepApartPair>;

export const keepApartListResponse = z.object({ data: z.array(keepApartPair) });
export const keepApartWriteResponse = z.object({ message: z.string(), pair: keepApartPair });
