// Publish: after commit, and only then, what a batch or a tick stored goes out: markers to this process's browsers,
// new alerts to every browser of every process (decision 039), and in cluster mode the positions to the other
// processes; the fix rules take their new state and the batch is counted.
import type { SharedPosition } from '../../cluster';
import { audienceOf, type Audience } from '../../lib/caseload-audience';
import { countBatch } from '../batch-metrics';
import type { TrackedDevice } from '../device-registry';
import type { RuleOutcome } from '../fix-rules';
import type { StoredAlert } from '../ports';
import type { TrackingContext } from './context';
import type { AlertDraft } from './evaluate';
import type { Persisted } from './persist';
import type { BatchPlan } from './plan';

function sharedPosition(device: TrackedDevice): SharedPosition {
  return {
    id: device.id,
    revision: device.revision,
    lastSeenAt: device.lastSeenAt,
    lastFixAt: device.lastFixAt,
    latitude: device.latitude ?? 0,
    longitude: device.longitude ?? 0,
    battery: device.battery,
    online: device.online,
  };
}

/**
 * After commit: every new alert reaches every browser. One folded into an alert already open is no news: the screens
 * refetch (its repeat count and last time), no toast.
 */
export function announceAlerts(ctx: TrackingContext, stored: StoredAlert[], drafts: AlertDraft[]): void {
  const fresh = stored.filter((alert) => !alert.repeated);
  if (fresh.length > 0) {
    ctx.options.metrics?.alertsRaised(fresh);
    void ctx.options.alerts.raised(fresh.map((alert) => ctx.options.alertStore.showAlertEvent(alert, drafts[stored.indexOf(alert)]!.wearer)));
  }
  if (fresh.length < stored.length) ctx.options.realtime.toBrowsers().emit('dataChanged', 'alerts');
}

/**
 * After a batch of fixes committed: its moved markers, its alerts, its positions for the other processes, then the
 * fix rules' new state and the counters.
 */
export function publishBatch(ctx: TrackingContext, plan: BatchPlan, result: Persisted): void {
  const { moved } = plan;
  for (const device of moved) ctx.live.moved(device);
  announceAlerts(ctx, result.stored, result.drafts);
  // An alarm repeat (decision 038) stores no alert of the batch's: the screens refetch all the same.
  if (result.repeated && result.stored.every((alert) => !alert.repeated)) ctx.options.realtime.toBrowsers().emit('dataChanged', 'alerts');
  if (ctx.options.cluster?.enabled) ctx.options.cluster.sharePositions([...moved].map(sharedPosition));
  ruleOutcomesCommitted(plan.ruleOutcomes);
  countBatch(ctx.options.metrics, plan.fixes, plan.outcomes, result.stored);
}

/**
 * Devices gone silent: `userDisconnected` to the browsers of every process that may see each (its wearer's block, or
 * everyone for a staff or unassigned tracker; decision 093). A device this process does not hold goes to the accounts
 * of every block only.
 */
export function publishOffline(ctx: TrackingContext, ids: string[]): void {
  for (const id of ids) announceGone(ctx, id, ctx.registry.get(id));
}

/** `userDisconnected` of one device, to the audience of its wearer as this process last knew him. */
export function announceGone(ctx: TrackingContext, id: string, device: Pick<TrackedDevice, 'prisonerId' | 'block'> | undefined): void {
  const audience: Audience = device ? audienceOf(device) : { block: null };
  ctx.options.realtime.toAudience(audience).emit('userDisconnected', id);
}

/** After the commit only: each fix rule takes its new state (decision 064). */
export function ruleOutcomesCommitted(outcomes: readonly RuleOutcome[]): void {
  for (const outcome of outcomes) outcome.committed?.();
}
