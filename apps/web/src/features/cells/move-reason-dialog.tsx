// A move that lifts an alarm (it takes the prisoner out of a Critical or Warning zone, or he has an open violation;
// decision 091) asks for a reason, then waits for a second person's approval: until then he stays where he is.
import { useState, type FormEvent } from 'react';
import { Button } from '../../components/ui/button';
import { TextAreaField } from '../../components/ui/field';
import { Modal } from '../../components/ui/modal';
import { errorMessage } from '../../lib/api-client';
import { reasonProblem } from '../../lib/reason-problem';

export function MoveReasonDialog({
  target,
  onCancel,
  onConfirm,
}: {
  /** The move asked, or null when the dialog is closed. */
  target: { cellId: string } | null;
  onCancel(): void;
  onConfirm(reason: string): Promise<void>;
}) {
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const close = () => {
    setReason('');
    setError(undefined);
    onCancel();
  };
  async function submit(event: FormEvent) {
    event.preventDefault();
    const problem = reasonProblem(reason);
    setError(problem);
    if (problem) return;
    setBusy(true);
    try {
      await onConfirm(reason.trim());
      setReason('');
    } catch (failure) {
      setError(errorMessage(failure, 'The move was not sent. Please try again.'));
    } finally {
      setBusy(false);
    }
  }
  return (
    <Modal
      open={target !== null}
      onOpenChange={(open) => !open && close()}
      title={`This move to ${target?.cellId ?? ''} lifts an alarm`}
      description="It takes the prisoner out of a Critical or Warning zone, or he has an open violation: it waits for a second person's approval, and until then he stays where he is."
      footer={
        <>
          <Button variant="secondary" onClick={close} disabled={busy}>
            Cancel
          </Button>
          <Button type="submit" form="move-reason-form" busy={busy}>
            Send for approval
          </Button>
        </>
      }
    >
      <form id="move-reason-form" onSubmit={submit} noValidate aria-label="Reason for the move">
        <TextAreaField label="Reason" required autoFocus maxLength={500} rows={3} value={reason} error={error} onChange={(e) => setReason(e.target.value)} />
      </form>
    </Modal>
  );
}
