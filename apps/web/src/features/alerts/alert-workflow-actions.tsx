// Acknowledge and resolve for one alert (alert card) and the live toast's Acknowledge and Open. Closing an alarm is
// deliberate (decision 040): a Critical or Warning alert is acknowledged before Resolve is offered, and its
// resolution asks for a note in words; Resolve is never the filled (primary) button. A Critical alert is acknowledged
// with a note too (decision 095).
import { useMay } from '../../lib/use-may';
import { useState } from 'react';
import { resolveIsDeliberate, stepNeedsNote, type AlertWorkflowAction } from '@prison/shared/alert-workflow-rules';
import { alertTypeOfLevel, type AlertStatus, type AlertType } from '@prison/shared/constants';
import type { ShowAlertEvent } from '@prison/shared/realtime';
import { Button } from '../../components/ui/button';
import { errorMessage } from '../../lib/api-client';
import { useToast } from '../../lib/toast';
import { useAcknowledge } from './acknowledge-with-note';
import { AlertWorkflowNoteDialog } from './alert-note-dialog';
import { useAlertStep } from './alert-workflow-api';

const DONE: Record<AlertWorkflowAction, string> = { acknowledge: 'Alert acknowledged.', resolve: 'Alert resolved.' };

/**
 * In each alert card: Acknowledge while New (the filled button), Resolve until Resolved (outlined). A Critical or
 * Warning alert offers Resolve only once acknowledged, and its dialog needs a note; so does a Critical's Acknowledge.
 */
export function AlertWorkflowActions({
  alertId,
  level,
  status,
}: {
  alertId: number;
  level: AlertType;
  status: AlertStatus;
}) {
  const step = useAlertStep();
  const { notify } = useToast();
  const [action, setAction] = useState<AlertWorkflowAction | null>(null);
  const mayWork = useMay('alerts.work');
  if (status === 'Resolved' || !mayWork) return null;
  const deliberate = resolveIsDeliberate(level);

  return (
    <div className="mt-2 flex flex-wrap items-center gap-2" data-testid="alert-workflow-actions">
      {status === 'New' && (
        <Button size="sm" onClick={() => setAction('acknowledge')}>
          Acknowledge
        </Button>
      )}
      {deliberate && status === 'New' ? (
        <span className="text-xs">Resolve after acknowledging</span>
      ) : (
        <Button size="sm" variant="secondary" onClick={() => setAction('resolve')}>
          Resolve
        </Button>
      )}
      <AlertWorkflowNoteDialog
        action={action}
        busy={step.isPending}
        noteRequired={action !== null && stepNeedsNote(action, level)}
        error={step.isError ? errorMessage(step.error, 'The alert could not be updated.') : null}
        onCancel={() => {
          step.reset();
          setAction(null);
        }}
        onConfirm={(note) =>
          action &&
          step.mutate(
            { id: alertId, action, note },
            {
              onSuccess: () => {
                notify(DONE[action]);
                setAction(null);
              },
            },
          )
        }
      />
    </div>
  );
}

/**
 * The live toast's buttons: Acknowledge and Open (the alerts screen at the alert's level). Acknowledge takes a Warning
 * or an Informational alert at once; a Critical one asks for its note in the app's one note dialog, which stays when
 * the toast goes after 5 s. Never Resolve: closing an alarm is done on the alerts screen, with a note.
 */
function AlertToastActions({ alert, open }: { alert: ShowAlertEvent & { alertId: number }; open(path: string): void }) {
  const { acknowledge, pendingId } = useAcknowledge();
  const mayWork = useMay('alerts.work');
  // The live event names the level in lowercase (docs/CLIENT-CONTRACT.md); the workflow and the alerts screen use the type.
  const type = alertTypeOfLevel(alert.alert_type);
  return (
    <div className="mt-2 flex gap-2" data-testid="alert-toast-actions">
      {mayWork && (
        <Button
          size="sm"
          variant="secondary"
          busy={pendingId === alert.alertId}
          onClick={() => acknowledge({ id: alert.alertId, alert_type: type, details: alert.message })}
        >
          Acknowledge
        </Button>
      )}
      <Button
        size="sm"
        variant="secondary"
        onClick={() => open(`/allAlerts?alert_type=${type}&status=New`)}
      >
        Open
      </Button>
    </div>
  );
}

/**
 * For the live toast: `<ToastProvider alertActions={alertWorkflowToastActions(navigate)}>` in app/providers.tsx.
 * A toast carries the stored alert's id (alertId) when the server raised it.
 */
export function alertWorkflowToastActions(open: (path: string) => void) {
  return function ToastActions(alert: ShowAlertEvent) {
    return alert.alertId ? (
      <AlertToastActions key={alert.alertId} alert={{ ...alert, alertId: alert.alertId }} open={open} />
    ) : null;
  };
}
