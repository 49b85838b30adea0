// The operations overview for a logged-in admin (decision 021): the roll per block and for the prison,
// open alerts by level and offline trackers, from GET /overview in one call. Every number links to the list behind it.
import { Link } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { clsx } from 'clsx';
import type { Overview, RollCount } from '@prison/shared/overview';
import { api, errorMessage } from '../../lib/api-client';
import { alertTone } from '../../lib/toast';
import { formatAlertDateTime } from '../../lib/format';
import { ErrorText, Loading } from '../../components/ui/status';
import { isStale, useFeedHealth } from '../../lib/feed-health';
import { DataAsOf } from '../../components/ui/feed-health';

/** Counts change with every fix and alert; a background refetch keeps them near the present. */
const REFRESH_MS = 10_000;

const ROLL_COLUMNS: { field: keyof RollCount; label: string; list: string }[] = [
  { field: 'capacity', label: 'Capacity', list: '/cell-assign' },
  { field: 'assigned', label: 'Assigned', list: '/cell-assign' },
  { field: 'tracked', label: 'Tracked', list: '/live-map' },
  { field: 'online', label: 'Online', list: '/live-map' },
  { field: 'offline', label: 'Offline', list: '/live-map' },
  { field: 'in_violation', label: 'In violation', list: '/live-map' },
  { field: 'in_zone', label: 'In zone', list: '/live-map' },
  { field: 'untracked', label: 'Untracked', list: '/cell-assign' },
];

function useOverview() {
  return useQuery({
    queryKey: ['overview'],
    queryFn: ({ signal }) => api.get<Overview>('/overview', undefined, signal),
    refetchInterval: REFRESH_MS,
  });
}

// Only a Critical or Warning violation is an alarm (red); an Informational zone is blue (decision 044).
const LEVEL_COLUMN_CLASS: Partial<Record<keyof RollCount, string>> = {
  in_violation: 'text-red-700',
  in_zone: 'text-blue-800',
};

const numberLink = 'font-semibold tabular-nums text-brand-700 underline decoration-dotted hover:decoration-solid';

export function OperationsOverview() {
  const overview = useOverview();
  // Not current while the live feed is down or the last refetch failed (decision 028): the last counts stay, greyed.
  const notCurrent = isStale(useFeedHealth().state) || overview.isRefetchError;
  if (overview.isPending) return <Loading text="Loading overview..." />;
  if (!overview.data) return <ErrorText>{errorMessage(overview.error, 'Failed to fetch the overview.')}</ErrorText>;
  const data = overview.data;
  return (
    <div className="flex flex-col gap-6" data-testid="operations-overview" data-stale={notCurrent}>
      {notCurrent ? (
        <p className="text-sm font-medium text-amber-900" data-testid="overview-not-current">
          Not current: <DataAsOf time={Date.parse(data.as_of)} />
        </p>
      ) : (
        <p className="text-sm text-slate-600">
          Counts as of{' '}
          <time dateTime={data.as_of} data-testid="overview-as-of">
            {new Date(data.as_of).toLocaleTimeString('en-GB')}
          </time>
        </p>
      )}
      <div className={clsx('flex flex-col gap-6', notCurrent && 'grayscale')}>
        <RollTable overview={data} />
        <div className="grid gap-6 md:grid-cols-2">
          <OpenAlerts overview={data} />
          <OfflineTrackers overview={data} />
        </div>
      </div>
    </div>
  );
}

