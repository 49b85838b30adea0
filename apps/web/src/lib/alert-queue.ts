// The order of the live alert toasts: one shown at a time (the head), the rest waiting in arrival order, except that
// a Critical alert waits only behind the toast on screen and earlier Criticals (issue 11: never behind routine ones).
import type { ShowAlertEvent } from '@prison/shared';

export function enqueueAlert(queue: readonly ShowAlertEvent[], alert: ShowAlertEvent): ShowAlertEvent[] {
  if (alert.alert_type !== 'Critical' || queue.length === 0) return [...queue, alert];
  // The head is on screen: it keeps its 5 s. Behind it, the new Critical goes after the Criticals already waiting.
  let at = 1;
  while (at < queue.length && queue[at]!.alert_type === 'Critical') at++;
  return [...queue.slice(0, at), alert, ...queue.slice(at)];
}

/** The queue without the alerts a workflow step moved (acknowledged or resolved anywhere): their toasts go. */
export function dropAlerts(queue: readonly ShowAlertEvent[], ids: readonly number[]): ShowAlertEvent[] {
  const gone = queue.filter((alert) => alert.alertId !== undefined && ids.includes(alert.alertId));
  return gone.length ? queue.filter((alert) => !gone.includes(alert)) : (queue as ShowAlertEvent[]);
}
