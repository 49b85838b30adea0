// Prison numbers (decision 101): one per prisoner, unique across archived records too; given by records staff, or the
// next of the prison's sequence (next_prison_number() in the database: "A" and at least four digits).
import { and, eq, ne, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { prisoners } from '../../db/schema';
import { conflict } from '../../lib/http-errors';

export const prisonNumberTaken = (number: string) =>
  conflict(`prison_number: ${number} is already the number of another prisoner (archived records keep theirs)`);

/** Whether a write failed on the prison number's unique index (two writes of one number at the same moment). */
export function isPrisonNumberClash(error: unknown): boolean {
  const seen = error as { code?: string; constraint?: string; cause?: { code?: string; constraint?: string } };
  const clash = (e?: { code?: string; constraint?: string }) => e?.code === '23505' && (e.constraint ?? '').includes('prison_number');
  return clash(seen) || clash(seen?.cause);
}

async function isTaken(tx: Tx, number: string, exceptPrisonerId: number | null): Promise<boolean> {
  const sameNumber = eq(prisoners.prisonNumber, number);
  const [row] = await tx
    .select({ id: prisoners.prisonerId })
    .from(prisoners)
    .where(exceptPrisonerId === null ? sameNumber : and(sameNumber, ne(prisoners.prisonerId, exceptPrisonerId)))
    .limit(1);
  return Boolean(row);
}

/** Refuses a number another prisoner has (409 naming prison_number). */
export async function checkPrisonNumberFree(tx: Tx, number: string, exceptPrisonerId: number | null): Promise<void> {
  if (await isTaken(tx, number, exceptPrisonerId)) throw prisonNumberTaken(number);
}

/** The next number of the sequence that nobody has (records staff may have given one of its numbers by hand). */
export async function assignPrisonNumber(tx: Tx): Promise<string> {
  for (;;) {
    const [row] = rowsOf<{ number: string }>(await tx.execute(sql`select next_prison_number() as number`));
    if (!(await isTaken(tx, row!.number, null))) return row!.number;
  }
}

/** node-postgres answers `{ rows }`, PGlite the same: read either. */
function rowsOf<T>(result: unknown): T[] {
  return ((result as { rows?: T[] }).rows ?? (result as T[])) as T[];
}
