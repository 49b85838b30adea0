// The movements screen (issue 24 item 4): start a controlled movement, and today's movements with their state and each
// prisoner's, kept live by the server's dataChanged('movements'). A card list that fits 390 px.
import { Link } from 'react-router';
import type { Movement } from '@prison/shared';
import { errorMessage } from '../../lib/api-client';
import { formatAlertDateTime } from '../../lib/format';
import { useMay } from '../../lib/use-may';
import { Page } from '../../components/ui/page';
import { EmptyState, ErrorText, Loading } from '../../components/ui/status';
import { useMovements } from './api';
import { MovementStateBadge } from './movement-state-badge';
import { StartMovementForm } from './start-movement-form';

export function MovementsPage() {
  const mayStart = useMay('movements.write');
  const movements = useMovements();
  return (
    <Page title="Movements">
      {mayStart && <StartMovementForm />}
      <h2 className="mb-3 text-lg font-semibold text-slate-900">Today's movements</h2>
      {movements.isPending ? (
        <Loading text="Loading movements..." />
      ) : movements.isError ? (
        <ErrorText>{errorMessage(movements.error, 'Failed to fetch movements.')}</ErrorText>
      ) : movements.data.length === 0 ? (
        <EmptyState>No movements today.</EmptyState>
      ) : (
        <ol aria-label="Today's movements" className="flex flex-col gap-3">
          {movements.data.map((m) => (
            <MovementCard key={m.id} movement={m} />
          ))}
        </ol>
      )}
    </Page>
  );
}

export function MovementCard({ movement }: { movement: Movement }) {
  return (
    <li data-testid={`movement-${movement.id}`} className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
      <div className="mb-2 flex flex-wrap items-center justify-between gap-2">
        <span className="font-semibold text-slate-900">To {movement.destination.name}</span>
        <MovementStateBadge state={movement.state} />
      </div>
      <p className="mb-2 text-sm text-slate-700">
        Due by {formatAlertDateTime(movement.due_by)}
        {movement.escort && ` · Escort: ${movement.escort.first_name} ${movement.escort.last_name}`} · Started by {movement.created_by}
      </p>
      <ul className="flex flex-col gap-1 text-sm" aria-label="Prisoners">
        {movement.prisoners.map((p) => (
          <li key={p.prisoner_id} className="flex flex-wrap items-center justify-between gap-2" data-testid={`movement-prisoner-${p.prisoner_id}`}>
            <Link to={`/prisoner-details/${p.prisoner_id}`} className="text-brand-700 underline">
              {p.first_name} {p.last_name}
              {p.cell_id ? ` (${p.cell_id})` : ''}
            </Link>
            <span className="flex items-center gap-2">
              {p.state === 'off_route' && p.off_route_geofence && <span className="text-slate-700">in {p.off_route_geofence}</span>}
              <MovementStateBadge state={p.state} />
            </span>
          </li>
        ))}
      </ul>
    </li>
  );
}
