// The tamper-evident record of observation checks (decision 063): each row's sha256 covers its content and the hash of
// the row before it, so a row edited, removed or reordered afterwards breaks the chain where `verifyChain` finds it.
import { createHash } from 'node:crypto';
import { asc, desc, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { observationChecks } from '../../db/schema';

/** The `prev_hash` of the first row. */
export const GENESIS_HASH = '0'.repeat(64);
/** Held while a check is chained, so two checks at once cannot take the same previous row. */
export const OBSERVATION_CHAIN_LOCK_KEY = 7_300_140;

/** What a row's hash covers: every stored field but its id and its own hash. */
export interface ChainedContent {
  prisonerId: number;
  observed: string;
  checkedAt: Date;
  checkedBy: string;
  staffId: number | null;
  method: string;
  verifiedByPosition: boolean;
  distanceM: number | null;
  correctsId: number | null;
  level: string;
  intervalMinutes: number;
  dueAt: Date | null;
  prevHash: string;
}

export function hashOf(row: ChainedContent): string {
  const content = JSON.stringify([
    row.prisonerId,
    row.observed,
    row.checkedAt.toISOString(),
    row.checkedBy,
    row.staffId,
    row.method,
    row.verifiedByPosition,
    row.distanceM,
    row.correctsId,
    row.level,
    row.intervalMinutes,
    row.dueAt?.toISOString() ?? null,
    row.prevHash,
  ]);
  return createHash('sha256').update(content).digest('hex');
}

/** Inside the writing transaction: takes the chain's lock and answers the hash the next row follows. */
export async function lockChainHead(tx: DbOrTx): Promise<string> {
  await tx.execute(sql`select pg_advisory_xact_lock(${OBSERVATION_CHAIN_LOCK_KEY})`);
  const [last] = await tx.select({ hash: observationChecks.hash }).from(observationChecks).orderBy(desc(observationChecks.id)).limit(1);
  return last?.hash ?? GENESIS_HASH;
}

export interface ChainVerdict {
  ok: boolean;
  checked: number;
  first_bad_id: number | null;
  problem: string | null;
}

/** Recomputes every row in order; the first row whose hash or link does not hold is named. */
export async function verifyChain(db: DbOrTx): Promise<ChainVerdict> {
  const rows = await db.select().from(observationChecks).orderBy(asc(observationChecks.id));
  let previous = GENESIS_HASH;
  for (const [index, row] of rows.entries()) {
    if (row.prevHash !== previous)
      return { ok: false, checked: index, first_bad_id: row.id, problem: `check ${row.id} does not follow the check before it (a check was removed or changed)` };
    if (hashOf(row) !== row.hash)
      return { ok: false, checked: index, first_bad_id: row.id, problem: `check ${row.id} was changed after it was recorded` };
    previous = row.hash;
  }
  return { ok: true, checked: rows.length, first_bad_id: null, problem: null };
}
