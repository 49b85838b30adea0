// One alert, coloured by type (critical red, warning yellow, informational blue; SPEC.md section 2).
import { clsx } from 'clsx';
import type { AlertRecord } from '@prison/shared';
import { alertTone } from '../../../lib/toast';
import { formatAlertDateTime } from '../../../lib/format';
import { prisonerLabel } from '../../../lib/prisoner-label';
import { AlertWorkflowActions } from '../alert-workflow-actions';

export function prisonerName(alert: Pick<AlertRecord, 'first_name' | 'last_name'>): string {
  const name = [alert.first_name, alert.last_name].filter(Boolean).join(' ');
  return name || 'Unknown';
}

export function AlertCard({ alert }: { alert: AlertRecord }) {
  return (
    <article
      className={clsx('rounded-md border-l-4 p-4 shadow-sm', alertTone[alert.alert_type])}
      data-testid="alert-card"
      data-alert-type={alert.alert_type}
    >
      <div className="flex flex-wrap items-start justify-between gap-2">
        <p className="font-medium">{alert.details}</p>
        <span className="rounded-full bg-white/70 px-2 py-0.5 text-xs font-semibold">{alert.alert_type}</span>
      </div>
      <p className="mt-1 text-sm">
        Prisoner: {prisonerLabel({ name: prisonerName(alert), prisonerId: alert.prisoner_id, cellId: alert.cell_id })}
      </p>
      <div className="mt-1 flex flex-wrap items-center gap-x-3 gap-y-1 text-xs opacity-80">
        <time dateTime={alert.timestamp}>{formatAlertDateTime(alert.timestamp)}</time>
        <span>Status: {alert.status}</span>
        {alert.ended_at && <span>Ended {formatAlertDateTime(alert.ended_at)}</span>}
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
      <AlertWorkflowActions alertId={alert.id} status={alert.status} />
    </article>
  );
}
