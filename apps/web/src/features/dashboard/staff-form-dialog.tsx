// Create and edit a police officer or a guard. Role is Police or Guard; department from the one list (docs/CLIENT-CONTRACT.md).
import { useState, type FormEvent } from 'react';
import { DEPARTMENTS, GUARD_RANKS, STAFF_ROLES, type StaffRole } from '@prison/shared/constants';
import { staffInput, type StaffInput, type StaffMember } from '@prison/shared/staff';
import { errorMessage } from '../../lib/api-client';
import { SelectField, TextField } from '../../components/ui/field';
import { Modal } from '../../components/ui/modal';
import { FormActions } from '../../components/ui/form-actions';

type FieldName = keyof StaffInput;
type FormValues = Record<FieldName, string>;

export interface StaffFormDialogProps {
  open: boolean;
  onOpenChange(open: boolean): void;
  title: string;
  role: StaffRole;
  member?: StaffMember | null;
  submitLabel: string;
  /** The message shown above the server's when saving fails. */
  failureText: string;
  onSubmit(input: StaffInput): Promise<void>;
}

export function StaffFormDialog(props: StaffFormDialogProps) {
  return props.open ? <StaffForm {...props} /> : null;
}

function StaffForm({ onOpenChange, title, role, member, submitLabel, failureText, onSubmit }: StaffFormDialogProps) {
  const [values, setValues] = useState<FormValues>({
    first_name: member?.first_name ?? '',
    last_name: member?.last_name ?? '',
    role: member?.role ?? role,
    badge_number: member?.badge_number ?? '',
    rank: member?.rank ?? '',
    department: member?.department ?? '',
    contact_info: member?.contact_info ?? '',
  });
  const [errors, setErrors] = useState<Partial<Record<FieldName, string>>>({});
  const [serverError, setServerError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const set = (name: FieldName) => (event: { target: { value: string } }) =>
    setValues((all) => ({ ...all, [name]: event.target.value }));

  async function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = staffInput.safeParse({
      ...values,
      rank: values.rank.trim() || null,
      department: values.department || null,
      contact_info: values.contact_info.trim() || null,
    });
    if (!parsed.success) {
      const next: Partial<Record<FieldName, string>> = {};
      for (const issue of parsed.error.issues) next[issue.path[0] as FieldName] ??= issue.message;
      setErrors(next);
      setServerError(failureText);
      return;
    }
    setErrors({});
    setServerError(null);
    setBusy(true);
    try {
      await onSubmit(parsed.data);
    } catch (error) {
      const detail = errorMessage(error, '');
      setServerError(detail ? `${failureText} ${detail}` : failureText);
    } finally {
      setBusy(false);
    }
  }

  const rankListId = `ranks-${role}`;
  return (
    <Modal open onOpenChange={onOpenChange} title={title}>
      <form onSubmit={submit} noValidate aria-label={title}>
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField
            label="First name"
            value={values.first_name}
            onChange={set('first_name')}
            error={errors.first_name}
          />
          <TextField label="Last name" value={values.last_name} onChange={set('last_name')} error={errors.last_name} />
          <SelectField
            label="Role"
            options={STAFF_ROLES}
            value={values.role}
            onChange={set('role')}
            error={errors.role}
          />
          <TextField
            label="Badge number"
            inputMode="numeric"
            value={values.badge_number}
            onChange={set('badge_number')}
            error={errors.badge_number}
          />
          <TextField label="Rank" list={rankListId} value={values.rank} onChange={set('rank')} error={errors.rank} />
          <datalist id={rankListId}>
            {(values.role === 'Guard'
              ? GUARD_RANKS
              : ['Constable', 'Sergeant', 'Inspector', 'Chief Inspector', 'Superintendent']
            ).map((rank) => (
              <option key={rank} value={rank} />
            ))}
          </datalist>
          <SelectField
            label="Department"
            options={DEPARTMENTS}
            placeholder="None"
            value={values.department}
            onChange={set('department')}
            error={errors.department}
          />
          <TextField
            label="Contact info"
            className="sm:col-span-2"
            value={values.contact_info}
            onChange={set('contact_info')}
            error={errors.contact_info}
          />
        </div>
        <FormActions
          serverError={serverError}
          busy={busy}
          submitLabel={submitLabel}
          onCancel={() => onOpenChange(false)}
        />
      </form>
    </Modal>
  );
}
