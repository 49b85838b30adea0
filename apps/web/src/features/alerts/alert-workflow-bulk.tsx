// Bulk acknowledge and resolve on the alerts screen: a checkbox per card and a bar acting on the selection. A Critical
// alert is in a bulk step only when ticked one by one (decision 040; alert-bulk-plan).
import { useCallback, useState } from 'react';
import type { AlertWorkflowAction } from '@prison/shared/alert-workflow';
import { Button } from '../../components/ui/button';
import { errorMessage } from '../../lib/api-client';
import { useToast } from '../../lib/toast';
import { AlertWorkflowNoteDialog } from './alert-note-dialog';
import { useAlertBulk } from './alert-workflow-api';
import { bulkPlan, bulkPlanText, type PlanAlert } from './alert-bulk-plan';

/** The selection of the alerts screen: `const selection = useAlertSelection()`. */
export function useAlertSelection() {
  const [selected, setSelected] = useState<ReadonlySet<number>>(new Set());
  const toggle = useCallback((id: number, on: boolean) => {
    setSelected((current) => {
      const next = new Set(current);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  }, []);
  const setAll = useCallback((ids: number[], on: boolean) => setSelected(on ? new Set(ids) : new Set()), []);
  const clear = useCallback(() => setSelected(new Set()), []);
  return { selected, toggle, setAll, clear };
}
export type AlertSelection = ReturnType<typeof useAlertSelection>;

/** In each card: `<AlertWorkflowCheckbox alertId={alert.id} selection={selection} />`. */
export function AlertWorkflowCheckbox({ alertId, selection }: { alertId: number; selection: AlertSelection }) {
  return (
    <input
      type="checkbox"
      aria-label={`Select alert ${alertId}`}
      checked={selection.selected.has(alertId)}
      onChange={(event) => selection.toggle(alertId, event.target.checked)}
      className="h-4 w-4"
    />
  );
}

/**
 * Above the list: `<AlertWorkflowBulkBar selection={selection} page={rows} />`. "Select all on this page" ticks every
 * alert but the Critical ones, which are taken only when ticked one by one; the bar says what each action will change.
 */
export function AlertWorkflowBulkBar({ selection, page }: { selection: AlertSelection; page: readonly PlanAlert[] }) {
  const bulk = useAlertBulk();
  const { notify } = useToast();
  const [action, setAction] = useState<AlertWorkflowAction | null>(null);
  const routineIds = page.filter((alert) => alert.alert_type !== 'Critical').map((alert) => alert.id);
  const count = page.filter((alert) => selection.selected.has(alert.id)).length;
  const allOnPage = routineIds.length > 0 && routineIds.every((id) => selection.selected.has(id));
  const plans = {
    acknowledge: bulkPlan('acknowledge', page, selection.selected),
    resolve: bulkPlan('resolve', page, selection.selected),
  };
  const plan = action ? plans[action] : null;

  return (
    <div
      role="toolbar"
      aria-label="Bulk actions"
      className="mb-3 flex flex-wrap items-center gap-3 rounded-md border border-slate-200 bg-white px-3 py-2"
    >
      <label className="flex items-center gap-2 text-sm">
        <input
          type="checkbox"
          checked={allOnPage}
          onChange={(event) => selection.setAll(routineIds, event.target.checked)}
          className="h-4 w-4"
        />
        Select all on this page (Critical alerts one by one)
      </label>
      <span className="text-sm text-slate-600">{count} selected</span>
      <Button
        size="sm"
        variant="secondary"
        disabled={plans.acknowledge.ids.length === 0}
        onClick={() => setAction('acknowledge')}
      >
        Acknowledge selected
      </Button>
      <Button
        size="sm"
        variant="secondary"
        disabled={plans.resolve.ids.length === 0}
        onClick={() => setAction('resolve')}
      >
        Resolve selected
      </Button>
      {count > 0 && (
        <div className="basis-full text-sm text-slate-700" data-testid="bulk-plans">
          {(['acknowledge', 'resolve'] as const).map((each) => (
            <p key={each} data-testid={`bulk-plan-${each}`}>
              {bulkPlanText(each, plans[each])}
            </p>
          ))}
        </div>
      )}
      <AlertWorkflowNoteDialog
        action={action}
        count={plan?.ids.length ?? 0}
        noteRequired={plan?.noteRequired}
        disabled={!plan?.ids.length}
        summary={
          action &&
          plan && (
            <p className="mb-3 text-sm font-medium" data-testid="bulk-plan">
              {bulkPlanText(action, plan)}
            </p>
          )
        }
        busy={bulk.isPending}
        error={bulk.isError ? errorMessage(bulk.error, 'The alerts could not be updated.') : null}
        onCancel={() => {
          bulk.reset();
          setAction(null);
        }}
        onConfirm={(note) =>
          action &&
          plan &&
          bulk.mutate(
            {
              ids: plan.ids,
              action,
              note,
              ...(plan.confirmCriticalIds.length > 0 && { confirm_critical_ids: plan.confirmCriticalIds }),
            },
            {
              onSuccess: (result) => {
                const verb = action === 'resolve' ? 'resolved' : 'acknowledged';
                notify(
                  `${result.updated.length} alerts ${verb}${result.skipped.length ? `, ${result.skipped.length} already ${verb}` : ''}.`,
                );
                selection.clear();
                setAction(null);
              },
            },
          )
        }
      />
    </div>
  );
}