function RollTable({ overview }: { overview: Overview }) {
  const rows: { name: string; testId: string; roll: RollCount }[] = overview.blocks.map((block) => ({
    name: `Block ${block.block}`,
    testId: `roll-block-${block.block}`,
    roll: block,
  }));
  return (
    <section aria-labelledby="roll-title">
      <h3 id="roll-title" className="mb-2 text-lg font-semibold">
        Roll
      </h3>
      <div className="overflow-x-auto rounded-md bg-white shadow-sm">
        <table className="w-full min-w-[40rem] text-sm">
          <thead className="bg-slate-100 text-left text-slate-700">
            <tr>
              <th scope="col" className="px-3 py-2">
                Block
              </th>
              {ROLL_COLUMNS.map((column) => (
                <th key={column.field} scope="col" className="px-3 py-2 text-right">
                  {column.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.length === 0 && (
              <tr>
                <td colSpan={ROLL_COLUMNS.length + 1} className="px-3 py-4 text-center text-slate-500">
                  No cells yet.
                </td>
              </tr>
            )}
            {rows.map((row) => (
              <RollRow key={row.testId} {...row} />
            ))}
          </tbody>
          <tfoot className="border-t-2 border-slate-300 bg-slate-50">
            <RollRow name="Prison" testId="roll-prison" roll={overview.prison} />
          </tfoot>
        </table>
      </div>
    </section>
  );
}

function RollRow({ name, testId, roll }: { name: string; testId: string; roll: RollCount }) {
  return (
    <tr className="border-t border-slate-200" data-testid={testId}>
      <th scope="row" className="px-3 py-2 text-left font-medium">
        {name}
      </th>
      {ROLL_COLUMNS.map((column) => (
        <td key={column.field} className="px-3 py-2 text-right" data-field={column.field}>
          <Link
            to={column.list}
            className={clsx(numberLink, roll[column.field] > 0 && LEVEL_COLUMN_CLASS[column.field])}
            aria-label={`${name}: ${roll[column.field]} ${column.label.toLowerCase()}`}
          >
            {roll[column.field]}
          </Link>
        </td>
      ))}
    </tr>
  );
}

function OpenAlerts({ overview }: { overview: Overview }) {
  // Open means not resolved; "unacknowledged" are those nobody has taken yet (the Critical bar's count).
  const levels = [...overview.open_alerts].reverse(); // Critical first
  return (
    <section aria-labelledby="open-alerts-title">
      <h3 id="open-alerts-title" className="mb-2 text-lg font-semibold">
        Open alerts
      </h3>
      <ul className="flex flex-col gap-2">
        {levels.map((level) => (
          <li
            key={level.alert_type}
            className={clsx(
              'flex items-baseline justify-between gap-3 rounded-md border-l-4 px-3 py-2 shadow-sm',
              alertTone[level.alert_type],
            )}
            data-testid={`open-alerts-${level.alert_type}`}
          >
            <span className="font-medium">{level.alert_type}</span>
            <span className="flex gap-4 text-sm">
              <Link
                to={`/allAlerts?alert_type=${level.alert_type}`}
                className="font-semibold tabular-nums underline"
                aria-label={`${level.alert_type}: ${level.open} open`}
                data-field="open"
              >
                {level.open} open
              </Link>
              <Link
                to={`/allAlerts?alert_type=${level.alert_type}&status=New`}
                className="tabular-nums underline"
                aria-label={`${level.alert_type}: ${level.unacknowledged} unacknowledged`}
                data-field="unacknowledged"
              >
                {level.unacknowledged} unacknowledged
              </Link>
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}

function OfflineTrackers({ overview }: { overview: Overview }) {
  const { total, newest } = overview.offline_trackers;
  return (
    <section aria-labelledby="offline-trackers-title" data-testid="offline-trackers">
      <h3 id="offline-trackers-title" className="mb-2 text-lg font-semibold">
        Offline trackers:{' '}
        <Link to="/live-map" className={numberLink} aria-label={`${total} offline trackers`} data-field="total">
          {total}
        </Link>
      </h3>
      {newest.length === 0 ? (
        <p className="rounded-md bg-white p-3 text-sm text-slate-600 shadow-sm">Every assigned tracker is online.</p>
      ) : (
        <ul className="flex flex-col gap-2" aria-label="Most recently lost trackers">
          {newest.map((tracker) => (
            <li key={tracker.device_id} className="rounded-md bg-white px-3 py-2 text-sm shadow-sm">
              <Link to={`/prisoner-details/${tracker.prisoner_id}`} className="font-medium text-brand-700 underline">
                {[tracker.first_name, tracker.last_name].filter(Boolean).join(' ') || 'Unnamed'}
              </Link>{' '}
              <span className="text-slate-600">
                #{tracker.prisoner_id}
                {tracker.cell_id ? ` · cell ${tracker.cell_id}` : ' · no cell'} · {tracker.device_name}
              </span>
              <p className="text-xs text-slate-600">
                {tracker.last_seen_at ? (
                  <>
                    Offline since{' '}
                    <time dateTime={tracker.last_seen_at}>{formatAlertDateTime(tracker.last_seen_at)}</time>
                  </>
                ) : (
                  'Never reported'
                )}
              </p>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
