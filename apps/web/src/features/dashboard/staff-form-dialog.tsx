// Create and edit a police officer or a guard. Role is Police or Guard; department from the one list (docs/CLIENT-CONTRACT.md).
import type { FormEvent } from 'react';
import { DEPARTMENTS, GUARD_RANKS, STAFF_ROLES, type StaffRole } from '@prison/shared/constants';
import { staffInput, type StaffInput, type StaffMember } from '@prison/shared/staff';
import { errorMessage } from '../../lib/api-client';
import { SelectField, TextField } from '../../components/ui/field';
import { FormDialog } from '../../components/ui/form-dialog';
import { fieldErrors, useFormState } from '../../components/ui/use-form-state';

type FieldName = keyof StaffInput;

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
  const form = useFormState<FieldName>({
    first_name: member?.first_name ?? '',
    last_name: member?.last_name ?? '',
    role: member?.role ?? role,
    badge_number: member?.badge_number ?? '',
    rank: member?.rank ?? '',
    department: member?.department ?? '',
    contact_info: member?.contact_info ?? '',
  });
  const { values } = form;

  function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = staffInput.safeParse({
      ...values,
      rank: values.rank.trim() || null,
      department: values.department || null,
      contact_info: values.contact_info.trim() || null,
    });
    if (!parsed.success) {
      form.refuse(fieldErrors<FieldName>(parsed.error.issues), failureText);
      return;
    }
    void form.send(
      () => onSubmit(parsed.data),
      (error) => {
        const detail = errorMessage(error, '');
        return detail ? `${failureText} ${detail}` : failureText;
      },
    );
  }

  const rankListId = `ranks-${role}`;
  return (
    <FormDialog
      title={title}
      onClose={() => onOpenChange(false)}
      onSubmit={submit}
      serverError={form.serverError}
      busy={form.busy}
      submitLabel={submitLabel}
    >
      <TextField label="First name" {...form.field('first_name')} />
      <TextField label="Last name" {...form.field('last_name')} />
      <SelectField label="Role" options={STAFF_ROLES} {...form.field('role')} />
      <TextField label="Badge number" inputMode="numeric" {...form.field('badge_number')} />
      <TextField label="Rank" list={rankListId} {...form.field('rank')} />
      <datalist id={rankListId}>
        {(values.role === 'Guard'
          ? GUARD_RANKS
          : ['Constable', 'Sergeant', 'Inspector', 'Chief Inspector', 'Superintendent']
        ).map((rank) => (
          <option key={rank} value={rank} />
        ))}
      </datalist>
      <SelectField label="Department" options={DEPARTMENTS} placeholder="None" {...form.field('department')} />
      <TextField label="Contact info" className="sm:col-span-2" {...form.field('contact_info')} />
    </FormDialog>
  );
}
