// Beside the map: distance covered, time in each geofence, and the range's alerts (each jumps the player there).
import { clsx } from 'clsx';
import type { HistoryResponse } from '@prison/shared/history';
import { alertTone } from '../../lib/toast';
import { formatDistance, formatDuration, formatPlayerTime } from '../../lib/time-range';

export function HistorySummary({ history, onJump }: { history: HistoryResponse; onJump(ms: number): void }) {
  return (
    <aside aria-label="Track summary" className="flex flex-col gap-4">
      <section className="rounded-lg border border-slate-200 bg-white p-4">
        <h2 className="text-sm font-semibold text-slate-600 uppercase">Distance covered</h2>
        <p className="text-2xl font-semibold text-slate-900" data-testid="history-distance">
          {formatDistance(history.distance_m)}
        </p>
        <p className="text-xs text-slate-500">
          {history.total.toLocaleString('en-GB')} fixes
          {history.thinned && ` (${history.points.length.toLocaleString('en-GB')} drawn)`}
        </p>
      </section>
      <section className="rounded-lg border border-slate-200 bg-white p-4">
        <h2 className="mb-2 text-sm font-semibold text-slate-600 uppercase">Time in geofences</h2>
        {history.geofence_time.length === 0 ? (
          <p className="text-sm text-slate-500">Not inside any geofence in this range.</p>
        ) : (
          <ul className="flex flex-col gap-1 text-sm">
            {history.geofence_time.map((g) => (
              <li key={g.geofence_id} className="flex justify-between gap-2">
                <span>{g.name}</span>
                <span className="tabular-nums text-slate-700">{formatDuration(g.seconds)}</span>
              </li>
            ))}
          </ul>
        )}
      </section>
      <section className="rounded-lg border border-slate-200 bg-white p-4">
        <h2 className="mb-2 text-sm font-semibold text-slate-600 uppercase">Alerts</h2>
        {history.alerts.length === 0 ? (
          <p className="text-sm text-slate-500">No alerts in this range.</p>
        ) : (
          <ul className="flex max-h-72 flex-col gap-2 overflow-y-auto">
            {history.alerts.map((alert) => (
              <li key={alert.id}>
                <button
                  type="button"
                  onClick={() => onJump(Date.parse(alert.timestamp))}
                  className={clsx(
                    'w-full rounded-md border-l-4 px-3 py-2 text-left text-sm hover:brightness-95',
                    alertTone[alert.alert_type],
                  )}
                  title="Jump the player to this moment"
                >
                  <span className="block font-medium">{alert.details}</span>
                  <span className="text-xs opacity-80">
                    {alert.alert_type} · {formatPlayerTime(Date.parse(alert.timestamp))} · {alert.status}
                  </span>
                </button>
              </li>
            ))}
          </ul>
        )}
      </section>
    </aside>
  );
}
