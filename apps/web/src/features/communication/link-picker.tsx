// What a new log entry is about: prisoners found by name or number and added one by one (removable), and alerts and
// incidents by the numbers their screens show.
import { useId, useState } from 'react';
import { X } from 'lucide-react';
import { TextField } from '../../components/ui/field';
import { usePrisonerSearch } from '../../lib/prisoner-search';
import { useDebouncedValue } from '../../lib/use-debounced-value';

export interface PickedLinks {
  prisoners: { id: number; label: string }[];
  /** As typed: "12, 15". */
  alertIds: string;
  incidentIds: string;
}

const selectClass = 'w-full min-w-0 rounded-md border border-slate-300 bg-white px-3 py-2 text-sm';

export function LinkPicker({ value, onChange }: { value: PickedLinks; onChange(next: PickedLinks): void }) {
  const [search, setSearch] = useState('');
  const selectId = useId();
  const q = useDebouncedValue(search.trim());
  const found = usePrisonerSearch(q, { enabled: q.length > 0 });
  const add = (id: string) => {
    const prisoner = found.data?.find((p) => String(p.prisoner_id) === id);
    if (!prisoner || value.prisoners.some((p) => p.id === prisoner.prisoner_id)) return;
    const label = `${prisoner.prison_number} ${prisoner.first_name} ${prisoner.last_name}`;
    onChange({ ...value, prisoners: [...value.prisoners, { id: prisoner.prisoner_id, label }] });
    setSearch('');
  };
  return (
    <fieldset className="flex min-w-0 flex-col gap-2">
      <legend className="mb-1 text-sm font-medium text-slate-700">About (optional)</legend>
      <div className="grid gap-2 sm:grid-cols-2">
        <TextField label="Find a prisoner" type="search" value={search} onChange={(event) => setSearch(event.target.value)} />
        <div className="flex flex-col gap-1 text-sm font-medium text-slate-700">
          <label htmlFor={selectId}>Add prisoner</label>
          <select id={selectId} value="" disabled={!q} onChange={(event) => add(event.target.value)} className={selectClass}>
            <option value="">{!q ? 'Type a name first' : found.isPending ? 'Searching...' : `${found.data?.length ?? 0} found`}</option>
            {(found.data ?? []).map((p) => (
              <option key={p.prisoner_id} value={p.prisoner_id}>
                {p.prison_number} {p.first_name} {p.last_name}
                {p.cell_id ? ` · cell ${p.cell_id}` : ''}
              </option>
            ))}
          </select>
        </div>
      </div>
      {value.prisoners.length > 0 && (
        <ul aria-label="Prisoners linked" className="flex flex-wrap gap-1.5">
          {value.prisoners.map((p) => (
            <li key={p.id} className="inline-flex items-center gap-1 rounded-md border border-slate-200 bg-slate-50 py-0.5 pr-0.5 pl-2 text-xs">
              {p.label}
              <button
                type="button"
                aria-label={`Remove ${p.label}`}
                className="inline-flex min-h-8 min-w-8 items-center justify-center rounded hover:bg-slate-200"
                onClick={() => onChange({ ...value, prisoners: value.prisoners.filter((other) => other.id !== p.id) })}
              >
                <X aria-hidden className="h-3.5 w-3.5" />
              </button>
            </li>
          ))}
        </ul>
      )}
      <div className="grid gap-2 sm:grid-cols-2">
        <TextField
          label="Alert numbers"
          placeholder="e.g. 12, 15"
          inputMode="numeric"
          value={value.alertIds}
          onChange={(event) => onChange({ ...value, alertIds: event.target.value })}
        />
        <TextField
          label="Incident numbers"
          placeholder="e.g. 3"
          inputMode="numeric"
          value={value.incidentIds}
          onChange={(event) => onChange({ ...value, incidentIds: event.target.value })}
        />
      </div>
    </fieldset>
  );
}
