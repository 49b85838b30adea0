// The layout's Critical bar (issue 11): every open (unacknowledged) Critical alert stays on every screen until someone
// acknowledges it, here or anywhere else; and the top bar's count of open alerts per level.
import { useState } from 'react';
import { Link } from 'react-router';
import { clsx } from 'clsx';
import type { AlertRecord } from '@prison/shared';
import { Button } from '../../components/ui/button';
import { errorMessage } from '../../lib/api-client';
import { useToast } from '../../lib/toast';
import { AlertWorkflowNoteDialog } from './alert-workflow-actions';
import { useAlertStep } from './alert-workflow-api';
import { useOpenAlerts, useRefreshOpenAlertsOnConnect } from './api/open-alerts';
import { prisonerName } from './components/alert-card';
import { prisonerLabel } from '../../lib/prisoner-label';
import { formatAge } from '../../lib/format';
import { useNow } from '../../lib/use-now';


/** Name, id and cell together, so two prisoners of one name are told apart (issue 11, item 7). */
function whoText(alert: AlertRecord): string {
  if (alert.prisoner_id === null) return alert.device_id ? `Device ${alert.device_id}` : 'No prisoner';
  return prisonerLabel({ name: prisonerName(alert), prisonerId: alert.prisoner_id, cellId: alert.cell_id });
}

export function CriticalAlertBar() {
  const open = useOpenAlerts();
  useRefreshOpenAlertsOnConnect();
  const now = useNow(15_000);
  const step = useAlertStep();
  const { notify } = useToast();
  const [acknowledging, setAcknowledging] = useState<number | null>(null);

  const alerts = open.data?.data ?? [];
  if (alerts.length === 0) return null;
  const total = open.data?.counts.Critical ?? alerts.length;

  const close = () => {
    step.reset();
    setAcknowledging(null);
  };

  return (
    <section
      aria-labelledby="critical-bar-title"
      className="border-b-2 border-red-700 bg-red-50 text-red-950"
      data-testid="critical-alert-bar"
    >
      <div className="mx-auto max-w-screen-2xl px-4 py-2">
        <h2 id="critical-bar-title" className="text-sm font-bold">
          {total === 1 ? '1 open Critical alert' : `${total} open Critical alerts`}
          {total > alerts.length && (
            <>
              {' '}
              (newest {alerts.length} shown,{' '}
              <Link to="/allAlerts" className="underline">
                see all
              </Link>
              )
            </>
          )}
        </h2>
        <ul
          className="mt-1 flex max-h-36 flex-col divide-y divide-red-200 overflow-y-auto"
          aria-label="Open Critical alerts"
        >
          {alerts.map((alert) => (
            <li
              key={alert.id}
              className="flex flex-wrap items-center gap-x-3 gap-y-1 py-1.5 text-sm"
              data-testid="critical-alert"
              data-alert-id={alert.id}
            >
              <span className="font-semibold">{whoText(alert)}</span>
              <span className="min-w-0 flex-1 basis-48">{alert.details}</span>
              <time dateTime={alert.timestamp} className="text-xs whitespace-nowrap">
                {formatAge(now - new Date(alert.timestamp).getTime())}
              </time>
              <span className="flex gap-2">
                <Button size="sm" variant="danger" onClick={() => setAcknowledging(alert.id)}>
                  Acknowledge
                </Button>
                {alert.device_id && (
                  <Link
                    to={`/live-map?device=${encodeURIComponent(alert.device_id)}`}
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
      <AlertWorkflowNoteDialog
        action={acknowledging === null ? null : 'acknowledge'}
        busy={step.isPending}
        error={step.isError ? errorMessage(step.error, 'The alert could not be updated.') : null}
        onCancel={close}
        onConfirm={(note) =>
          acknowledging !== null &&
          step.mutate(
            { id: acknowledging, action: 'acknowledge', note },
            {
              onSuccess: () => {
                notify('Alert acknowledged.');
                setAcknowledging(null);
              },
            },
          )
        }
      />
    </section>
  );
}

const LEVELS = [
  { type: 'Critical', className: 'bg-red-600 text-white' },
  { type: 'Warning', className: 'bg-yellow-300 text-slate-900' },
  { type: 'Informational', className: 'bg-blue-600 text-white' },
] as const;

/** The top bar's open (unacknowledged) alerts per level; links to the alerts screen. */
export function OpenAlertCounts() {
  const open = useOpenAlerts();
  if (!open.data) return null;
  const { counts } = open.data;
  return (
    <Link
      to="/allAlerts"
      className="flex items-center gap-1 rounded text-xs font-semibold hover:opacity-90"
      data-testid="open-alert-counts"
    >
      <span className="sr-only">Open alerts:</span>
      {LEVELS.map(({ type, className }) => (
        <span
          key={type}
          className={clsx('rounded-full px-2 py-0.5', counts[type] > 0 ? className : 'bg-white/15 text-white')}
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
