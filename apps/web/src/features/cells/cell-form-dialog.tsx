// Add a cell, or edit one (its ID read-only): block (existing blocks suggested), capacity 1-100 and security level.
// The server's refusals (an ID already taken, a capacity below the current occupants) show here; the dialog stays open.
import { useId, type FormEvent } from 'react';
import { cellInput, type Cell, type CellInput } from '@prison/shared/cell';
import { SECURITY_LEVELS } from '@prison/shared/constants';
import { errorMessage } from '../../lib/api-client';
import { SelectField, TextField } from '../../components/ui/field';
import { FormDialog } from '../../components/ui/form-dialog';
import { fieldErrors, useFormState } from '../../components/ui/use-form-state';

/** What the dialog is open for: a new cell (optionally in a given block) or an existing cell. */
export type CellFormTarget = { mode: 'create'; block?: string } | { mode: 'edit'; cell: Cell };

type FieldName = keyof CellInput;
type FormValues = Record<FieldName, string>;

export interface CellFormDialogProps {
  target: CellFormTarget | null;
  /** Existing block names, suggested in the Block field. */
  blocks: readonly string[];
  onClose(): void;
  /** Throws on failure; its message is shown in the dialog. */
  onSubmit(input: CellInput): Promise<void>;
}

export function CellFormDialog({ target, ...rest }: CellFormDialogProps) {
  // Remounted on every opening, so the form starts from the cell's current values (or empty) each time.
  if (!target) return null;
  const key = target.mode === 'edit' ? `edit:${target.cell.cell_id}` : `create:${target.block ?? ''}`;
  return <CellForm key={key} target={target} {...rest} />;
}

function initialValues(target: CellFormTarget): FormValues {
  if (target.mode === 'edit') {
    const { cell_id, block, capacity, security_level } = target.cell;
    return { cell_id, block, capacity: String(capacity), security_level };
  }
  return { cell_id: '', block: target.block ?? '', capacity: '', security_level: '' };
}

function CellForm({ target, blocks, onClose, onSubmit }: CellFormDialogProps & { target: CellFormTarget }) {
  const editing = target.mode === 'edit' ? target.cell : null;
  const form = useFormState<FieldName>(() => initialValues(target), { clearErrorOnEdit: true });
  const { values } = form;
  const blockListId = useId();

  const title = editing ? `Edit cell ${editing.cell_id}` : 'Add cell';
  const occupants = editing?.current_occupants ?? 0;

  function submit(event: FormEvent) {
    event.preventDefault();
    if (form.busy) return;
    const capacity = values.capacity.trim();
    const parsed = cellInput.safeParse({ ...values, capacity: capacity === '' ? undefined : Number(capacity) });
    if (!parsed.success) {
      form.refuse(
        fieldErrors<FieldName>(parsed.error.issues, (name, message) =>
          name === 'capacity' && capacity === '' ? 'capacity is required' : message,
        ),
      );
      return;
    }
    void form.send(
      () => onSubmit(parsed.data),
      (error) => errorMessage(error, 'Failed to save the cell. Please try again.'),
    );
  }

  return (
    <FormDialog
      title={title}
      description={
        editing
          ? `Block ${editing.block} · ${occupants} of ${editing.capacity} places occupied`
          : 'A new, empty cell. Its ID cannot be changed later.'
      }
      onClose={onClose}
      onSubmit={submit}
      serverError={form.serverError}
      busy={form.busy}
      submitLabel={editing ? 'Save changes' : 'Add cell'}
    >
      <TextField
        label="Cell ID"
        name="cell_id"
        autoComplete="off"
        autoFocus={!editing}
        readOnly={editing !== null}
        hint={editing ? 'A cell keeps its ID.' : 'Letters, digits, - and _'}
        className="read-only:bg-slate-100 read-only:text-slate-600"
        {...form.field('cell_id')}
      />
      <TextField
        label="Block"
        name="block"
        autoComplete="off"
        autoFocus={editing !== null}
        list={blockListId}
        hint="An existing block or a new one"
        {...form.field('block')}
      />
      <datalist id={blockListId}>
        {blocks.map((block) => (
          <option key={block} value={block} />
        ))}
      </datalist>
      <TextField
        label="Capacity"
        name="capacity"
        type="number"
        inputMode="numeric"
        min={Math.max(1, occupants)}
        max={100}
        step={1}
        hint={occupants > 0 ? `${occupants} to 100 (it holds ${occupants} now)` : '1 to 100'}
        {...form.field('capacity')}
      />
      <SelectField
        label="Security level"
        name="security_level"
        options={SECURITY_LEVELS}
        placeholder={editing ? undefined : 'Select security level'}
        {...form.field('security_level')}
      />
    </FormDialog>
  );
}
