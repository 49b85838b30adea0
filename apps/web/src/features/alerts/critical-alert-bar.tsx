// The layout's Critical bar: every open (unacknowledged) Critical alert stays on every screen until someone
// acknowledges it, here or anywhere else; and the top bar's count of open alerts per level. One line per alert from
// sm on, at most two of them and "N more" that opens the full list, so the live map keeps its height (decision 105);
// on a phone one line in all ("3 open Criticals") with a button that shows the list (decision 044). While the feed is
// not live both say so at once. With escalation off, a Critical older than the escalation delay says that nobody
// outside the control room has been told.
import { useMay } from '../../lib/use-may';
import { useState } from 'react';
import { Link } from 'react-router';
import { clsx } from 'clsx';
import type { AlertRecord } from '@prison/shared/alert';
import { Button } from '../../components/ui/button';
import { useAcknowledge } from './acknowledge-with-note';
import { useOpenAlerts, useRefreshOpenAlertsOnConnect } from './api/open-alerts';
import { prisonerName } from './components/alert-card';
import { prisonerLabel } from '../../lib/prisoner-label';
import { useNow } from '../../lib/use-now';
import { formatClock, isStale, liveAgeText, useFeedHealth } from '../../lib/feed-health';
import { liveMapLink } from './live-map-link';
import { repeatSummary } from './alert-repeats';
import { useEscalationSettings } from './api/escalation-settings';

/** Rows shown before "N more": the bar never takes more of the window than this (decision 105). */
export const CRITICAL_BAR_ROWS = 2;
export const NOBODY_TOLD = 'nobody outside the control room has been told';

/** Name, id and cell together, so two prisoners of one name are told apart. */
function whoText(alert: AlertRecord): string {
  // A member of staff in danger is named, never by his tracker's id (decision 100).
  if (alert.staff_name) return `Staff: ${alert.staff_name}`;
  if (alert.prisoner_id === null) return alert.device_id ? `Device ${alert.device_id}` : 'No prisoner';
  return prisonerLabel({ name: prisonerName(alert), prisonerId: alert.prisoner_id, prisonNumber: alert.prison_number, cellId: alert.cell_id });
}

