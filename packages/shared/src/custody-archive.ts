// Custody records are archived, never deleted (decision 042): the list filter and what a record still holds.
import { z } from 'zod';
import { isOccupyingStatus, ruleName } from './cell-rules';

/** A list's `archived` filter: `true` lists only archived records; absent or `false`, only the others. */
export const archivedFilter = z.enum(['true', 'false'], { message: 'archived must be true or false' }).optional();

/** What a prisoner still has, named by the Delete confirmation (GET /prisoner/holdings/{id}). */
export const prisonerHoldings = z.object({
  prisoner_id: z.number().int(),
  status: z.string().nullable(),
  tracking_device_id: z.string().nullable(),
  /** Open (New or Acknowledged) alerts per level. */
  open_alerts: z.object({ Critical: z.number().int(), Warning: z.number().int(), Informational: z.number().int() }),
  keep_apart_pairs: z.number().int(),
  active_escorts: z.number().int(),
});
export type PrisonerHoldings = z.infer<typeof prisonerHoldings>;

/**
 * Why a record may not be archived yet (decision 102), or null: a prisoner On Trial or Incarcerated in a cell is in
 * custody, and archiving would take him out of every roll and count while he is still there. A Released or
 * Transferred prisoner, or one never placed in a cell (a mistaken entry), is archived.
 */
export function custodyArchiveRefusal(p: {
  prisoner_id: number;
  first_name: string;
  last_name: string;
  status: string | null;
  cell_id: string | null;
}): string | null {
  if (!isOccupyingStatus(p.status) || !p.cell_id) return null;
  return `${ruleName(p)} is ${p.status} in cell ${p.cell_id}: release or transfer him first, then archive the record`;
}
