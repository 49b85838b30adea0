// The count sheet's counting step: the roll landing by landing and cell by cell, each prisoner with his tracker's
// advice. One tap confirms a cell when everyone in it is seen; a prisoner not seen is ticked missing first. A typed
// total stays possible (folded away), though it names nobody.
import { useState, type FormEvent } from 'react';
import { clsx } from 'clsx';
import { COUNT_MAX_COUNTED, landingOf, type CountLine, type CountRecord } from '@prison/shared/roll-count';
import { Button } from '../../components/ui/button';
import { FormError, TextAreaField, TextField } from '../../components/ui/field';
import { errorMessage } from '../../lib/api-client';
import { useSubmitCount } from './api';
import { TrackerAdvice } from './count-badges';
import { CountLineIdentity } from './count-line-identity';

interface CellGroup {
  cell: string;
  lines: CountLine[];
}
interface LandingGroup {
  key: string;
  title: string;
  cells: CellGroup[];
}

/** The roll in walking order: block, landing, cell (the lines come sorted by block and cell). */
export function landingsOf(lines: CountLine[], wholePrison: boolean): LandingGroup[] {
  const landings: LandingGroup[] = [];
  for (const line of lines) {
    const landing = landingOf(line.cell_id);
    const key = `${line.block}\u0000${landing ?? ''}`;
    const title = `${wholePrison ? `Block ${line.block} · ` : ''}${landing === null ? 'Other cells' : `Landing ${landing}`}`;
    let group = landings.find((candidate) => candidate.key === key);
    if (!group) landings.push((group = { key, title, cells: [] }));
    let cell = group.cells.find((candidate) => candidate.cell === line.cell_id);
    if (!cell) group.cells.push((cell = { cell: line.cell_id, lines: [] }));
    cell.lines.push(line);
  }
  return landings;
}

const TARGET = 'min-h-11 min-w-11';

function CellCard({
  cell,
  confirmed,
  missing,
  onConfirm,
  onMissing,
}: {
  cell: CellGroup;
  confirmed: boolean;
  missing: Set<number>;
  onConfirm: () => void;
  onMissing: (id: number) => void;
}) {
  const notSeen = cell.lines.filter((line) => missing.has(line.prisoner_id)).length;
  const seen = cell.lines.length - notSeen;
  const label = confirmed ? 'Confirmed' : notSeen === 0 ? `All ${seen} seen` : `Confirm ${seen} seen`;
  return (
    <li
      data-testid="count-cell"
      aria-label={`Cell ${cell.cell}`}
      className={clsx('rounded-lg border bg-white', confirmed ? 'border-green-600' : 'border-slate-200')}
    >
      <div className="flex flex-wrap items-center justify-between gap-2 border-b border-slate-200 p-3">
        <h5 className="font-semibold">Cell {cell.cell}</h5>
        <Button
          variant={confirmed ? 'secondary' : 'primary'}
          className={TARGET}
          aria-pressed={confirmed}
          aria-label={`Cell ${cell.cell}: ${confirmed ? 'confirmed (tap to undo)' : label}`}
          onClick={onConfirm}
        >
          {confirmed ? '✓ Confirmed' : label}
        </Button>
      </div>
      <ul className="divide-y divide-slate-100">
        {cell.lines.map((line) => {
          const isMissing = missing.has(line.prisoner_id);
          return (
            <li key={line.prisoner_id} data-testid="count-prisoner" className="flex flex-wrap items-center justify-between gap-2 p-3">
              <div className="min-w-0">
                <CountLineIdentity line={line} struck={isMissing} />
                <TrackerAdvice line={line} />
              </div>
              <Button
                variant={isMissing ? 'danger' : 'secondary'}
                className={TARGET}
                aria-pressed={isMissing}
                aria-label={`Not seen: ${line.name}`}
                onClick={() => onMissing(line.prisoner_id)}
              >
                Not seen
              </Button>
            </li>
          );
        })}
      </ul>
    </li>
  );
}

