// Custody records are archived, never deleted (decision 042): the list filter and what a record still holds.
import { z } from 'zod';

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
