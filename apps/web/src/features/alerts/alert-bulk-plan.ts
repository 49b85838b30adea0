// What a bulk step on the alerts screen will change, per level, and what it leaves out and why (decision
// 040): a Critical alert is taken only when it was ticked one by one ("Select all on this page" never ticks one), and
// Resolve leaves out the Critical and Warning alerts not yet acknowledged.
import type { AlertRecord } from '@prison/shared/alert';
import { resolveIsDeliberate, stepNeedsNote, type AlertWorkflowAction } from '@prison/shared/alert-workflow';
import { ALERT_TYPES, type AlertType } from '@prison/shared/constants';

export type PlanAlert = Pick<AlertRecord, 'id' | 'alert_type' | 'status'>;

export interface BulkPlan {
  ids: number[];
  /** The Critical alerts among `ids`: the server takes them only when they are listed again. */
  confirmCriticalIds: number[];
  /** Per level, how many alerts the step changes. */
  counts: Record<AlertType, number>;
  /** Critical alerts on the page not ticked one by one, which the step would otherwise change. */
  criticalsLeftOut: number;
  /** Critical and Warning alerts ticked for Resolve while still New. */
  unacknowledgedLeftOut: number;
  /** Resolving a Critical or Warning alert needs a note, and so does acknowledging a Critical one (stepNeedsNote). */
  noteRequired: boolean;
}

const RANK = { New: 0, Acknowledged: 1, Resolved: 2 } as const;
const TARGET_RANK: Record<AlertWorkflowAction, number> = { acknowledge: 1, resolve: 2 };

export function bulkPlan(
  action: AlertWorkflowAction,
  page: readonly PlanAlert[],
  selected: ReadonlySet<number>,
): BulkPlan {
  const changes = (alert: PlanAlert) => RANK[alert.status] < TARGET_RANK[action];
  const open = page.filter(changes);
  const chosen = open.filter((alert) => selected.has(alert.id));
  const unacknowledged = (alert: PlanAlert) =>
    action === 'resolve' && resolveIsDeliberate(alert.alert_type) && alert.status === 'New';
  const taken = chosen.filter((alert) => !unacknowledged(alert));
  const counts = Object.fromEntries(ALERT_TYPES.map((level) => [level, 0])) as Record<AlertType, number>;
  for (const alert of taken) counts[alert.alert_type]++;
  return {
    ids: taken.map((alert) => alert.id),
    confirmCriticalIds: taken.filter((alert) => alert.alert_type === 'Critical').map((alert) => alert.id),
    counts,
    criticalsLeftOut: open.filter((alert) => alert.alert_type === 'Critical' && !selected.has(alert.id)).length,
    unacknowledgedLeftOut: chosen.filter(unacknowledged).length,
    noteRequired: taken.some((alert) => stepNeedsNote(action, alert.alert_type)),
  };
}

/** Most severe first. */
const BY_SEVERITY = [...ALERT_TYPES].reverse();

const VERB: Record<AlertWorkflowAction, string> = { acknowledge: 'Acknowledge', resolve: 'Resolve' };

/** "Resolve 17 Informational; 5 Critical left out: resolve them one by one". */
export function bulkPlanText(action: AlertWorkflowAction, plan: BulkPlan): string {
  const parts = BY_SEVERITY.filter((level) => plan.counts[level] > 0).map((level) => `${plan.counts[level]} ${level}`);
  const sentences = [parts.length ? `${VERB[action]} ${parts.join(', ')}` : `${VERB[action]} nothing`];
  if (plan.criticalsLeftOut) sentences.push(`${plan.criticalsLeftOut} Critical left out: ${action} them one by one`);
  if (plan.unacknowledgedLeftOut)
    sentences.push(`${plan.unacknowledgedLeftOut} not acknowledged left out: acknowledge them first`);
  return sentences.join('; ');
}
