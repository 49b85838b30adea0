// One alert, coloured by type (critical red, warning yellow, informational blue; docs/CLIENT-CONTRACT.md). A handled alert
// (acknowledged or resolved) is drawn quieter than a new one, so the eye goes to what still needs someone.
import { clsx } from 'clsx';
import { Link } from 'react-router';
import type { AlertRecord } from '@prison/shared/alert';
import type { AlertStatus } from '@prison/shared/constants';
import { alertTone } from '../../../lib/toast';
import { formatAlertDateTime } from '../../../lib/format';
import { repeatSummary } from '../alert-repeats';
import { prisonerLabel } from '../../../lib/prisoner-label';
import { AlertWorkflowActions } from '../alert-workflow-actions';
import { OpenIncidentFromAlert } from '../../incidents';
import { liveMapLink } from '../live-map-link';
import { RespondButton, RespondingList } from '../../duress';
import { LogEntriesDisclosure } from '../../../components/log/log-entries-disclosure';

export function prisonerName(alert: Pick<AlertRecord, 'first_name' | 'last_name'>): string {
  const name = [alert.first_name, alert.last_name].filter(Boolean).join(' ');
  return name || 'Unknown';
}

/** New: the type's full colour and a shadow. Acknowledged: the colour, dashed and flat. Resolved: grey. */
const statusLook: Record<AlertStatus, string> = {
  New: 'border-l-4 shadow-sm',
  Acknowledged: 'border-l-4 border-dashed',
  Resolved: 'border-l-4 border-slate-400 bg-slate-100 text-slate-700',
};

/** `linked`: the alert an escalation email or webhook linked to (/alerts?alert=ID), marked for the eye and for readers. */
export function AlertCard({ alert, pinned = false, linked = false }: { alert: AlertRecord; pinned?: boolean; linked?: boolean }) {
  return (
    <article
      className={clsx(
        'rounded-md p-4',
        alert.status !== 'Resolved' && alertTone[alert.alert_type],
        statusLook[alert.status],
        pinned && 'ring-2 ring-red-600',
        linked && 'outline outline-4 outline-offset-2 outline-blue-700',
      )}
      data-testid="alert-card"
      data-alert-type={alert.alert_type}
      data-status={alert.status}
      data-pinned={pinned || undefined}
      aria-current={linked || undefined}
    >
      <div className="flex flex-wrap items-start justify-between gap-2">
        <p className={clsx(alert.status === 'New' ? 'font-semibold' : 'font-medium')}>{alert.details}</p>
        <div className="flex gap-1">
          {pinned && <span className="rounded-full bg-red-700 px-2 py-0.5 text-xs font-semibold text-white">Pinned</span>}
          <span className="rounded-full bg-white/70 px-2 py-0.5 text-xs font-semibold">{alert.alert_type}</span>
        </div>
      </div>
      <p className="mt-1 text-sm">
        {/* An alert about a member of staff names him, never "Prisoner: Unknown" or his tracker (decision 100). */}
        {alert.staff_name ? `Staff: ${alert.staff_name}` : 'Prisoner: '}
        {alert.staff_name ? null : alert.prisoner_id == null ? (
          prisonerName(alert)
        ) : (
          <Link to={`/prisoner-details/${alert.prisoner_id}`} className="font-medium underline">
            {prisonerLabel({ name: prisonerName(alert), prisonerId: alert.prisoner_id, prisonNumber: alert.prison_number, cellId: alert.cell_id })}
          </Link>
        )}
        {alert.device_id && (
          <>
            {' · '}
            <Link to={liveMapLink({ ...alert, device_id: alert.device_id })} className="font-medium underline">
              Show on map
            </Link>
          </>
        )}
      </p>
      <div className="mt-1 flex flex-wrap items-center gap-x-3 gap-y-1 text-xs opacity-80">
        <time dateTime={alert.timestamp}>{formatAlertDateTime(alert.timestamp)}</time>
        <span>Status: {alert.status}</span>
        {alert.ended_at && <span>Ended {formatAlertDateTime(alert.ended_at)}</span>}
        {/* Repeats of one rule for one person fold into this alert while it is open: how often, and when last. */}
        {repeatSummary(alert) && <span data-testid="alert-repeats">{repeatSummary(alert)}</span>}
      </div>
      {/* Who handled it, when, and what they wrote (stored by the workflow; issue 11). */}
      {(alert.acknowledged_at || alert.resolved_at || alert.note) && (
        <div className="mt-1 flex flex-col text-sm" data-testid="alert-handling">
          {alert.acknowledged_at && (
            <p>
              Acknowledged by {alert.acknowledged_by ?? 'a removed admin'} at{' '}
              <time dateTime={alert.acknowledged_at}>{formatAlertDateTime(alert.acknowledged_at)}</time>
            </p>
          )}
          {alert.resolved_at && (
            <p>
              Resolved by {alert.resolved_by ?? 'a removed admin'} at{' '}
              <time dateTime={alert.resolved_at}>{formatAlertDateTime(alert.resolved_at)}</time>
            </p>
          )}
          {alert.note && <p className="whitespace-pre-line">Note: {alert.note}</p>}
        </div>
      )}
      {/* Who is on the way, for everyone who sees the alert (decision 100). */}
      {(alert.responding || (alert.staff_name && alert.status !== 'Resolved')) && <RespondingList alert={alert} className="mt-1 text-sm" />}
      <div className="mt-2 flex flex-wrap items-start gap-2">
        {alert.staff_name && <RespondButton alert={alert} />}
        <AlertWorkflowActions alertId={alert.id} level={alert.alert_type} status={alert.status} />
        <OpenIncidentFromAlert alert={alert} />
      </div>
      <LogEntriesDisclosure kind="alert" id={alert.id} />
    </article>
  );
}
