// Lock: what keeps a batch's devices consistent while it is planned and stored, and so which of persist.ts's forms
// stores it. On one process nothing is locked: the write lane (accept.ts) already orders every batch of a device. In a
// cluster another process may have written a device since this one did: the batch is stored at the revisions it was
// planned on, by one guarded statement; when one moved, nothing was written, the plan goes back, the devices' rows are
// locked, the stale ones take the stored state (takeover.ts), and the batch is planned again and stored under the locks
// in the same transaction. Each fix is judged once, in order, whichever process took the fix before it.
import type { Tx } from '../../db/client';
import type { Fix } from '../fix';
import { clustered, type TrackingContext } from './context';
import { persistInOneStatement, persistPlan, storedInOneStatement, writeAtRevision, type Persisted } from './persist';
import { rollbackPlan, type BatchPlan } from './plan';
import { adoptStoredState, lockDevices } from './takeover';

/** A stored batch: the plan that was stored (after a takeover, the second one) and what it wrote. */
export interface StoredBatch {
  plan: BatchPlan;
  persisted: Persisted;
}

/** Stores a plan in the form the lock allows; a plan it does not store it puts back. */
export type Persist = (plan: BatchPlan) => Promise<StoredBatch>;

/**
 * Runs `attempt` (plan, evaluate, persist) under the batch's lock. In a cluster it may run twice: again after the
 * stale devices took over the state another process stored.
 */
export function lockBatch(ctx: TrackingContext, fixes: Fix[], now: Date, attempt: (persist: Persist) => Promise<StoredBatch>): Promise<StoredBatch> {
  return clustered(ctx) ? atRevisions(ctx, fixes, now, attempt) : attempt((plan) => persistAlone(ctx, plan));
}

/** One process: one statement when the batch allows it, else one transaction; nothing stored puts the plan back. */
async function persistAlone(ctx: TrackingContext, plan: BatchPlan): Promise<StoredBatch> {
  try {
    const persisted = storedInOneStatement(plan) ? await persistInOneStatement(ctx, plan) : await ctx.options.db.transaction((tx) => persistPlan(ctx, tx, plan));
    return { plan, persisted };
  } catch (error) {
    rollbackPlan(ctx, plan);
    throw error;
  }
}

/**
 * Cluster mode: the guarded statement alone when the batch raises nothing or only its own alerts and geofence changes,
 * else as the first statement of its transaction; a moved revision takes the devices' rows and plans again there.
 */
function atRevisions(ctx: TrackingContext, fixes: Fix[], now: Date, attempt: (persist: Persist) => Promise<StoredBatch>): Promise<StoredBatch> {
  const db = ctx.options.db;
  // The plan in memory that is neither stored nor put back yet: whatever fails puts it back.
  let current: BatchPlan | null = null;
  const putBack = () => {
    if (current) rollbackPlan(ctx, current);
    current = null;
  };
  const underLocks = (tx: Tx): Persist => async (plan) => {
    current = plan;
    return { plan, persisted: await persistPlan(ctx, tx, plan) };
  };
  return attempt(async (plan) => {
    current = plan;
    try {
      if (storedInOneStatement(plan)) {
        const stored = await writeAtRevision(ctx, db, plan, true);
        if (stored) return { plan, persisted: { stored, drafts: plan.drafts } };
        putBack();
      }
      const ids = [...new Set(fixes.map((fix) => fix.deviceId))].filter((id) => ctx.registry.get(id)).sort();
      return await db.transaction(async (tx) => {
        if (current && (await writeAtRevision(ctx, tx, current))) return { plan, persisted: await persistPlan(ctx, tx, plan, true) };
        putBack(); // planned on a state another process has moved on from
        await adoptStoredState(ctx, tx, await lockDevices(ctx, tx, ids), now);
        return attempt(underLocks(tx));
      });
    } catch (error) {
      putBack();
      throw error;
    }
  });
}
