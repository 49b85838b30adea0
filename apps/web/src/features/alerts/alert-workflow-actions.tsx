// Acknowledge and resolve buttons for one alert (alert card or toast), with an optional note.
import { useState } from 'react';
import type { AlertStatus, AlertWorkflowAction } from '@prison/shared';
import { Button } from '../../components/ui/button';
import { TextAreaField } from '../../components/ui/field';
import { Modal } from '../../components/ui/modal';
import { errorMessage } from '../../lib/api-client';
import { useToast } from '../../lib/toast';
import { useAlertStep } from './alert-workflow-api';

const TITLES: Record<AlertWorkflowAction, string> = { acknowledge: 'Acknowledge alert', resolve: 'Resolve alert' };
const DONE: Record<AlertWorkflowAction, string> = { acknowledge: 'Alert acknowledged.', resolve: 'Alert resolved.' };

/** The step dialog: an optional note, then confirm. */
export function AlertWorkflowNoteDialog({
  action,
  busy,
  error,
  onConfirm,
  onCancel,
  count = 1,
}: {
  action: AlertWorkflowAction | null;
  busy: boolean;
  error: string | null;
  onConfirm(note: string | undefined): void;
  onCancel(): void;
  count?: number;
}) {
  const [note, setNote] = useState('');
  const close = () => {
    setNote('');
    onCancel();
  };
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
      <TextAreaField
        label="Note (optional)"
        rows={3}
        maxLength={2000}
        value={note}
        onChange={(event) => setNote(event.target.value)}
      />
      {error && (
        <p role="alert" className="mt-2 text-sm text-red-700">
          {error}
        </p>
      )}
    </Modal>
  );
}

/**
 * Mount in each alert card: `<AlertWorkflowActions alertId={alert.id} status={alert.status} />`.
 * Shows Acknowledge while New and Resolve until Resolved; each asks for an optional note first. `direct` acts at
 * once without the note dialog (a toast disappears after 5 s, and a dialog must not vanish with it).
 */
export function AlertWorkflowActions({
  alertId,
  status,
  direct,
}: {
  alertId: number;
  status: AlertStatus;
  direct?: boolean;
}) {
  const step = useAlertStep();
  const { notify } = useToast();
  const [action, setAction] = useState<AlertWorkflowAction | null>(null);
  if (status === 'Resolved') return null;

  const run = (next: AlertWorkflowAction, note?: string) =>
    step.mutate(
      { id: alertId, action: next, note },
      {
        onSuccess: () => {
          notify(DONE[next]);
          setAction(null);
        },
        onError: (error) => direct && notify(errorMessage(error, 'The alert could not be updated.'), 'error'),
      },
    );
  const choose = (next: AlertWorkflowAction) => (direct ? run(next) : setAction(next));

  return (
    <div className="mt-2 flex gap-2" data-testid="alert-workflow-actions">
      {status === 'New' && (
        <Button
          size="sm"
          variant="secondary"
          busy={direct && step.isPending && step.variables?.action === 'acknowledge'}
          onClick={() => choose('acknowledge')}
        >
          Acknowledge
        </Button>
      )}
      <Button
        size="sm"
        variant={direct ? 'secondary' : 'primary'}
        busy={direct && step.isPending && step.variables?.action === 'resolve'}
        onClick={() => choose('resolve')}
      >
        Resolve
      </Button>
      {!direct && (
        <AlertWorkflowNoteDialog
          action={action}
          busy={step.isPending}
          error={step.isError ? errorMessage(step.error, 'The alert could not be updated.') : null}
          onCancel={() => {
            step.reset();
            setAction(null);
          }}
          onConfirm={(note) => action && run(action, note)}
        />
      )}
    </div>
  );
}

/**
 * For the live toast: `<ToastProvider alertActions={alertWorkflowToastActions}>` in app/providers.tsx.
 * A toast carries the stored alert's id (alertId) when the server raised it; it is then New.
 */
export function alertWorkflowToastActions(alert: { alertId?: number }) {
  return alert.alertId ? <AlertWorkflowActions alertId={alert.alertId} status="New" direct /> : null;
}
