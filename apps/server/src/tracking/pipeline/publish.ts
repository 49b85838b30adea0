// Publish: after commit, and only then, what a batch or a tick stored goes out: markers to this process's browsers,
// new alerts to every browser of every process (decision 039), and in cluster mode the positions to the other processes.
import type { SharedPosition } from '../../cluster';
import type { TrackedDevice } from '../device-registry';
import type { RuleOutcome } from '../fix-rules';
import type { StoredAlert } from '../ports';
import type { TrackingContext } from './context';
import type { AlertDraft } from './evaluate';
import type { Persisted } from './persist';

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

/** After commit: every stored alert reaches every browser. */
export function announceAlerts(ctx: TrackingContext, stored: StoredAlert[], drafts: AlertDraft[]): void {
  if (stored.length === 0) return;
  ctx.options.metrics?.alertsRaised(stored);
  void ctx.options.alerts.raised(stored.map((alert, i) => ctx.options.alertStore.showAlertEvent(alert, drafts[i]!.wearer)));
}

/** After a batch of fixes committed: its moved markers, its alerts, and its positions for the other processes. */
export function publishBatch(ctx: TrackingContext, moved: Set<TrackedDevice>, result: Persisted): void {
  for (const device of moved) ctx.live.moved(device);
  announceAlerts(ctx, result.stored, result.drafts);
  if (result.repeated && result.stored.length === 0) ctx.options.realtime.toBrowsers().emit('dataChanged', 'alerts');
  if (ctx.options.cluster?.enabled) ctx.options.cluster.sharePositions([...moved].map(sharedPosition));
}

/** Devices gone silent: off this process's map, and `userDisconnected` to every browser. */
export function publishOffline(ctx: TrackingContext, ids: string[]): void {
  for (const id of ids) ctx.options.realtime.toBrowsers().emit('userDisconnected', id);
}

/** After the commit only: each fix rule takes its new state (decision 064). */
export function ruleOutcomesCommitted(outcomes: readonly RuleOutcome[]): void {
  for (const outcome of outcomes) outcome.committed?.();
}
