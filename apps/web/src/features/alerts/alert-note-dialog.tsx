// The one dialog of an alert's workflow step: a note, then confirm. The note is required where the step needs one
// (stepNeedsNote: resolving a Critical or Warning alert, decision 040; acknowledging a Critical one, decision 095), and
// the button stays off until the note says something in words, as the server checks.
import { useState, type ReactNode } from 'react';
import { noteHasWords, type AlertWorkflowAction } from '@prison/shared/alert-workflow-rules';
import { Button } from '../../components/ui/button';
import { TextAreaField } from '../../components/ui/field';
import { Modal } from '../../components/ui/modal';

const TITLES: Record<AlertWorkflowAction, string> = { acknowledge: 'Acknowledge alert', resolve: 'Resolve alert' };

/** Why the note is required, under the field. */
const WHY_A_NOTE: Record<AlertWorkflowAction, string> = {
  acknowledge: 'Say what is being done: a Critical alert is acknowledged with a note.',
  resolve: 'Say what was done: a Critical or Warning alert is closed with a note.',
};

/** The step dialog: a note (required where the step needs one), then confirm. */
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
  /** What the step will change (the bulk bar's count per level, or the one alert's text). */
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
      {noteRequired && action && <p className="mt-1 text-sm text-slate-700">{WHY_A_NOTE[action]}</p>}
      {error && (
        <p role="alert" className="mt-2 text-sm text-red-700">
          {error}
        </p>
      )}
    </Modal>
  );
}
