// The pipeline of a fix, read top to bottom: the only place that says in which order the steps run. Accept gathers
// checked fixes into batches; each batch is locked, planned, evaluated, persisted and published, one call each, every
// step in the file of this folder named after it.
import type { FixOutcome } from '@prison/shared';
import type { Fix } from '../fix';
import { FixIntake, MAX_BATCHES_IN_FLIGHT } from './accept';
import type { TrackingContext } from './context';
import { evaluateBatch } from './evaluate';
import { lockBatch } from './lock';
import { planBatch } from './plan';
import { publishBatch } from './publish';

/** Accept: checked fixes queue on the write lane, gather into batches, and each batch goes through `writeBatch`. */
export function acceptFixes(ctx: TrackingContext): FixIntake {
  return new FixIntake({
    writeBatch: (fixes) => writeBatch(ctx, fixes),
    failed: (error, what) => ctx.options.databaseHealth.failed(error, what),
    maxInFlight: MAX_BATCHES_IN_FLIGHT,
    independent: (fixes) => independent(ctx, fixes),
  });
}

/** One batch, its steps in order; answers each fix's outcome once it is committed and published. */
export async function writeBatch(ctx: TrackingContext, fixes: Fix[]): Promise<FixOutcome[]> {
  const now = new Date();
  // Lock: nothing on one process; in a cluster the revisions, then the rows (which may plan the batch a second time).
  const { plan, persisted } = await lockBatch(ctx, fixes, now, (persist) => {
    // Plan: the devices' state, the engine and the monitors, in memory.
    const plan = planBatch(ctx, fixes, now);
    // Evaluate: what the plan found becomes alert drafts and geofence events.
    evaluateBatch(ctx, plan);
    // Persist: stored in the form the lock allows; a plan not stored goes back.
    return persist(plan);
  });
  // Publish: after the commit only.
  publishBatch(ctx, plan, persisted);
  return plan.outcomes;
}

/**
 * Whether no fix of the batch reaches state shared between devices (a keep-apart pair, an escort): then its plan
 * touches only its own devices' state, which it alone puts back if it fails, so it may be written beside batches of
 * other devices.
 */
function independent(ctx: TrackingContext, fixes: Fix[]): boolean {
  const { keepApart, escorts } = ctx.options;
  if (!keepApart?.size && !escorts) return true;
  for (const fix of fixes) {
    const device = ctx.registry.get(fix.deviceId);
    if (!device) continue;
    if (device.prisonerId !== null && keepApart?.watches(device.prisonerId)) return false;
    if (escorts?.watches(device.prisonerId, device.staffId)) return false;
  }
  return true;
}
