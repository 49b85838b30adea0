// Shown before saving a change that weakens an alarm (decision 041): the notice, what changes, and the reason the
// second person will read.
import { changeReason, WEAKENING_NOTICE } from '@prison/shared';
import { TextAreaField } from '../../../components/ui/field';

export function WeakeningReason({
  changes,
  reason,
  onReasonChange,
  error,
}: {
  changes: readonly string[];
  reason: string;
  onReasonChange(reason: string): void;
  error?: string | undefined;
}) {
  return (
    <div className="flex flex-col gap-2 rounded border border-amber-300 bg-amber-50 p-2" data-testid="weakening-notice">
      <p role="status" className="text-sm font-medium text-amber-900">
        {WEAKENING_NOTICE}
      </p>
      {changes.length > 0 && (
        <ul className="list-disc pl-5 text-sm text-slate-800">
          {changes.map((text) => (
            <li key={text}>{text}</li>
          ))}
        </ul>
      )}
      <TextAreaField
        label="Reason"
        required
        maxLength={500}
        rows={2}
        value={reason}
        error={error}
        onChange={(event) => onReasonChange(event.target.value)}
      />
    </div>
  );
}

/** The reason checked as the server checks it: the sentence to show, or undefined when it will do. */
export function reasonProblem(reason: string): string | undefined {
  const checked = changeReason.safeParse(reason);
  return checked.success ? undefined : `Reason ${checked.error.issues[0]!.message}`;
}
