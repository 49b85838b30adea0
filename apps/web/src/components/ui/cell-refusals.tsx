// How a cell that a rule refuses is marked wherever cells are offered (decision 031): each reason in a sentence, and
// an "Override" step that asks for the reason before the move is confirmed.
import { useState, type FormEvent } from 'react';
import { OVERRIDE_REASON_MAX, OVERRIDE_REASON_MIN, type CellRefusal } from '@prison/shared/cell-rules';
import { hasWords } from '@prison/shared/text';
import { Button } from './button';
import { TextAreaField } from './field';
import { Modal } from './modal';

const RULE_LABELS: Record<CellRefusal['rule'], string> = {
  capacity: 'Full',
  sex: 'Sex',
  status: 'Status',
  keep_apart: 'Keep apart',
};

export function CellRefusalList({ refusals, testId }: { refusals: CellRefusal[]; testId?: string }) {
  if (refusals.length === 0) return null;
  return (
    <ul className="mt-1 flex flex-col gap-0.5" data-testid={testId} aria-label="Why this cell is refused">
      {refusals.map((r) => (
        <li key={r.rule} className="text-xs text-red-800" data-rule={r.rule}>
          <span className="mr-1 rounded bg-red-100 px-1 font-semibold">{RULE_LABELS[r.rule]}</span>
          {r.message}
        </li>
      ))}
    </ul>
  );
}

export interface OverrideReasonDialogProps {
  /** What is being overridden; null closes the dialog. */
  refusals: CellRefusal[] | null;
  /** e.g. "cell A-101". */
  target: string;
  onCancel(): void;
  /** Throws on failure; its message is shown. */
  onConfirm(reason: string): Promise<void> | void;
}

export function OverrideReasonDialog({ refusals, target, onCancel, onConfirm }: OverrideReasonDialogProps) {
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const text = reason.trim();
    if (text.length < OVERRIDE_REASON_MIN) {
      setError(`Give a reason of at least ${OVERRIDE_REASON_MIN} characters.`);
      return;
    }
    // The server's rule (decision 043): a reason is said in words, not dots.
    if (!hasWords(text)) {
      setError('Say why in words (at least two words).');
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await onConfirm(text);
      setReason('');
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : String(failure));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Modal
      open={refusals !== null}
      onOpenChange={(open) => {
        if (!open) {
          setReason('');
          setError(null);
          onCancel();
        }
      }}
      title={`Override the cell rules for ${target}`}
      description="The override and the rules it overrides are kept in the audit trail."
    >
      <form onSubmit={submit} noValidate aria-label="Override the cell rules">
        <CellRefusalList refusals={refusals ?? []} />
        <div className="mt-3">
          <TextAreaField
            label="Reason for the override"
            value={reason}
            maxLength={OVERRIDE_REASON_MAX}
            rows={3}
            autoFocus
            error={error ?? undefined}
            onChange={(e) => setReason(e.target.value)}
          />
        </div>
        <div className="mt-4 flex justify-end gap-2">
          <Button
            variant="secondary"
            onClick={() => {
              setReason('');
              setError(null);
              onCancel();
            }}
          >
            Cancel
          </Button>
          <Button type="submit" busy={busy}>
            Override and assign
          </Button>
        </div>
      </form>
    </Modal>
  );
}
