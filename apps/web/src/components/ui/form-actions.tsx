// How every record form ends: the server's refusal (if any), then Cancel and the submit button.
import { Button } from './button';
import { FormError } from './field';

export interface FormActionsProps {
  serverError: string | null | undefined;
  busy: boolean;
  submitLabel: string;
  onCancel(): void;
}

export function FormActions({ serverError, busy, submitLabel, onCancel }: FormActionsProps) {
  return (
    <>
      <FormError message={serverError} />
      <div className="mt-6 flex justify-end gap-2">
        <Button variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" busy={busy}>
          {submitLabel}
        </Button>
      </div>
    </>
  );
}
