// Choose a prisoner by searching name, id or cell (server-side search of /prisoner/all).
import { useState } from 'react';
import { clsx } from 'clsx';
import type { Prisoner } from '@prison/shared/prisoner';
import { TextField } from '../../components/ui/field';
import { ErrorText } from '../../components/ui/status';
import { errorMessage } from '../../lib/api-client';
import { useDebouncedValue } from '../../lib/use-debounced-value';
import { prisonerLabel } from '../../lib/prisoner-label';
import { usePrisonerSearch } from '../../lib/prisoner-search';

export interface PickedPrisoner {
  id: number;
  name: string;
}

export function PrisonerPicker({
  value,
  onChange,
}: {
  value: PickedPrisoner | null;
  onChange(prisoner: PickedPrisoner): void;
}) {
  const [q, setQ] = useState('');
  const [archived, setArchived] = useState(false);
  const debounced = useDebouncedValue(q.trim(), 250);
  const search = usePrisonerSearch(debounced, { limit: 10, archived, keepPrevious: true });
  const prisoners = search.data ?? [];
  const label = (p: Prisoner) =>
    prisonerLabel({ name: `${p.first_name} ${p.last_name}`, prisonerId: p.prisoner_id, cellId: p.cell_id });

  return (
    <div className="flex flex-col gap-2">
      <TextField
        label="Prisoner"
        type="search"
        placeholder="Search prisoner"
        value={q}
        onChange={(event) => setQ(event.target.value)}
      />
      <label className="flex items-center gap-2 text-sm text-slate-700">
        <input type="checkbox" checked={archived} onChange={(event) => setArchived(event.target.checked)} />
        Archived records
      </label>
      {search.isError && <ErrorText>{errorMessage(search.error, 'Failed to fetch prisoners.')}</ErrorText>}
      <ul aria-label="Prisoners" className="max-h-48 overflow-y-auto rounded-md border border-slate-200 bg-white">
        {prisoners.length === 0 && !search.isPending && (
          <li className="px-3 py-2 text-sm text-slate-500">No prisoners found.</li>
        )}
        {prisoners.map((p) => (
          <li key={p.prisoner_id}>
            <button
              type="button"
              aria-pressed={value?.id === p.prisoner_id}
              onClick={() => onChange({ id: p.prisoner_id, name: label(p) })}
              className={clsx(
                'flex w-full justify-between px-3 py-1.5 text-left text-sm hover:bg-slate-100 focus:bg-slate-100 focus:outline-none',
                value?.id === p.prisoner_id && 'bg-brand-800/10 font-semibold',
              )}
            >
              <span>{label(p)}</span>
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}
