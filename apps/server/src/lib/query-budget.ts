// The time one heavy question (an investigation, a replay, an export) may work before it answers 400 asking to be
// narrowed. PostgreSQL works in another process: its statements run inside a transaction with a statement timeout.
// PGlite works in this very thread and cannot be interrupted: its questions are asked in bounded slices, yielding to
// the other requests between two, and the time is checked at each slice.
import { setImmediate as yieldToOthers } from 'node:timers/promises';
import { sql } from 'drizzle-orm';
import type { Database, DbOrTx } from '../db/client';
import { badRequest } from './http-errors';

/** PostgreSQL's code for a statement cancelled by statement_timeout. */
const QUERY_CANCELED = '57014';

export interface QueryBudget {
  /** Whether the engine works in this thread (PGlite): then the question must come in slices. */
  inThisThread: boolean;
  /** Between two slices: lets other requests run, and refuses the question once its time is spent. */
  slice(): Promise<void>;
}

/** A 400 for a question too large to answer in time, naming the field to narrow and how. */
export function tooLargeError(field: string, timeoutMs: number, narrow: string) {
  return badRequest(`${field}: too large to answer within ${Math.round(timeoutMs / 1000)} s; ${narrow}`);
}

function wasCancelled(error: unknown): boolean {
  const e = error as { code?: string; cause?: { code?: string } };
  return e?.code === QUERY_CANCELED || e?.cause?.code === QUERY_CANCELED;
}

/**
 * Runs a heavy question within `timeoutMs`; past it, a 400 naming `field` and how to narrow it. On PostgreSQL the
 * question's statements share one read-only transaction whose statement_timeout cancels any that works too long.
 */
export async function withinBudget<T>(
  database: Database,
  timeoutMs: number,
  tooLarge: { field: string; narrow: string },
  question: (db: DbOrTx, budget: QueryBudget) => Promise<T>,
): Promise<T> {
  const refuse = () => tooLargeError(tooLarge.field, timeoutMs, tooLarge.narrow);
  if (database.kind === 'pglite') {
    const deadline = performance.now() + timeoutMs;
    return question(database.db, {
      inThisThread: true,
      slice: async () => {
        await yieldToOthers();
        if (performance.now() > deadline) throw refuse();
      },
    });
  }
  try {
    return await database.db.transaction(async (tx) => {
      // For this transaction only: the timeout; no JIT (compiling these statements' many expressions costs a third of
      // a second, more than it saves); room to sort a week's matches in memory.
      await tx.execute(
        sql`select set_config('statement_timeout', ${String(Math.max(1, Math.round(timeoutMs)))}, true), set_config('jit', 'off', true), set_config('work_mem', '64MB', true)`,
      );
      return question(tx, { inThisThread: false, slice: () => yieldToOthers() });
    });
  } catch (error) {
    if (wasCancelled(error)) throw refuse();
    throw error;
  }
}
