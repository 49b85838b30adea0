// The prisoner's open (unacknowledged) alerts on the details screen (decision 029), as the alerts screen draws them:
// the same card with its links ("Show on map") and Acknowledge / Resolve. A live alert or anyone's step refreshes
// the list (its query key starts with 'alerts').
import { Link } from 'react-router';
import { errorMessage } from '../../lib/api-client';
import { AlertCard } from '../alerts';
import { usePrisonerOpenAlerts } from './api';

export function PrisonerOpenAlerts({ prisonerId }: { prisonerId: number }) {
  const open = usePrisonerOpenAlerts(prisonerId);
  const shown = open.data?.data ?? [];
  const more = open.data ? open.data.totalAlerts - shown.length : 0;

  return (
    <section aria-labelledby="open-alerts-title" className="rounded-lg bg-white p-5 shadow-sm" data-testid="prisoner-open-alerts">
      <h2 id="open-alerts-title" className="mb-3 text-lg font-semibold text-slate-900">
        Open alerts{open.data ? ` (${open.data.totalAlerts})` : ''}
      </h2>
      {open.isPending ? (
        <p role="status" className="text-sm text-slate-600">
          Loading alerts...
        </p>
      ) : open.isError ? (
        <p role="alert" className="text-sm text-red-700">
          {errorMessage(open.error, 'Failed to fetch alerts.')}
        </p>
      ) : shown.length === 0 ? (
        <p className="text-sm text-slate-600">No open alerts.</p>
      ) : (
        <ul className="flex flex-col gap-3" aria-label="Open alerts of this prisoner">
          {shown.map((alert) => (
            <li key={alert.id}>
              <AlertCard alert={alert} />
            </li>
          ))}
        </ul>
      )}
      {more > 0 && (
        <p className="mt-2 text-sm">
          {more} more open alerts:{' '}
          <Link to="/allAlerts?status=New" className="font-medium text-brand-700 underline">
            see the alerts screen
          </Link>
        </p>
      )}
    </section>
  );
}
