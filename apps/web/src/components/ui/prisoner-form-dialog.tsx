// The prisoner form: "Create New Prisoner" on the management screen and the full update dialog of the details screen.
// First name, last name, date of birth and status are required on creation and cannot be cleared on update (
// decision 023; beyond docs/CLIENT-CONTRACT.md). The update sends the full field set, empty meaning cleared. Messages, the
// form's own and the server's, are shown in plain words ("Date of birth must be in the past").
import { useState, type FormEvent } from 'react';
import { GENDERS, PRISONER_STATUSES } from '@prison/shared/constants';
import { prisonerCreateInput, prisonerInput, type Prisoner, type PrisonerInput } from '@prison/shared/prisoner';
import { plainFieldMessage, plainServerMessage } from '../../lib/field-messages';
import { Button } from './button';
import { CellPickerDialog } from './cell-picker-dialog';
import { CountryCombobox } from './country-combobox';
import { SelectField, TextField } from './field';
import { FormDialog } from './form-dialog';
import { fieldErrors, useFormState } from './use-form-state';

const fields = [
  'prison_number',
  'first_name',
  'last_name',
  'date_of_birth',
  'gender',
  'national_id',
  'entry_date',
  'status',
  'cell_id',
  'release_date',
] as const;
type FieldName = (typeof fields)[number];
type FormValues = Record<FieldName, string>;

function toFormValues(prisoner?: Prisoner | null): FormValues {
  return Object.fromEntries(fields.map((name) => [name, prisoner?.[name] ?? ''])) as FormValues;
}

export interface PrisonerFormDialogProps {
  open: boolean;
  onOpenChange(open: boolean): void;
  title: string;
  mode: 'create' | 'update';
  prisoner?: Prisoner | null;
  submitLabel?: string;
  /** Throws on failure; its message is shown in the form. */
  onSubmit(input: PrisonerInput): Promise<void>;
}

export function PrisonerFormDialog(props: PrisonerFormDialogProps) {
  // Remounted on every opening, so the form starts from the prisoner's current values (or empty) each time.
  return props.open ? <PrisonerForm {...props} /> : null;
}

function PrisonerForm({
  onOpenChange,
  title,
  mode,
  prisoner,
  submitLabel = 'Save',
  onSubmit,
}: PrisonerFormDialogProps) {
  const form = useFormState<FieldName>(() => toFormValues(prisoner));
  const { values, errors } = form;
  const [pickerOpen, setPickerOpen] = useState(false);
  /** The reason given in the cell picker to override the cell rules for the chosen cell (decision 031). */
  const [overrideReason, setOverrideReason] = useState<string | null>(null);

  const set = (name: FieldName) => (value: string) => form.setValue(name, value);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const shown = mode === 'create' ? fields.filter((f) => f !== 'release_date') : fields;
    // Empty means "not given" on creation and "cleared" on update; either way a required field answers "is required".
    const raw = Object.fromEntries(
      shown.map((name) => {
        const value = values[name].trim();
        // A prison number is never cleared: left empty, the server assigns one (create) or keeps his (update).
        if (name === 'prison_number' && value === '') return [name, undefined];
        return [name, value !== '' ? value : mode === 'create' ? undefined : null];
      }),
    );
    const parsed = (mode === 'create' ? prisonerCreateInput : prisonerInput).safeParse(raw);
    if (!parsed.success) {
      form.refuse(
        fieldErrors<FieldName>(parsed.error.issues, (name, message) => plainFieldMessage(name, message, fields)),
      );
      // Take the keyboard to the first field to fix once its message is on screen.
      const formElement = event.currentTarget;
      requestAnimationFrame(() => formElement.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());
      return;
    }
    void form.send(
      () =>
        onSubmit(overrideReason && values.cell_id ? { ...parsed.data, override_reason: overrideReason } : parsed.data),
      // The server's "field: message" in words (a conflict such as "Cell X is full" as it is).
      (error) => plainServerMessage(error instanceof Error ? error.message : String(error), fields).message,
    );
  }

  return (
    <FormDialog
      title={title}
      wide
      onClose={() => onOpenChange(false)}
      onSubmit={submit}
      serverError={form.serverError}
      busy={form.busy}
      submitLabel={submitLabel}
      after={
        <CellPickerDialog
          open={pickerOpen}
          onOpenChange={setPickerOpen}
          onSelect={(cellId, reason) => {
            set('cell_id')(cellId);
            setOverrideReason(reason ?? null);
          }}
          currentCellId={prisoner?.cell_id}
          subject={{ prisonerId: prisoner?.prisoner_id, gender: values.gender, status: values.status }}
        />
      }
    >
      <TextField
        label="Prison number"
        name="prison_number"
        {...form.field('prison_number')}
        hint={mode === 'create' ? 'Left empty, the next number is assigned' : undefined}
        autoCapitalize="characters"
      />
      <TextField label="First name" name="first_name" required {...form.field('first_name')} />
      <TextField label="Last name" name="last_name" required {...form.field('last_name')} />
      <TextField label="Date of birth" name="date_of_birth" required type="date" {...form.field('date_of_birth')} />
      <SelectField
        label="Gender"
        name="gender"
        options={GENDERS}
        placeholder="Select gender"
        {...form.field('gender')}
      />
      <CountryCombobox
        label="National ID"
        value={values.national_id}
        onChange={(name) => set('national_id')(name ?? '')}
        error={errors.national_id}
      />
      <TextField label="Entry date" name="entry_date" type="date" {...form.field('entry_date')} />
      <SelectField
        label="Status"
        name="status"
        required
        options={PRISONER_STATUSES}
        placeholder="Select status"
        {...form.field('status')}
      />
      {mode === 'update' && (
        <TextField label="Release date" name="release_date" type="date" {...form.field('release_date')} />
      )}
      <div className="flex flex-col gap-1 sm:col-span-2">
        <span className="text-sm font-medium text-slate-700" id="cell-id-label">
          Cell ID
        </span>
        <div className="flex flex-wrap items-center gap-2">
          <output
            aria-labelledby="cell-id-label"
            data-testid="chosen-cell"
            className="min-w-24 rounded-md border border-slate-200 bg-slate-50 px-3 py-2 text-sm"
          >
            {values.cell_id || 'None'}
          </output>
          <Button variant="secondary" onClick={() => setPickerOpen(true)}>
            Select Cell ID
          </Button>
          {values.cell_id && (
            <Button
              variant="ghost"
              size="sm"
              onClick={() => {
                set('cell_id')('');
                setOverrideReason(null);
              }}
            >
              Clear cell
            </Button>
          )}
        </div>
        {overrideReason && values.cell_id && (
          <p className="text-xs text-amber-800" data-testid="cell-override">
            Cell rules overridden: {overrideReason}
          </p>
        )}
        {errors.cell_id && <p className="text-xs text-red-700">{errors.cell_id}</p>}
      </div>
    </FormDialog>
  );
}
