// "Recent Incidents" on the home page: cards from GET /incident/recent (docs/CLIENT-CONTRACT.md). The API needs a
// session (docs/CLIENT-CONTRACT.md), so a visitor who is not logged in is asked to log in.
import { Link } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import type { Incident } from '@prison/shared/incident';
import { api, errorMessage } from '../../lib/api-client';
import { useAuth } from '../../lib/auth';
import { formatLongDate } from '../../lib/format';
import { EmptyState, ErrorText, Loading } from '../../components/ui/status';

export function RecentIncidents() {
  const { status } = useAuth();
  const incidents = useQuery({
    queryKey: ['incidents', 'recent'],
    queryFn: ({ signal }) => api.get<{ data: Incident[] }>('/incident/recent', undefined, signal).then((r) => r.data),
    enabled: status === 'authenticated',
  });

  if (status === 'unknown') return <Loading text="Loading incidents..." />;
  if (status !== 'authenticated') {
    return (
      <p className="rounded-md bg-white p-4 text-slate-600 shadow-sm">
        <Link to="/login" className="font-medium text-brand-700 underline">
          Log in
        </Link>{' '}
        to see recent incidents.
      </p>
    );
  }
  if (incidents.isPending) return <Loading text="Loading incidents..." />;
  if (incidents.isError) return <ErrorText>{errorMessage(incidents.error, 'Failed to fetch incidents.')}</ErrorText>;
  if (incidents.data.length === 0) return <EmptyState>No incidents recorded.</EmptyState>;

  return (
    <ul className="grid gap-4 sm:grid-cols-2" aria-label="Recent incidents">
      {incidents.data.map((incident) => (
        <li
          key={incident.id}
          className="flex flex-col gap-2 rounded-lg border-l-4 border-accent-500 bg-white p-4 shadow-sm"
          data-testid="incident-card"
        >
          <div className="flex flex-wrap items-baseline justify-between gap-2">
            <h3 className="font-semibold text-slate-900">{incident.prisonerName}</h3>
            <p className="text-xs text-slate-500">
              <time dateTime={`${incident.date}T${incident.time}`}>
                {formatLongDate(incident.date)} · {incident.time}
              </time>
            </p>
          </div>
          <p className="text-sm text-slate-700">{incident.description}</p>
          <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
            <dt className="font-medium text-slate-600">Guard</dt>
            <dd className="text-slate-800">{incident.guardName}</dd>
            <dt className="font-medium text-slate-600">Action taken</dt>
            <dd className="text-slate-800">{incident.actionTaken}</dd>
          </dl>
        </li>
      ))}
    </ul>
  );
}
