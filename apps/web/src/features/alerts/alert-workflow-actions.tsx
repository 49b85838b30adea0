// Acknowledge and resolve for one alert (alert card) and the live toast's Acknowledge and Open. Closing an alarm is
// deliberate (issue 20, decision 040): a Critical or Warning alert is acknowledged before Resolve is offered, and its
// resolution asks for a note in words; Resolve is never the filled (primary) button.
import { useMay } from '../../lib/use-may';
import { useState, type ReactNode } from 'react';
import {
  noteHasWords,
  resolveIsDeliberate,
  type AlertStatus,
  type AlertType,
  type AlertWorkflowAction,
  type ShowAlertEvent,
} from '@prison/shared';
import { Button } from '../../components/ui/button';
import { TextAreaField } from '../../components/ui/field';
import { Modal } from '../../components/ui/modal';
import { errorMessage } from '../../lib/api-client';
import { useToast } from '../../lib/toast';
import { useAlertStep } from './alert-workflow-api';

const TITLES: Record<AlertWorkflowAction, string> = { acknowledge: 'Acknowledge alert', resolve: 'Resolve alert' };
const DONE: Record<AlertWorkflowAction, string> = { acknowledge: 'Alert acknowledged.', resolve: 'Alert resolved.' };

/** The step dialog: a note (required to resolve a Critical or Warning alert), then confirm. */
export function AlertWorkflowNoteDialog({
  action,
  busy,
  error,
  onConfirm,
  onCancel,
  count = 1,
  noteRequired = false,
  summary,
  disabled = false,
}: {
  action: AlertWorkflowAction | null;
  busy: boolean;
  error: string | null;
  onConfirm(note: string | undefined): void;
  onCancel(): void;
  count?: number;
  noteRequired?: boolean;
  /** What the step will change (the bulk bar's count per level). */
  summary?: ReactNode;
  disabled?: boolean;
}) {
  const [note, setNote] = useState('');
  const close = () => {
    setNote('');
    onCancel();
  };
  const missingNote = noteRequired && !noteHasWords(note);
  return (
    <Modal
      open={action !== null}
      onOpenChange={(open) => !open && close()}
      title={action ? (count > 1 ? `${TITLES[action]}s (${count})` : TITLES[action]) : ''}
      footer={
        <>
          <Button variant="secondary" onClick={close}>
            Cancel
          </Button>
          <Button
            busy={busy}
            disabled={disabled || missingNote}
            onClick={() => {
              onConfirm(note.trim() || undefined);
              setNote('');
            }}
          >
            {action === 'resolve' ? 'Resolve' : 'Acknowledge'}
          </Button>
        </>
      }
    >
      {summary}
      <TextAreaField
        label={noteRequired ? 'Note (required)' : 'Note (optional)'}
        rows={3}
        maxLength={2000}
        required={noteRequired}
        value={note}
        onChange={(event) => setNote(event.target.value)}
      />
      {noteRequired && (
        <p className="mt-1 text-sm text-slate-700">
          Say what was done: a Critical or Warning alert is closed with a note.
        </p>
      )}
      {error && (
        <p role="alert" className="mt-2 text-sm text-red-700">
          {error}
        </p>
      )}
    </Modal>
  );
}

/**
 * In each alert card: Acknowledge while New (the filled button), Resolve until Resolved (outlined). A Critical or
 * Warning alert offers Resolve only once acknowledged, and its dialog needs a note.
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
        noteRequired={action === 'resolve' && deliberate}
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
 * The live toast's buttons: Acknowledge (at once: a toast goes after 5 s, and a dialog must not go with it) and Open
 * (the alerts screen at the alert's level). Never Resolve: closing an alarm is done on the alerts screen, with a note.
 */
function AlertToastActions({ alert, open }: { alert: ShowAlertEvent & { alertId: number }; open(path: string): void }) {
  const step = useAlertStep();
  const { notify, dropAlerts } = useToast();
  const mayWork = useMay('alerts.work');
  return (
    <div className="mt-2 flex gap-2" data-testid="alert-toast-actions">
      {mayWork && (
        <Button
          size="sm"
          variant="secondary"
          busy={step.isPending}
          onClick={() =>
            step.mutate(
              { id: alert.alertId, action: 'acknowledge' },
              {
                onSuccess: () => {
                  dropAlerts([alert.alertId]);
                  notify(DONE.acknowledge);
                },
                onError: (error) => notify(errorMessage(error, 'The alert could not be updated.'), 'error'),
              },
            )
          }
        >
          Acknowledge
        </Button>
      )}
      <Button
        size="sm"
        variant="secondary"
        onClick={() => open(`/allAlerts?alert_type=${alert.alert_type}&status=New`)}
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
