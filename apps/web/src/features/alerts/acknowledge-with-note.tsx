// Acknowledge from the Critical bar, a live toast or a map popup (decision 095). A Critical alert is acknowledged with
// a note: one dialog asks for it, held above every screen (AcknowledgeNoteHost in app/providers.tsx) so it stays open
// when the toast that opened it goes after 5 s or the popup closes. Other levels are acknowledged at once, as before.
import { useSyncExternalStore } from 'react';
import { stepNeedsNote } from '@prison/shared/alert-workflow-rules';
import type { AlertType } from '@prison/shared/constants';
import { errorMessage } from '../../lib/api-client';
import { useToast } from '../../lib/toast';
import { AlertWorkflowNoteDialog } from './alert-note-dialog';
import { useAlertStep } from './alert-workflow-api';

/** The alert to acknowledge: its id, level and text (shown in the dialog, so the note is about the right alert). */
export interface AcknowledgeTarget {
  id: number;
  alert_type: AlertType;
  details: string;
}

const DONE = 'Alert acknowledged.';
const FAILED = 'The alert could not be updated.';

let asking: AcknowledgeTarget | null = null;
const listeners = new Set<() => void>();
function setAsking(next: AcknowledgeTarget | null) {
  asking = next;
  for (const listener of listeners) listener();
}
function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * `const { acknowledge, pendingId } = useAcknowledge()`: `acknowledge(alert)` opens the note dialog for a Critical
 * alert and acknowledges any other at once; `pendingId` is the alert being acknowledged at once, if any.
 */
export function useAcknowledge() {
  const step = useAlertStep();
  const { notify, dropAlerts } = useToast();
  const acknowledge = (alert: AcknowledgeTarget) => {
    if (stepNeedsNote('acknowledge', alert.alert_type)) {
      setAsking(alert);
      return;
    }
    step.mutate(
      { id: alert.id, action: 'acknowledge' },
      {
        onSuccess: () => {
          dropAlerts([alert.id]);
          notify(DONE);
        },
        onError: (error) => notify(errorMessage(error, FAILED), 'error'),
      },
    );
  };
  return { acknowledge, pendingId: step.isPending ? step.variables?.id : undefined };
}

/** The note dialog for a Critical alert's acknowledgement, once for the whole app. */
export function AcknowledgeNoteHost() {
  const alert = useSyncExternalStore(subscribe, () => asking);
  const step = useAlertStep();
  const { notify, dropAlerts } = useToast();
  const close = () => {
    step.reset();
    setAsking(null);
  };
  return (
    <AlertWorkflowNoteDialog
      action={alert ? 'acknowledge' : null}
      noteRequired
      busy={step.isPending}
      error={step.isError ? errorMessage(step.error, FAILED) : null}
      summary={
        alert && (
          <p className="mb-3 text-sm font-medium" data-testid="acknowledge-alert-details">
            {alert.alert_type}: {alert.details}
          </p>
        )
      }
      onCancel={close}
      onConfirm={(note) =>
        alert &&
        step.mutate(
          { id: alert.id, action: 'acknowledge', note },
          {
            onSuccess: () => {
              dropAlerts([alert.id]);
              notify(DONE);
              setAsking(null);
            },
          },
        )
      }
    />
  );
}
