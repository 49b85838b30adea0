// Searching the control-room log: words in the entry, its type, and a time range (local times, sent as instants).
import { useState, type FormEvent } from 'react';
import { MESSAGE_TYPE_LABELS, MESSAGE_TYPES, type MessageType } from '@prison/shared/message';
import { Button } from '../../components/ui/button';
import { SelectField, TextField } from '../../components/ui/field';
import type { LogSearch } from './api';

const EMPTY = { q: '', type: '', from: '', to: '' };
/** A datetime-local value (local time) as an ISO instant. */
const toInstant = (value: string) => (value ? new Date(value).toISOString() : undefined);

export function LogSearchForm({ onSearch }: { onSearch(search: LogSearch): void }) {
  const [form, setForm] = useState(EMPTY);
  const [error, setError] = useState<string | null>(null);
  const set = (field: keyof typeof EMPTY) => (event: { target: { value: string } }) => setForm((f) => ({ ...f, [field]: event.target.value }));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const from = toInstant(form.from);
    const to = toInstant(form.to);
    if (from && to && from > to) return setError('"To" must not be before "From".');
    setError(null);
    onSearch({ q: form.q.trim() || undefined, type: (form.type || undefined) as MessageType | undefined, from, to });
  };
  return (
    <form
      onSubmit={submit}
      role="search"
      aria-label="Search the log"
      className="mb-4 grid gap-3 rounded-lg border border-slate-200 bg-white p-4 sm:grid-cols-2 lg:grid-cols-5"
    >
      <TextField label="Words" type="search" placeholder="lock-down, B wing…" value={form.q} maxLength={100} onChange={set('q')} />
      <SelectField label="Type" options={MESSAGE_TYPES} optionLabels={MESSAGE_TYPE_LABELS} placeholder="Any type" value={form.type} onChange={set('type')} />
      <TextField label="From" type="datetime-local" value={form.from} onChange={set('from')} />
      <TextField label="To" type="datetime-local" value={form.to} onChange={set('to')} error={error ?? undefined} />
      <div className="flex items-end gap-2">
        <Button type="submit">Search</Button>
        <Button
          variant="ghost"
          onClick={() => {
            setForm(EMPTY);
            setError(null);
            onSearch({});
          }}
        >
          Clear
        </Button>
      </div>
    </form>
  );
}
