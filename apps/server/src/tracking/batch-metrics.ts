// What a committed batch of fixes adds to the monitoring counters (decision 059): the fixes stored, and for each alert
// it raised, the time from the arrival of its device's fix to now (the alert has just been announced).
import type { FixOutcome } from '@prison/shared';
import type { Fix } from './fix';
import type { StoredAlert, TrackingMetrics } from './ports';

export function countBatch(
  metrics: TrackingMetrics | undefined,
  fixes: readonly Fix[],
  outcomes: readonly FixOutcome[],
  alerts: readonly StoredAlert[],
): void {
  if (!metrics) return;
  let stored = 0;
  for (const outcome of outcomes) if (outcome === 'stored') stored++;
  if (stored > 0) metrics.fixesStored(stored);
  if (alerts.length === 0) return;
  // The latest arrival per device: the fix that raised its alert is its newest in the batch.
  const arrived = new Map<string, number>();
  for (const fix of fixes)
    if (fix.arrivedAt !== undefined && fix.arrivedAt > (arrived.get(fix.deviceId) ?? 0))
      arrived.set(fix.deviceId, fix.arrivedAt);
  const now = Date.now();
  for (const alert of alerts) {
    const at = alert.deviceId === null ? undefined : arrived.get(alert.deviceId);
    if (at !== undefined) metrics.fixToAlert(Math.max(0, now - at) / 1000);
  }
}
