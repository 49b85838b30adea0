// One roll count: the expected and located numbers, every prisoner's line with its state badge, then the officer's
// step: enter the number counted (and a note) while open; after a discrepancy the prisoners to find and closing it
// with a note.
import { useState, type FormEvent } from 'react';
import { COUNT_MAX_COUNTED, type CountLine, type CountRecord } from '@prison/shared';
import { Button } from '../../components/ui/button';
import { TextAreaField, TextField } from '../../components/ui/field';
import { errorMessage } from '../../lib/api-client';
import { formatAlertDateTime } from '../../lib/format';
import { useMay } from '../../lib/use-may';
import { CountStateBadge, LineStateBadge } from './count-badges';
import { useCloseCount, useSubmitCount } from './api';

export const countTitle = (count: Pick<CountRecord, 'block_id'>) =>
  count.block_id === null ? 'Whole prison' : `Block ${count.block_id}`;

function LineList({ lines, label }: { lines: CountLine[]; label: string }) {
  return (
    <ul aria-label={label} className="divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white">
      {lines.map((line) => (
        <li key={line.prisoner_id} data-testid="count-line" className="flex flex-wrap items-center justify-between gap-2 p-3">
          <div className="min-w-0">
            <p className="font-medium break-words text-slate-900">{line.name}</p>
            <p className="text-xs text-slate-600">
              #{line.prisoner_id} · cell {line.cell_id}
              {line.state === 'elsewhere' && line.where ? ` · in ${line.where}` : ''}
            </p>
          </div>
          <LineStateBadge state={line.state} />
        </li>
      ))}
    </ul>
  );
}

function SubmitForm({ count }: { count: CountRecord }) {
  const [counted, setCounted] = useState('');
  const [note, setNote] = useState('');
  const [error, setError] = useState<string | null>(null);
  const submit = useSubmitCount();
  const send = (event: FormEvent) => {
    event.preventDefault();
    const value = Number(counted);
    if (counted.trim() === '' || !Number.isInteger(value) || value < 0 || value > COUNT_MAX_COUNTED)
      return setError('counted: enter the number of prisoners counted');
    setError(null);
    submit.mutate(
      { id: count.id, counted: value, note },
      { onError: (failure) => setError(errorMessage(failure, 'The count could not be submitted.')) },
    );
  };
  return (
    <form onSubmit={send} aria-label="Submit the count" className="flex flex-col gap-3 rounded-lg border border-slate-200 bg-white p-4">
      <TextField
        label="Number counted"
        inputMode="numeric"
        min={0}
        max={COUNT_MAX_COUNTED}
        type="number"
        value={counted}
        error={error ?? undefined}
        onChange={(event) => setCounted(event.target.value)}
      />
      <TextAreaField label="Note (optional)" rows={2} maxLength={1000} value={note} onChange={(event) => setNote(event.target.value)} />
      <Button type="submit" busy={submit.isPending}>
        Submit count
      </Button>
    </form>
  );
}

function CloseForm({ count }: { count: CountRecord }) {
  const [note, setNote] = useState('');
  const [error, setError] = useState<string | null>(null);
  const close = useCloseCount();
  const send = (event: FormEvent) => {
    event.preventDefault();
    if (!note.trim()) return setError('note: say what was done about the discrepancy');
    setError(null);
    close.mutate(
      { id: count.id, note },
      { onError: (failure) => setError(errorMessage(failure, 'The count could not be closed.')) },
    );
  };
  return (
    <form onSubmit={send} aria-label="Close the discrepancy" className="flex flex-col gap-3 rounded-lg border border-slate-200 bg-white p-4">
      <TextAreaField
        label="Closing note (required: who was found where, what was done)"
        rows={3}
        maxLength={1000}
        value={note}
        error={error ?? undefined}
        onChange={(event) => setNote(event.target.value)}
      />
      <Button type="submit" busy={close.isPending}>
        Close with note
      </Button>
    </form>
  );
}

export function CountSheet({ count }: { count: CountRecord }) {
  const mayWork = useMay('counts.work');
  return (
    <section aria-labelledby="count-sheet-title" data-testid="count-sheet" className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="count-sheet-title" className="text-lg font-semibold">
          {countTitle(count)} count
        </h2>
        <CountStateBadge state={count.state} />
      </div>
      <p className="text-sm text-slate-600">
        Started {formatAlertDateTime(count.started_at)} by {count.started_by}
      </p>
      <dl className="grid grid-cols-3 gap-2 text-center">
        {[
          ['Expected', count.expected],
          ['Located', count.located],
          ['Counted', count.counted ?? '—'],
        ].map(([label, value]) => (
          <div key={label} className="rounded-lg border border-slate-200 bg-white p-2">
            <dt className="text-xs text-slate-600">{label}</dt>
            <dd className="text-xl font-semibold" data-testid={`count-${String(label).toLowerCase()}`}>
              {value}
            </dd>
          </div>
        ))}
      </dl>
      {count.state === 'clear' && (
        <p role="status" className="rounded-lg bg-green-50 p-3 font-medium text-green-800">
          Count clear: every prisoner is accounted for.
        </p>
      )}
      {(count.state === 'discrepancy' || count.state === 'closed') && (
        <div className="flex flex-col gap-2">
          <p role="status" className="rounded-lg bg-red-50 p-3 font-medium text-red-800">
            Discrepancy: counted {count.counted} of {count.expected} expected
            {count.to_find.length > 0 ? `; ${count.to_find.length} to find.` : '.'}
          </p>
          {count.to_find.length > 0 && <LineList lines={count.to_find} label="Prisoners to find" />}
          {count.state === 'closed' && (
            <p className="text-sm text-slate-700">
              Closed by {count.closed_by}: {count.close_note}
            </p>
          )}
        </div>
      )}
      {count.note && <p className="text-sm text-slate-700">Note: {count.note}</p>}
      {mayWork && count.state === 'open' && <SubmitForm count={count} />}
      {mayWork && count.state === 'discrepancy' && <CloseForm count={count} />}
      <h3 className="font-semibold">Prisoners ({count.lines.length})</h3>
      {count.lines.length === 0 ? (
        <p className="text-sm text-slate-600">No prisoner is assigned to these cells.</p>
      ) : (
        <LineList lines={count.lines} label="Count lines" />
      )}
    </section>
  );
}
