// Shown before saving a change that weakens an alarm (decision 041): the notice, what changes, and the reason the
// second person will read; for a Critical or Warning zone also when the weakening ends (decision 091).
import { WEAKENING_NOTICE } from '@prison/shared/geofence-change';
import { defaultWeakeningUntil, WEAKENING_MAX_DAYS, weakeningUntil } from '@prison/shared/pending-change';
import { TextAreaField, TextField } from '../../../components/ui/field';

export { reasonProblem } from '../../../lib/reason-problem';

/** The end time of a weakening, as the form holds it (a local date and time). */
export interface WeakeningEnd {
  value: string;
  onChange(value: string): void;
  error?: string | undefined;
}

const pad = (n: number) => String(n).padStart(2, '0');
/** A time as a `datetime-local` input shows it, in the browser's time zone. */
export function localDateTime(date: Date): string {
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}
/** The default end time: 8 hours from now. */
export const defaultUntilValue = () => localDateTime(defaultWeakeningUntil());

/** The end time as the server reads it (an ISO instant), or undefined when the field is not a time. */
export function untilInstant(value: string): string | undefined {
  const at = new Date(value);
  return Number.isNaN(at.getTime()) ? undefined : at.toISOString();
}

/** The end time checked as the server checks it: the sentence to show, or undefined when it will do. */
export function untilProblem(value: string): string | undefined {
  const instant = untilInstant(value);
  if (!instant) return 'Ends at: choose a date and time';
  const checked = weakeningUntil.safeParse(instant);
  return checked.success ? undefined : `Ends at ${checked.error.issues[0]!.message}`;
}

export function WeakeningReason({
  changes,
  reason,
  onReasonChange,
  error,
  until,
}: {
  changes: readonly string[];
  reason: string;
  onReasonChange(reason: string): void;
  error?: string | undefined;
  /** A Critical or Warning zone: the weakening ends, at this time. */
  until?: WeakeningEnd | undefined;
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
      {until && (
        <TextField
          label="Ends at"
          type="datetime-local"
          required
          value={until.value}
          min={localDateTime(new Date())}
          max={localDateTime(new Date(Date.now() + WEAKENING_MAX_DAYS * 86_400_000))}
          error={until.error}
          hint={`At most ${WEAKENING_MAX_DAYS} days; the zone goes back to how it is now by itself at that time`}
          onChange={(event) => until.onChange(event.target.value)}
        />
      )}
    </div>
  );
}
