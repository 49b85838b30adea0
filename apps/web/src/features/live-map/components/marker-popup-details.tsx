// What a marker's popup adds under the layer's "Name: " line and "#id · cell X" (decision 026): the tracker's state,
// the age of the last fix, the battery, the open alerts each with Acknowledge (a Critical one asks for a note in the
// app's one note dialog, decision 095), and links to the prisoner's details and history. Rendered by React into the
// popup's slot (a portal), so it follows live data while open.
import { useMay } from '../../../lib/use-may';
import { Link } from 'react-router';
import type { LiveMapPrisonerAlerts } from '@prison/shared/alert';
import { Button } from '../../../components/ui/button';
import { formatAge } from '../../../lib/format';
import { useAcknowledge } from '../../alerts';
import { LEVEL_BADGE_CLASS, zoneStateStyle } from '../../../lib/alert-level-style';
import { lastFixText, type TrackedPrisonerRow } from './tracked-prisoner-list';

export function MarkerPopupDetails({
  row,
  lastFixAt,
  alerts,
  now,
  stale = false,
}: {
  row: TrackedPrisonerRow;
  lastFixAt: string | null;
  alerts: LiveMapPrisonerAlerts | undefined;
  now: number;
  /** The feed is not live: the last fix's age is frozen (decision 044). */
  stale?: boolean;
}) {
  const { acknowledge, pendingId } = useAcknowledge();
  const mayWork = useMay('alerts.work');
  const open = alerts?.open ?? [];
  const openCount = alerts?.open_count ?? 0;
  const zone = zoneStateStyle(row.violationLevel);

  return (
    <div className="mt-1 flex flex-col gap-1 text-xs text-slate-800" data-testid="marker-popup-details">
      {row.prisonNumber && (
        <div data-testid="marker-popup-number">
          Prison number <span className="font-mono font-semibold">{row.prisonNumber}</span>
        </div>
      )}
      <div data-testid="marker-popup-state">
        {row.online ? 'Online' : 'Offline'} · last fix {lastFixText(lastFixAt, now, stale)}
      </div>
      <div data-testid="marker-popup-battery">
        Battery: {row.battery === null ? 'unknown' : `${Math.round(row.battery)}%`}
      </div>
      {zone && (
        <div className={zone.className} data-testid="marker-popup-zone" data-zone-state={zone.state}>
          {zone.text}
        </div>
      )}
      {openCount > 0 ? (
        <div>
          <div className="font-semibold">Open alerts ({openCount})</div>
          <ul className="mt-1 flex flex-col gap-1" aria-label="Open alerts">
            {open.map((alert) => (
              <li
                key={alert.id}
                className="flex items-start gap-2"
                data-testid="marker-popup-alert"
                data-alert-type={alert.alert_type}
              >
                <span className="min-w-0 flex-1">
                  <span className={`mr-1 rounded px-1 font-semibold ${LEVEL_BADGE_CLASS[alert.alert_type]}`}>
                    {alert.alert_type}
                  </span>
                  {alert.details}{' '}
                  <span className="text-slate-600">({formatAge(now - Date.parse(alert.timestamp))})</span>
                </span>
                {mayWork && (
                  <Button
                    size="sm"
                    variant="secondary"
                    className="shrink-0"
                    aria-label={`Acknowledge: ${alert.details}`}
                    busy={pendingId === alert.id}
                    onClick={() => acknowledge(alert)}
                  >
                    Acknowledge
                  </Button>
                )}
              </li>
            ))}
          </ul>
          {openCount > open.length && (
            <Link className="text-blue-800 underline" to="/alerts">
              {openCount - open.length} more on the alerts screen
            </Link>
          )}
        </div>
      ) : (
        <div className="text-slate-600">No open alerts</div>
      )}
      {row.prisonerId !== null && (
        <div className="mt-1 flex flex-wrap gap-3">
          <Link className="text-blue-800 underline" to={`/prisoner-details/${row.prisonerId}`}>
            Prisoner details
          </Link>
          <Link
            className="text-blue-800 underline"
            to={`/location-history?prisoner=${row.prisonerId}&name=${encodeURIComponent(row.name)}`}
          >
            Location history
          </Link>
        </div>
      )}
    </div>
  );
}
