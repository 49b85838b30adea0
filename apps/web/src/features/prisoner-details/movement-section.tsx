// The prisoner's current controlled movement: today's latest one with his state in it, live through
// dataChanged('movements'); a link to the movements screen.
import { Link } from 'react-router';
import { errorMessage } from '../../lib/api-client';
import { formatAlertDateTime } from '../../lib/format';
import { ErrorText, Loading } from '../../components/ui/status';
import { MovementStateBadge, useMovements } from '../movements';

export function MovementSection({ prisonerId }: { prisonerId: number }) {
  const movements = useMovements(prisonerId);
  const current = movements.data?.[0];
  const mine = current?.prisoners.find((p) => p.prisoner_id === prisonerId);
  return (
    <section aria-labelledby="movement-title" className="rounded-lg bg-white p-5 shadow-sm" data-testid="movement">
      <div className="mb-3 flex flex-wrap items-center justify-between gap-3">
        <h2 id="movement-title" className="text-lg font-semibold text-slate-900">
          Movement
        </h2>
        <Link to="/movements" className="rounded-md border border-slate-300 px-3 py-1.5 text-sm font-medium text-brand-700 hover:bg-slate-50">
          All movements
        </Link>
      </div>
      {movements.isPending ? (
        <Loading />
      ) : movements.isError ? (
        <ErrorText>{errorMessage(movements.error, 'Failed to fetch the movement.')}</ErrorText>
      ) : !current || !mine ? (
        <p className="text-sm text-slate-600">No movement today.</p>
      ) : (
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
          <dt className="font-medium text-slate-600">To</dt>
          <dd className="text-slate-900">{current.destination.name}</dd>
          <dt className="font-medium text-slate-600">State</dt>
          <dd>
            <MovementStateBadge state={mine.state} />
            {mine.state === 'off_route' && mine.off_route_geofence && <span className="ml-2 text-slate-700">entered {mine.off_route_geofence}</span>}
          </dd>
          <dt className="font-medium text-slate-600">Due by</dt>
          <dd className="text-slate-900">{formatAlertDateTime(current.due_by)}</dd>
          {current.escort && (
            <>
              <dt className="font-medium text-slate-600">Escort</dt>
              <dd className="text-slate-900">
                {current.escort.first_name} {current.escort.last_name}
              </dd>
            </>
          )}
        </dl>
      )}
    </section>
  );
}
