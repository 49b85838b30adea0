// The order of the live alert toasts: one shown at a time (the head), ordered by level, then by arrival. A Critical
// goes ahead of every Warning and Informational at once, the one on screen included (decision 105), behind earlier
// Criticals only; a bulk dismissal never takes a Critical.
import type { AlertLevel } from '@prison/shared/constants';
import type { ShowAlertEvent } from '@prison/shared/realtime';

const RANK: Record<AlertLevel, number> = { critical: 0, warning: 1, informational: 2 };

export function enqueueAlert(queue: readonly ShowAlertEvent[], alert: ShowAlertEvent): ShowAlertEvent[] {
  // After every alert of its level or a higher one: the queue stays sorted by level, then arrival.
  let at = queue.length;
  while (at > 0 && RANK[queue[at - 1]!.alert_type] > RANK[alert.alert_type]) at--;
  return [...queue.slice(0, at), alert, ...queue.slice(at)];
}

/** "Dismiss all": the Warnings and Informationals go; every Critical stays until it has been shown or acknowledged. */
export function dismissRoutine(queue: readonly ShowAlertEvent[]): ShowAlertEvent[] {
  return queue.filter((alert) => alert.alert_type === 'critical');
}

/** The queue without the alerts a workflow step moved (acknowledged or resolved anywhere): their toasts go. */
export function dropAlerts(queue: readonly ShowAlertEvent[], ids: readonly number[]): ShowAlertEvent[] {
  const gone = queue.filter((alert) => alert.alertId !== undefined && ids.includes(alert.alertId));
  return gone.length ? queue.filter((alert) => !gone.includes(alert)) : (queue as ShowAlertEvent[]);
}
