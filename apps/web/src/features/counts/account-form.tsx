// Ending a discrepancy by accounting for each prisoner not seen: a reason each (healthcare, court, visits,
// segregation, escorted out of the site, other with a note). A note alone ends nothing; the other way is a recount.
import { useState, type FormEvent } from 'react';
import {
  COUNT_OUT_REASONS,
  COUNT_OUT_REASON_LABELS,
  type CountOutReason,
  type CountRecord,
} from '@prison/shared/roll-count';
import { Button } from '../../components/ui/button';
import { FormError, SelectField, TextField } from '../../components/ui/field';
import { errorMessage } from '../../lib/api-client';
import { useAccountForMissing } from './api';

const REASON_OPTIONS = COUNT_OUT_REASONS.map((reason) => COUNT_OUT_REASON_LABELS[reason]);
const reasonOf = (label: string) => COUNT_OUT_REASONS.find((reason) => COUNT_OUT_REASON_LABELS[reason] === label);

export function AccountForm({ count }: { count: CountRecord }) {
  const [reasons, setReasons] = useState<Record<number, string>>({});
  const [notes, setNotes] = useState<Record<number, string>>({});
  const [error, setError] = useState<string | null>(null);
  const account = useAccountForMissing();
  const send = (event: FormEvent) => {
    event.preventDefault();
    const unexplained = count.to_find.find((line) => !reasonOf(reasons[line.prisoner_id] ?? ''));
    if (unexplained) return setError(`accounts: choose where ${unexplained.name} is`);
    const noNote = count.to_find.find((line) => reasonOf(reasons[line.prisoner_id]!) === 'other' && !notes[line.prisoner_id]?.trim());
    if (noNote) return setError(`accounts: say where ${noNote.name} is (reason Other needs a note)`);
    setError(null);
    const accounts = count.to_find.map((line) => ({
      prisoner_id: line.prisoner_id,
      reason: reasonOf(reasons[line.prisoner_id]!) as CountOutReason,
      ...(notes[line.prisoner_id]?.trim() ? { note: notes[line.prisoner_id]!.trim() } : {}),
    }));
    account.mutate(
      { id: count.id, accounts },
      { onError: (failure) => setError(errorMessage(failure, 'The count could not be closed.')) },
    );
  };
  return (
    <form onSubmit={send} aria-label="Account for each prisoner not seen" className="flex flex-col gap-3 rounded-lg border border-slate-200 bg-white p-4">
      <h3 className="font-semibold">Or account for each prisoner not seen</h3>
      {count.to_find.map((line) => (
        <fieldset key={line.prisoner_id} className="flex flex-col gap-2 border-t border-slate-100 pt-2">
          <legend className="font-medium">
            {line.name} <span className="text-xs font-normal text-slate-600">cell {line.cell_id}</span>
          </legend>
          <SelectField
            label={`Where is ${line.name}`}
            placeholder="Choose a reason"
            options={REASON_OPTIONS}
            value={reasons[line.prisoner_id] ?? ''}
            onChange={(event) => setReasons((all) => ({ ...all, [line.prisoner_id]: event.target.value }))}
          />
          <TextField
            label={`Note on ${line.name} (required for Other)`}
            maxLength={500}
            value={notes[line.prisoner_id] ?? ''}
            onChange={(event) => setNotes((all) => ({ ...all, [line.prisoner_id]: event.target.value }))}
          />
        </fieldset>
      ))}
      <FormError message={error} margin="mt-0" />
      <Button type="submit" className="min-h-11" busy={account.isPending}>
        Close: each one accounted for
      </Button>
    </form>
  );
}