function TypedTotal({ count }: { count: CountRecord }) {
  const [counted, setCounted] = useState('');
  const [error, setError] = useState<string | null>(null);
  const submit = useSubmitCount();
  const send = (event: FormEvent) => {
    event.preventDefault();
    const value = Number(counted);
    if (counted.trim() === '' || !Number.isInteger(value) || value < 0 || value > COUNT_MAX_COUNTED)
      return setError('counted: enter the number of prisoners counted');
    setError(null);
    submit.mutate(
      { id: count.id, counted: value, note: '' },
      { onError: (failure) => setError(errorMessage(failure, 'The count could not be submitted.')) },
    );
  };
  return (
    <details className="rounded-lg border border-slate-200 bg-white p-3">
      <summary className="flex min-h-11 cursor-pointer items-center font-medium">Type a total instead</summary>
      <form onSubmit={send} aria-label="Submit a typed total" className="mt-2 flex flex-col gap-3">
        <p className="text-sm text-slate-600">A number names nobody: if it is short, the count asks for a recount cell by cell.</p>
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
        <Button type="submit" variant="secondary" className={TARGET} busy={submit.isPending}>
          Submit number
        </Button>
      </form>
    </details>
  );
}

export function CellByCell({ count, recount }: { count: CountRecord; recount: boolean }) {
  const [missing, setMissing] = useState<Set<number>>(() => new Set());
  const [confirmed, setConfirmed] = useState<Set<string>>(() => new Set());
  const [note, setNote] = useState('');
  const [error, setError] = useState<string | null>(null);
  const submit = useSubmitCount();
  const landings = landingsOf(count.lines, count.block_id === null);
  const cells = landings.flatMap((landing) => landing.cells);
  const seen = cells
    .filter((cell) => confirmed.has(cell.cell))
    .flatMap((cell) => cell.lines)
    .filter((line) => !missing.has(line.prisoner_id))
    .map((line) => line.prisoner_id);
  const left = cells.length - confirmed.size;

  const toggle = <T,>(set: Set<T>, value: T) => {
    const next = new Set(set);
    if (!next.delete(value)) next.add(value);
    return next;
  };
  const send = (event: FormEvent) => {
    event.preventDefault();
    if (left > 0) return setError(`seen: confirm every cell first (${left} left)`);
    setError(null);
    submit.mutate(
      { id: count.id, seen, note },
      { onError: (failure) => setError(errorMessage(failure, 'The count could not be submitted.')) },
    );
  };

  return (
    <section aria-labelledby="count-cells-title" className="flex flex-col gap-3">
      <h3 id="count-cells-title" className="font-semibold">
        {recount ? 'Recount cell by cell' : 'Count cell by cell'}
      </h3>
      <p className="text-sm text-slate-600" data-testid="count-progress" aria-live="polite">
        {confirmed.size} of {cells.length} cells confirmed · {seen.length} seen · {missing.size} not seen
      </p>
      {landings.map((landing) => (
        <section key={landing.key} aria-label={landing.title} className="flex flex-col gap-2">
          <h4 className="text-sm font-semibold tracking-wide text-slate-700 uppercase">{landing.title}</h4>
          <ul className="flex flex-col gap-2">
            {landing.cells.map((cell) => (
              <CellCard
                key={cell.cell}
                cell={cell}
                confirmed={confirmed.has(cell.cell)}
                missing={missing}
                onConfirm={() => setConfirmed((set) => toggle(set, cell.cell))}
                onMissing={(id) => setMissing((set) => toggle(set, id))}
              />
            ))}
          </ul>
        </section>
      ))}
      <form onSubmit={send} aria-label="Submit the count" className="flex flex-col gap-3 rounded-lg border border-slate-200 bg-white p-4">
        <TextAreaField label="Note (optional)" rows={2} maxLength={1000} value={note} onChange={(event) => setNote(event.target.value)} />
        <FormError message={error} margin="mt-0" />
        <Button type="submit" className={TARGET} busy={submit.isPending}>
          Submit count: {seen.length} seen of {count.expected}
        </Button>
      </form>
      <TypedTotal count={count} />
    </section>
  );
}
