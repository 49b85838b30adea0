// Bulk acknowledge and resolve on the alerts screen: a checkbox per card and a bar acting on the selection.
import { useCallback, useState } from 'react';
import type { AlertWorkflowAction } from '@prison/shared';
import { Button } from '../../components/ui/button';
import { errorMessage } from '../../lib/api-client';
import { useToast } from '../../lib/toast';
import { AlertWorkflowNoteDialog } from './alert-workflow-actions';
import { useAlertBulk } from './alert-workflow-api';

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

/** Above the list: `<AlertWorkflowBulkBar selection={selection} pageIds={alerts.map((a) => a.id)} />`. */
export function AlertWorkflowBulkBar({ selection, pageIds }: { selection: AlertSelection; pageIds: number[] }) {
  const bulk = useAlertBulk();
  const { notify } = useToast();
  const [action, setAction] = useState<AlertWorkflowAction | null>(null);
  const count = selection.selected.size;
  const allOnPage = pageIds.length > 0 && pageIds.every((id) => selection.selected.has(id));

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
          onChange={(event) => selection.setAll(pageIds, event.target.checked)}
          className="h-4 w-4"
        />
        Select all on this page
      </label>
      <span className="text-sm text-slate-600">{count} selected</span>
      <Button size="sm" variant="secondary" disabled={count === 0} onClick={() => setAction('acknowledge')}>
        Acknowledge selected
      </Button>
      <Button size="sm" disabled={count === 0} onClick={() => setAction('resolve')}>
        Resolve selected
      </Button>
      <AlertWorkflowNoteDialog
        action={action}
        count={count}
        busy={bulk.isPending}
        error={bulk.isError ? errorMessage(bulk.error, 'The alerts could not be updated.') : null}
        onCancel={() => {
          bulk.reset();
          setAction(null);
        }}
        onConfirm={(note) =>
          action &&
          bulk.mutate(
            { ids: [...selection.selected], action, note },
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
