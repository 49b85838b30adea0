// The side panel's list of tracked prisoners: online or offline, in violation or in zone (decision 044), the worst
// open alert and the age of the last fix, with a search; worst severity first.
import { useMemo, useState } from 'react';
import { clsx } from 'clsx';
import { zoneState } from '@prison/shared/alert-severity';
import type { AlertType } from '@prison/shared/constants';
import { TextField } from '../../../components/ui/field';
import { EmptyState } from '../../../components/ui/status';
import { prisonerLabel } from '../../../lib/prisoner-label';
import { formatClock, liveAgeText } from '../../../lib/feed-health';
import { zoneStateStyle } from '../../../lib/alert-level-style';
import { compareTrackedRows } from './tracked-row-order';
import { MARKER_COLOURS, MARKER_LEVEL_TEXT, type MarkerLevel } from '../../../map/marker-style';

export interface TrackedPrisonerRow {
  trackingId: string;
  name: string;
  /** The wearer; null for a tracker assigned to nobody. */
  prisonerId: number | null;
  /** His prison number (decision 101), when the device list knows it: shown in place of the id. */
  prisonNumber?: string | null;
  cellId: string | null;
  /** Live, with a last fix within the offline threshold. */
  online: boolean;
  /** The worst level of the open geofence violations: Critical or Warning "In violation", Informational "In zone". */
  violationLevel: AlertType | null;
  /** The worst open (unacknowledged) alert, whether online or not. */
  alertLevel: AlertType | null;
  /** What the marker is drawn as. */
  level: MarkerLevel;
  /** Known position (live, or the device's last fix); null = nothing to centre on. */
  position: [number, number] | null;
  /** When the last fix was taken (ISO), if known. */
  lastFixAt: string | null;
  battery: number | null;
}

interface TrackedPrisonerListProps {
  rows: TrackedPrisonerRow[];
  /** The time the ages are measured against (ticks, so they update). */
  now: number;
  /** The newest fix time of a row (live fixes arrive between re-ranks). */
  lastFixOf(row: TrackedPrisonerRow): string | null;
  onFocus(row: TrackedPrisonerRow): void;
  /** The live feed is not live (decision 028): the counts and rows are as of `dataAsOf`, not current. */
  stale?: boolean;
  dataAsOf?: number | null;
}

/** "3 min ago", or "no fix yet"; while the feed is not live, the fix's clock time and "feed not live". */
export function lastFixText(lastFixAt: string | null, now: number, stale = false): string {
  if (!lastFixAt) return 'no fix yet';
  const time = Date.parse(lastFixAt);
  return Number.isNaN(time) ? 'no fix yet' : liveAgeText(time, now, stale);
}

const MAX_ROWS = 300;
const byName = new Intl.Collator('en').compare;

export function TrackedPrisonerList({
  rows,
  now,
  lastFixOf,
  onFocus,
  stale = false,
  dataAsOf = null,
}: TrackedPrisonerListProps) {
  const [search, setSearch] = useState('');
  const filtered = useMemo(() => {
    const needle = search.trim().toLowerCase();
    return rows
      .filter(
        (row) =>
          !needle || prisonerLabel(row).toLowerCase().includes(needle) || row.trackingId.toLowerCase().includes(needle),
      )
      .sort((a, b) => compareTrackedRows(a, b) || byName(a.name, b.name));
  }, [rows, search]);
  const online = rows.filter((row) => row.online).length;
  const violations = rows.filter((row) => zoneState(row.violationLevel) === 'violation').length;
  const inZone = rows.filter((row) => zoneState(row.violationLevel) === 'zone').length;

  return (
    <section aria-labelledby="tracked-title" className="flex min-h-0 flex-1 flex-col">
      <div className="flex flex-col gap-2 border-b border-slate-200 p-4">
        <h2 id="tracked-title" className="font-semibold">
          Tracked prisoners
        </h2>
        <p className={clsx('text-xs', stale ? 'text-amber-900' : 'text-slate-600')} data-testid="tracked-summary">
          {stale && (dataAsOf === null ? 'No live data: ' : `As of ${formatClock(dataAsOf)}: `)}
          {online} online · {rows.length - online} offline · {violations} in violation · {inZone} in zone
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
        <ul className={clsx('min-h-32 flex-1 overflow-y-auto', stale && 'grayscale')} aria-label="Tracked prisoners">
          {filtered.slice(0, MAX_ROWS).map((row) => {
            const zone = zoneStateStyle(row.violationLevel);
            return (
              <li key={row.trackingId}>
                <button
                  type="button"
                  className="flex w-full items-center gap-2 px-4 py-2 text-left text-sm hover:bg-slate-100 disabled:cursor-default disabled:hover:bg-transparent"
                  disabled={!row.position}
                  onClick={() => onFocus(row)}
                  data-testid="tracked-prisoner"
                  data-level={row.level}
                  data-zone-state={zone?.state ?? 'none'}
                >
                  <span
                    aria-hidden="true"
                    title={MARKER_LEVEL_TEXT[row.level]}
                    className="h-2.5 w-2.5 shrink-0 rounded-full"
                    style={{ backgroundColor: MARKER_COLOURS[row.level] }}
                  />
                  <span className="min-w-0 flex-1">
                    <span className="block truncate font-medium">{prisonerLabel(row)}</span>
                    <span className="block text-xs text-slate-600" data-testid="tracked-prisoner-age">
                      Last fix {lastFixText(lastFixOf(row), now, stale)}
                      {row.alertLevel && ` · ${row.alertLevel} alert open`}
                    </span>
                  </span>
                  <span className={clsx('shrink-0 text-xs', zone ? zone.className : 'text-slate-600')}>
                    {zone ? zone.text : row.online ? 'Online' : 'Offline'}
                  </span>
                </button>
              </li>
            );
          })}
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
