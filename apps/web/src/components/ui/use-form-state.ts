// The state every record form keeps: its values, a message per field, the server's refusal and whether it is sending.
import { useState } from 'react';

export type FieldErrors<Name extends string> = Partial<Record<Name, string>>;

/** The first message for each field, from a schema's issues (the field is the issue's first path element). */
export function fieldErrors<Name extends string>(
  issues: readonly { path: readonly PropertyKey[]; message: string }[],
  describe: (name: Name, message: string) => string = (_name, message) => message,
): FieldErrors<Name> {
  const errors: FieldErrors<Name> = {};
  for (const issue of issues) {
    const name = issue.path[0] as Name;
    errors[name] ??= describe(name, issue.message);
  }
  return errors;
}

export interface FormStateOptions {
  /** A corrected field no longer shows its error. */
  clearErrorOnEdit?: boolean;
}

export function useFormState<Name extends string>(
  initial: Record<Name, string> | (() => Record<Name, string>),
  { clearErrorOnEdit = false }: FormStateOptions = {},
) {
  const [values, setValues] = useState<Record<Name, string>>(initial);
  const [errors, setErrors] = useState<FieldErrors<Name>>({});
  const [serverError, setServerError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  function setValue(name: Name, value: string) {
    setValues((all) => ({ ...all, [name]: value }));
    if (clearErrorOnEdit) setErrors((all) => ({ ...all, [name]: undefined }));
  }

  /** What a text field or select of one field needs: its value, its change handler and its message. */
  const field = (name: Name) => ({
    value: values[name],
    onChange: (event: { target: { value: string } }) => setValue(name, event.target.value),
    error: errors[name],
  });

  /** The form's own check failed: its messages are shown and nothing is sent. */
  function refuse(next: FieldErrors<Name>, message: string | null = null) {
    setErrors(next);
    setServerError(message);
  }

  /** Sends checked values; a failure is shown above the buttons, in the words `describe` gives it. */
  async function send(action: () => Promise<void>, describe: (error: unknown) => string) {
    setErrors({});
    setServerError(null);
    setBusy(true);
    try {
      await action();
    } catch (error) {
      setServerError(describe(error));
    } finally {
      setBusy(false);
    }
  }

  return { values, setValue, field, errors, serverError, busy, refuse, send };
}

export type FormState<Name extends string> = ReturnType<typeof useFormState<Name>>;
