// Block areas and roll counts (issue 24 items 1 and 2, decision 062): where each block is on the site, and a count of
// a block (or of the prison) checked against where the prisoners' trackers are.
import { z } from 'zod';
import { GEOFENCE_MAX_POINTS, geoPoint } from './geofence';
import { boundedText, int32, intText, nameText, reasonText } from './text';

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

/** Where a counted prisoner's tracker is. */
export const COUNT_LINE_STATES = ['in_block', 'elsewhere', 'offline', 'untracked'] as const;
export type CountLineState = (typeof COUNT_LINE_STATES)[number];
export const COUNT_LINE_LABELS: Record<CountLineState, string> = {
  in_block: 'In block',
  elsewhere: 'Elsewhere',
  offline: 'Offline',
  untracked: 'Untracked',
};

/** open: started, no number entered; clear and discrepancy: submitted; closed: a discrepancy closed with a note. */
export const COUNT_STATES = ['open', 'clear', 'discrepancy', 'closed'] as const;
export type CountState = (typeof COUNT_STATES)[number];

export const countLine = z.object({
  prisoner_id: z.number().int(),
  name: z.string(),
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
  counted: z.number().int().nullable(),
  note: z.string().nullable(),
  submitted_at: z.string().nullable(),
  submitted_by: z.string().nullable(),
  /** After a discrepancy: the prisoners to find (every line not in its block). */
  to_find: z.array(countLine),
  closed_at: z.string().nullable(),
  closed_by: z.string().nullable(),
  close_note: z.string().nullable(),
});
export type CountRecord = z.infer<typeof countRecord>;

/**
 * POST /counts: a block's count (`block_id`) or the whole prison's (`scope: "prison"`), one of the two. An empty body
 * starts nothing: counting every block is asked for in words, never by leaving a field out (decision 095).
 */
export const COUNT_WHOLE_PRISON = 'prison';
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
export const countSubmitInput = z.object({
  counted: int32(0, COUNT_MAX_COUNTED).describe('the number of prisoners the officer counted'),
  note: boundedText(1000, { multiline: true }).optional(),
});
export type CountSubmitInput = z.infer<typeof countSubmitInput>;

/** A discrepancy is closed only with a note saying what was done. */
export const countCloseInput = z.object({ note: reasonText(1000, { multiline: true }) });
export type CountCloseInput = z.infer<typeof countCloseInput>;

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