export function CriticalAlertBar() {
  const mayWork = useMay('alerts.work');
  const open = useOpenAlerts();
  useRefreshOpenAlertsOnConnect();
  const now = useNow(15_000);
  // Each Acknowledge asks for the note a Critical needs, in the app's one note dialog (decision 095).
  const { acknowledge } = useAcknowledge();
  const [expanded, setExpanded] = useState(false);
  const [showAll, setShowAll] = useState(false);
  const { state: feedState, dataAsOf } = useFeedHealth();
  const stale = isStale(feedState);
  const escalation = useEscalationSettings().data;
  // Escalation off: past its delay a Critical would have been emailed or posted; nobody was (decision 105).
  const untoldAfterMs = escalation && escalation.channels.length === 0 ? escalation.escalateAfterSeconds * 1000 : null;

  const alerts = open.data?.data ?? [];
  if (alerts.length === 0) return null;
  const total = open.data?.counts.Critical ?? alerts.length;
  const hidden = showAll ? 0 : Math.max(0, alerts.length - CRITICAL_BAR_ROWS);
  const shown = hidden > 0 ? alerts.slice(0, CRITICAL_BAR_ROWS) : alerts;

  return (
    <section
      aria-labelledby="critical-bar-title"
      className="border-b-2 border-red-700 bg-red-50 text-red-950"
      data-testid="critical-alert-bar"
    >
      <div className="mx-auto max-w-screen-2xl px-4 py-2">
        <div className="flex items-center gap-3">
          <h2 id="critical-bar-title" className="min-w-0 flex-1 truncate text-sm font-bold">
            {/* A phone gets the short form: with the button it is the bar's one line. */}
            <span className="sm:hidden" data-testid="critical-bar-short">
              {total === 1 ? '1 open Critical' : `${total} open Criticals`}
            </span>
            <span className="hidden sm:inline">
              {total === 1 ? '1 open Critical alert' : `${total} open Critical alerts`}
            </span>
            {total > alerts.length && (
              <span className="hidden sm:inline">
                {' '}
                (newest {alerts.length} shown,{' '}
                <Link to="/allAlerts" className="underline">
                  see all
                </Link>
                )
              </span>
            )}
            {stale && (
              <span className="ml-2 font-semibold text-slate-800" data-testid="critical-bar-not-live">
                {dataAsOf === null ? 'Not live' : `Not live, as of ${formatClock(dataAsOf)}`}
              </span>
            )}
          </h2>
          {(hidden > 0 || showAll) && alerts.length > CRITICAL_BAR_ROWS && (
            <Button
              size="sm"
              variant="secondary"
              className="hidden shrink-0 sm:inline-flex"
              aria-expanded={showAll}
              aria-controls="critical-bar-list"
              onClick={() => setShowAll((all) => !all)}
              data-testid="critical-bar-more"
            >
              {showAll ? 'Show fewer' : `${hidden} more`}
            </Button>
          )}
          <Button
            size="sm"
            variant="secondary"
            className="shrink-0 sm:hidden"
            aria-expanded={expanded}
            aria-controls="critical-bar-list"
            onClick={() => setExpanded((shown) => !shown)}
            data-testid="critical-bar-toggle"
          >
            {expanded ? 'Hide' : 'Show'}
            <span className="sr-only"> the open Critical alerts</span>
          </Button>
        </div>
        <ul
          id="critical-bar-list"
          className={clsx(
            'mt-1 max-h-[40vh] flex-col divide-y divide-red-200 overflow-y-auto sm:flex sm:max-h-36',
            expanded ? 'flex' : 'hidden',
          )}
          aria-label="Open Critical alerts"
        >
          {(expanded ? alerts : shown).map((alert) => (
            <li
              key={alert.id}
              className="flex flex-wrap items-center gap-x-3 gap-y-1 py-1.5 text-sm md:flex-nowrap"
              data-testid="critical-alert"
              data-alert-id={alert.id}
            >
              <span className="font-semibold">{whoText(alert)}</span>
              <span className="min-w-0 flex-1 basis-48 md:truncate" title={alert.details}>
                {alert.details}
              </span>
              {repeatSummary(alert) && (
                <span className="text-xs font-semibold whitespace-nowrap" data-testid="critical-repeats">
                  {repeatSummary(alert)}
                </span>
              )}
              <time dateTime={alert.timestamp} className="text-xs whitespace-nowrap">
                {liveAgeText(new Date(alert.timestamp).getTime(), now, stale)}
              </time>
              {untoldAfterMs !== null && now - Date.parse(alert.timestamp) >= untoldAfterMs && (
                <span
                  className="rounded bg-red-700 px-1.5 py-0.5 text-xs font-semibold whitespace-nowrap text-white"
                  data-testid="nobody-told"
                >
                  {NOBODY_TOLD}
                </span>
              )}
              <span className="flex gap-2">
                {mayWork && (
                  <Button size="sm" variant="danger" onClick={() => acknowledge(alert)}>
                    Acknowledge
                  </Button>
                )}
                {alert.device_id && (
                  <Link
                    to={liveMapLink({ ...alert, device_id: alert.device_id })}
                    className={clsx(
                      'inline-flex items-center rounded-md border border-red-300 bg-white px-2.5 py-1 text-sm font-medium',
                      'text-red-900 hover:bg-red-100',
                    )}
                  >
                    Show on map
                  </Link>
                )}
              </span>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}

const LEVELS = [
  { type: 'Critical', className: 'bg-red-600 text-white' },
  { type: 'Warning', className: 'bg-yellow-300 text-slate-900' },
  { type: 'Informational', className: 'bg-blue-600 text-white' },
] as const;

/**
 * The top bar's open (unacknowledged) alerts per level; links to the alerts screen. While the feed is not live the
 * counts may be behind: they turn grey and say "not live" (decision 044).
 */
export function OpenAlertCounts() {
  const open = useOpenAlerts();
  const stale = isStale(useFeedHealth().state);
  if (!open.data) return null;
  const { counts } = open.data;
  return (
    <Link
      to="/allAlerts"
      className="flex items-center gap-1 rounded text-xs font-semibold hover:opacity-90"
      data-testid="open-alert-counts"
      data-stale={stale}
    >
      <span className="sr-only">{stale ? 'Open alerts, not live:' : 'Open alerts:'}</span>
      {stale && (
        <span aria-hidden="true" className="rounded bg-slate-200 px-1.5 py-0.5 text-slate-900">
          not live
        </span>
      )}
      {LEVELS.map(({ type, className }) => (
        <span
          key={type}
          className={clsx(
            'rounded-full px-2 py-0.5',
            stale ? 'bg-slate-500 text-white' : counts[type] > 0 ? className : 'bg-white/15 text-white',
          )}
          data-level={type}
          title={type}
        >
          {counts[type]}
          <span className="sr-only 2xl:not-sr-only"> {type}</span>
        </span>
      ))}
    </Link>
  );
}
