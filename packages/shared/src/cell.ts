// Cells and blocks. current_occupants is derived: prisoners in the cell whose status is On Trial or Incarcerated.
import { z } from 'zod';
import { SECURITY_LEVELS } from './constants';
import { prisoner } from './prisoner';
import { idText, int32, nameText } from './text';
import { overrideReason } from './cell-rules';
import { changeReason, pendingChange } from './pending-change';

export const cell = z.object({
  cell_id: z.string(),
  block: z.string(),
  capacity: z.number().int(),
  current_occupants: z.number().int(),
  security_level: z.enum(SECURITY_LEVELS),
});
export type Cell = z.infer<typeof cell>;

export const cellWithOccupants = cell.extend({
  /** Each occupant with his prison number (decision 101), since names are not unique. */
  occupants: z.array(
    z.object({ prisoner_id: z.number().int(), prison_number: z.string(), first_name: z.string(), last_name: z.string(), status: z.string().nullable() }),
  ),
  /** Active keep-apart pairs whose two prisoners are here as the pair forbids (`keepApartBreach`): flagged on the card. */
  keep_apart_conflicts: z.array(z.object({ pair_id: z.number().int(), message: z.string() })),
});
export type CellWithOccupants = z.infer<typeof cellWithOccupants>;

export const block = z.object({
  block: z.string(),
  cells: z.number().int(),
  capacity: z.number().int(),
  occupants: z.number().int(),
});
export type Block = z.infer<typeof block>;

export const cellInput = z.object({
  cell_id: z.string().trim().min(1, 'cell_id is required').max(50).regex(/^[\w-]+$/, 'cell_id may hold letters, digits, - and _ only'),
  block: nameText(50).min(1, 'block is required'),
  capacity: z.number().int('capacity must be a whole number').min(1, 'capacity must be at least 1').max(100, 'capacity must be at most 100'),
  security_level: z.enum(SECURITY_LEVELS, { message: `security_level must be one of ${SECURITY_LEVELS.join(', ')}` }),
});
export type CellInput = z.infer<typeof cellInput>;

export const cellUpdateInput = cellInput.omit({ cell_id: true }).partial();
export type CellUpdateInput = z.infer<typeof cellUpdateInput>;

/**
 * Move (or first assign) a prisoner into a cell; refused with 409 `{ message, rule }` when it has no room or a rule
 * refuses it (decision 031); `override_reason` overrides any rule but capacity.
 */
export const assignCellInput = z.object({
  prisoner_id: int32(),
  cell_id: idText(50).min(1, 'cell_id is required'),
  override_reason: overrideReason,
  /**
   * Why, when the move lifts an alarm (takes him out of a Critical or Warning zone's scope, or he has an open
   * violation): it then waits for a second person's approval (decision 091).
   */
  reason: changeReason.optional(),
});
export type AssignCellInput = z.infer<typeof assignCellInput>;
/** POST /cell_controls/assign: the prisoner after the move and the cell it is now in. */
export const assignCellResponse = z.object({ message: z.string(), prisoner, cell });
/** POST /cell_controls/assign, a move that waits for approval (202): the prisoner unchanged and the pending change. */
export const assignCellPendingResponse = z.object({ message: z.string(), prisoner, pending: pendingChange });

/**
 * GET /cell_controls/blocks: the block names, sorted (docs/CLIENT-CONTRACT.md: the spec's client reads
 * `response.data.data` as names and asks for `/cell_controls/block?block={name}`).
 */
export const blocksResponse = z.object({ data: z.array(z.string()) });
/** GET /cell_controls/block-summaries: every block with its number of cells, capacity and occupants (our screens). */
export const blockSummariesResponse = z.object({ data: z.array(block) });
export const cellsResponse = z.object({ data: z.array(cell) });

/** GET /cell_controls/addOccupant/{cell_id}: the cell as it stands after the prisoner was created in it. */
export const addOccupantResponse = z.object({ message: z.string(), cell });

/** One block of the occupancy picture (/cell-assign): its cells, each with the prisoners assigned to it. */
export const blockOverview = z.object({
  block: z.string(),
  capacity: z.number().int(),
  occupants: z.number().int(),
  cells: z.array(cellWithOccupants),
});
export type BlockOverview = z.infer<typeof blockOverview>;
/** GET /cell_controls/overview: every block (sorted by name) with its cells (sorted by cell_id). */
export const cellOverviewResponse = z.object({ data: z.array(blockOverview) });

/** POST/PUT /cell_controls/cells answer { message, cell }; DELETE answers { message }. */
export const cellWriteResponse = z.object({ message: z.string(), cell });

export function cellIsFull(c: Pick<Cell, 'capacity' | 'current_occupants'>): boolean {
  return c.current_occupants >= c.capacity;
}

/** Sort orders of the cell picker (docs/CLIENT-CONTRACT.md). */
const securityRank: Record<string, number> = { High: 0, Medium: 1, Low: 2 };
export const cellSorts = {
  'Less Crowded': (a: Cell, b: Cell) => a.current_occupants / a.capacity - b.current_occupants / b.capacity,
  'Higher Security': (a: Cell, b: Cell) => (securityRank[a.security_level] ?? 3) - (securityRank[b.security_level] ?? 3),
} as const;
export type CellSort = keyof typeof cellSorts;
