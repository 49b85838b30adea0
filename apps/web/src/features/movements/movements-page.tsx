// The movements screen (decision 099): start a controlled movement, and today's movements with their
// state and each prisoner's, kept live by the server's dataChanged('movements'); one in force is ended (the prisoners
// are back) or cancelled in one tap. A card list that fits 390 px.
import { useState } from 'react';
import { Link } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import type { Movement } from '@prison/shared/movement';
import { api, errorMessage } from '../../lib/api-client';
import { Button } from '../../components/ui/button';
import { FormError } from '../../components/ui/field';
import { formatAlertDateTime } from '../../lib/format';
import { useMay } from '../../lib/use-may';
import { Page } from '../../components/ui/page';
import { EmptyState, ErrorText, Loading } from '../../components/ui/status';
import { MOVEMENTS_KEY, useMovements } from './api';
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

/** "End" (the prisoners are back) and "Cancel": one tap each; the movement's zones alarm for them again. */
function EndButtons({ movement }: { movement: Movement }) {
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState<'end' | 'cancel' | null>(null);
  const [error, setError] = useState<string | null>(null);
  const act = async (action: 'end' | 'cancel') => {
    setBusy(action);
    setError(null);
    try {
      await api.post(`/movements/${movement.id}/${action}`);
      await queryClient.invalidateQueries({ queryKey: MOVEMENTS_KEY });
    } catch (failure) {
      setError(errorMessage(failure, 'The movement could not be changed.'));
    } finally {
      setBusy(null);
    }
  };
  return (
    <div className="mt-3">
      <div className="flex flex-wrap gap-2">
        <Button className="min-h-11" busy={busy === 'end'} onClick={() => void act('end')} aria-label={`End movement to ${movement.destination.name}: prisoners back`}>
          End: back
        </Button>
        <Button variant="secondary" className="min-h-11" busy={busy === 'cancel'} onClick={() => void act('cancel')} aria-label={`Cancel movement to ${movement.destination.name}`}>
          Cancel movement
        </Button>
      </div>
      <FormError message={error} margin="mt-2" />
    </div>
  );
}

export function MovementCard({ movement }: { movement: Movement }) {
  const mayWrite = useMay('movements.write');
  return (
    <li data-testid={`movement-${movement.id}`} className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
      <div className="mb-2 flex flex-wrap items-center justify-between gap-2">
        <span className="font-semibold text-slate-900">To {movement.destination.name}</span>
        <MovementStateBadge state={movement.state} />
      </div>
      <p className="mb-2 text-sm text-slate-700">
        Due by {formatAlertDateTime(movement.due_by)}
        {movement.escort && ` · Escort: ${movement.escort.first_name} ${movement.escort.last_name}`} · Started by {movement.created_by}
        {movement.via.length > 0 && ` · On the way: ${movement.via.map((zone) => zone.name).join(', ')}`}
      </p>
      {movement.closed_reason && <p className="mb-2 text-sm text-slate-700">Closed at the due time; reason: {movement.closed_reason}</p>}
      <p className="mb-2 text-sm text-slate-700" data-testid="movement-authority">
        {movement.in_force
          ? `In force: ${movement.destination.name}${movement.via.length ? ' and the zones on the way' : ''} raise no alarm for these prisoners`
          : movement.ended_at
            ? `${movement.cancelled ? 'Cancelled' : 'Ended'} by ${movement.ended_by ?? 'unknown'} at ${formatAlertDateTime(movement.ended_at)}`
            : 'No longer in force (older than a day)'}
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
      {mayWrite && movement.in_force && <EndButtons movement={movement} />}
    </li>
  );
}
