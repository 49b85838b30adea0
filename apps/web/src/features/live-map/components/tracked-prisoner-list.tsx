// The side panel's list of tracked prisoners: online or offline, in violation or not, with a search.
import { useMemo, useState } from 'react';
import { clsx } from 'clsx';
import { TextField } from '../../../components/ui/field';
import { EmptyState } from '../../../components/ui/status';
import { prisonerLabel } from '../../../lib/prisoner-label';
import { formatClock } from '../../../lib/feed-health';

export interface TrackedPrisonerRow {
  trackingId: string;
  name: string;
  /** The wearer; null for a tracker assigned to nobody. */
  prisonerId: number | null;
  cellId: string | null;
  online: boolean;
  inViolation: boolean;
  /** Known position (live, or the device's last fix); null = nothing to centre on. */
  position: [number, number] | null;
}

interface TrackedPrisonerListProps {
  rows: TrackedPrisonerRow[];
  onFocus(row: TrackedPrisonerRow): void;
  /** The live feed is not live (decision 028): the counts and rows are as of `dataAsOf`, not current. */
  stale?: boolean;
  dataAsOf?: number | null;
}

// Alarm first, then online, then by name: what an operator must look at comes to the top.
function rank(row: TrackedPrisonerRow): number {
  return row.inViolation ? 0 : row.online ? 1 : 2;
}

const MAX_ROWS = 300;
const byName = new Intl.Collator('en').compare;

export function TrackedPrisonerList({ rows, onFocus, stale = false, dataAsOf = null }: TrackedPrisonerListProps) {
  const [search, setSearch] = useState('');
  const filtered = useMemo(() => {
    const needle = search.trim().toLowerCase();
    return rows
      .filter(
        (row) =>
          !needle || prisonerLabel(row).toLowerCase().includes(needle) || row.trackingId.toLowerCase().includes(needle),
      )
      .sort((a, b) => rank(a) - rank(b) || byName(a.name, b.name));
  }, [rows, search]);
  const online = rows.filter((row) => row.online).length;
  const violations = rows.filter((row) => row.inViolation).length;

  return (
    <section aria-labelledby="tracked-title" className="flex min-h-0 flex-1 flex-col">
      <div className="flex flex-col gap-2 border-b border-slate-200 p-4">
        <h2 id="tracked-title" className="font-semibold">
          Tracked prisoners
        </h2>
        <p className={clsx('text-xs', stale ? 'text-amber-900' : 'text-slate-600')} data-testid="tracked-summary">
          {stale && (dataAsOf === null ? 'No live data: ' : `As of ${formatClock(dataAsOf)}: `)}
          {online} online · {rows.length - online} offline · {violations} in violation
        </p>
        <TextField
          label="Search tracked prisoners"
          type="search"
          value={search}
          onChange={(event) => setSearch(event.target.value)}
        />
      </div>
      {filtered.length === 0 ? (
        <EmptyState>
          {rows.length === 0 ? 'No tracked prisoners yet.' : 'No tracked prisoner matches the search.'}
        </EmptyState>
      ) : (
        <ul className={clsx('min-h-0 flex-1 overflow-y-auto', stale && 'grayscale')} aria-label="Tracked prisoners">
          {filtered.slice(0, MAX_ROWS).map((row) => (
            <li key={row.trackingId}>
              <button
                type="button"
                className="flex w-full items-center gap-2 px-4 py-2 text-left text-sm hover:bg-slate-100 disabled:cursor-default disabled:hover:bg-transparent"
                disabled={!row.position}
                onClick={() => onFocus(row)}
                data-testid="tracked-prisoner"
              >
                <span
                  aria-hidden="true"
                  className={clsx(
                    'h-2.5 w-2.5 shrink-0 rounded-full',
                    row.inViolation ? 'bg-red-600' : row.online ? 'bg-green-600' : 'bg-slate-400',
                  )}
                />
                <span className="flex-1 truncate font-medium">{prisonerLabel(row)}</span>
                <span className={clsx('text-xs', row.inViolation ? 'font-semibold text-red-700' : 'text-slate-500')}>
                  {row.inViolation ? 'In violation' : row.online ? 'Online' : 'Offline'}
                </span>
              </button>
            </li>
          ))}
          {filtered.length > MAX_ROWS && (
            <li className="px-4 py-2 text-xs text-slate-500">
              {filtered.length - MAX_ROWS} more: refine the search to see them.
            </li>
          )}
        </ul>
      )}
    </section>
  );
}
