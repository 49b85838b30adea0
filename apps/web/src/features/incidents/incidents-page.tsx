// The incidents with their workflow status, newest first; each opens its page.
import { Link } from 'react-router';
import { INCIDENT_STATUS_LABELS } from '@prison/shared/incident-workflow';
import { Page } from '../../components/ui/page';
import { EmptyState, ErrorText, Loading } from '../../components/ui/status';
import { errorMessage } from '../../lib/api-client';
import { useIncidents } from './api';

export function IncidentsPage() {
  const incidents = useIncidents();
  return (
    <Page title="Incidents">
      {incidents.isPending ? (
        <Loading text="Loading incidents..." />
      ) : incidents.isError ? (
        <ErrorText>{errorMessage(incidents.error, 'Failed to load the incidents.')}</ErrorText>
      ) : incidents.data.length === 0 ? (
        <EmptyState>No incident yet. Open one from the replay or the alerts screen.</EmptyState>
      ) : (
        <ul className="flex flex-col gap-2">
          {incidents.data.map((incident) => (
            <li key={incident.id} className="rounded-lg border border-slate-200 bg-white p-3 text-sm">
              <Link to={`/incidents/${incident.id}`} className="font-medium text-blue-800 underline">
                Incident #{incident.id}: {incident.description.slice(0, 80)}
              </Link>
              <p className="text-slate-700">
                {INCIDENT_STATUS_LABELS[incident.status]} · {incident.date} {incident.time} · {incident.prisonerName}
              </p>
            </li>
          ))}
        </ul>
      )}
    </Page>
  );
}
