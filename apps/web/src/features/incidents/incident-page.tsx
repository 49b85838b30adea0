// An incident: its details, the status steps with who and when and the next step, the linked
// alerts and people (each with "Who was near this person"; while not closed, more linked and a mistaken one taken back
// after confirming), and "Replay this window".
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import {
  INCIDENT_STATUS_LABELS,
  INCIDENT_TRANSITIONS,
  type IncidentDetail,
  type IncidentLinkKind,
  type IncidentStatus,
} from '@prison/shared/incident-workflow';
import { Button } from '../../components/ui/button';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { FormError, TextAreaField } from '../../components/ui/field';
import { Page } from '../../components/ui/page';
import { EmptyState, ErrorText, Loading } from '../../components/ui/status';
import { errorMessage } from '../../lib/api-client';
import { useMay } from '../../lib/use-may';
import { formatPlayerTime } from '../../lib/time-range';
import { nearScreenUrl, replayUrl } from '../../lib/screen-links';
import { useIncident, useIncidentStatus, useUnlinkFromIncident } from './api';
import { IncidentLinksForm } from './incident-links-form';
import { LinkedLogEntries } from '../../components/log/linked-log-entries';

const STEP_VERBS: Record<IncidentStatus, string> = { reported: 'Reported', investigating: 'Investigation started', closed: 'Closed' };
const ACTION_LABELS: Record<IncidentStatus, string> = { reported: 'Report', investigating: 'Start investigating', closed: 'Close the incident' };

export function IncidentPage() {
  const id = Number(useParams().incidentId);
  const incident = useIncident(id);
  if (incident.isPending) return <Loading text="Loading the incident..." />;
  if (incident.isError) return <ErrorText>{errorMessage(incident.error, 'Failed to load the incident.')}</ErrorText>;
  return <IncidentView incident={incident.data} />;
}

/** A link to take back: its kind and id, and how the confirmation names it. */
interface Unlinking {
  kind: IncidentLinkKind;
  targetId: number;
  label: string;
}

function IncidentView({ incident }: { incident: IncidentDetail }) {
  const mayWrite = useMay('incidents.write');
  const window = incident.window;
  // A closed incident keeps its links (the server answers 409): reopen it first.
  const mayEditLinks = mayWrite && incident.status !== 'closed';
  const unlink = useUnlinkFromIncident(incident.id);
  const [unlinking, setUnlinking] = useState<Unlinking | null>(null);
  const removeButton = (target: Unlinking) =>
    mayEditLinks && (
      <Button variant="secondary" size="sm" onClick={() => setUnlinking(target)} aria-label={`Remove the link to ${target.label}`}>
        Remove
      </Button>
    );
  return (
    <Page
      title={`Incident #${incident.id}`}
      actions={
        window ? (
          <Link
            to={replayUrl(window, { prisonerIds: incident.prisoners.map((p) => p.id), staffIds: incident.staff.map((s) => s.id) }, incident.id)}
            className="rounded-md bg-slate-900 px-3 py-2 text-sm font-medium text-white hover:bg-slate-700"
          >
            Replay this window
          </Link>
        ) : undefined
      }
    >
      <div className="grid gap-4 lg:grid-cols-2">
        <section aria-label="Details" className="rounded-lg border border-slate-200 bg-white p-4 text-sm">
          <p>
            <span className="font-medium">Status:</span> <span data-testid="incident-status">{INCIDENT_STATUS_LABELS[incident.status]}</span>
          </p>
          <p>
            <span className="font-medium">Window:</span>{' '}
            {window ? `${formatPlayerTime(Date.parse(window.from))} to ${formatPlayerTime(Date.parse(window.to))}` : 'none'}
          </p>
          <p>
            <span className="font-medium">Date:</span> {incident.date} {incident.time}
          </p>
          <p className="mt-2 whitespace-pre-wrap">{incident.description}</p>
          <p className="mt-2 text-slate-700">
            <span className="font-medium">Action taken:</span> {incident.actionTaken}
          </p>
        </section>
        <section aria-label="Status steps" className="rounded-lg border border-slate-200 bg-white p-4 text-sm">
          <h2 className="mb-2 font-medium">Steps</h2>
          <ol className="flex flex-col gap-1">
            {incident.steps.map((step, i) => (
              <li key={i}>
                {STEP_VERBS[step.status]} by {step.by}, {formatPlayerTime(Date.parse(step.at))}
                {step.note && <span className="text-slate-700"> — {step.note}</span>}
              </li>
            ))}
          </ol>
          {mayWrite && <NextSteps incident={incident} />}
        </section>
        <section aria-label="Linked people" className="rounded-lg border border-slate-200 bg-white p-4 text-sm">
          <h2 className="mb-2 font-medium">People</h2>
          {incident.prisoners.length + incident.staff.length === 0 ? (
            <EmptyState>No person linked.</EmptyState>
          ) : (
            <ul className="flex flex-col gap-1">
              {[...incident.prisoners.map((p) => ({ ...p, kind: 'Prisoner' as const })), ...incident.staff.map((s) => ({ ...s, kind: 'Staff' as const }))].map((person) => (
                <li key={`${person.kind}-${person.id}`} className="flex flex-wrap items-center gap-2">
                  <span>
                    {person.name} ({person.kind})
                  </span>
                  {removeButton({ kind: person.kind === 'Prisoner' ? 'prisoner' : 'staff', targetId: person.id, label: person.name })}
                  {window && (
                    <Link
                      className="text-blue-800 underline"
                      to={nearScreenUrl(person.kind === 'Prisoner' ? { prisonerId: person.id } : { staffId: person.id }, window.from, window.to)}
                    >
                      Who was near {person.name}
                    </Link>
                  )}
                </li>
              ))}
            </ul>
          )}
        </section>
        <section aria-label="Linked alerts" className="rounded-lg border border-slate-200 bg-white p-4 text-sm">
          <h2 className="mb-2 font-medium">Alerts</h2>
          {incident.alerts.length === 0 ? (
            <EmptyState>No alert linked.</EmptyState>
          ) : (
            <ul className="flex flex-col gap-1">
              {incident.alerts.map((alert) => (
                <li key={alert.id} className="flex flex-wrap items-center gap-2">
                  <span>
                    #{alert.id} {alert.alert_type}: {alert.details} ({formatPlayerTime(Date.parse(alert.timestamp))})
                  </span>
                  {removeButton({ kind: 'alert', targetId: alert.id, label: `alert #${alert.id}` })}
                </li>
              ))}
            </ul>
          )}
        </section>
        <div className="rounded-lg border border-slate-200 bg-white p-4 text-sm lg:col-span-2">
          <LinkedLogEntries kind="incident" id={incident.id} />
        </div>
        {mayEditLinks && (
          <section aria-label="Link more to this incident" className="rounded-lg border border-slate-200 bg-white p-4 text-sm lg:col-span-2">
            <IncidentLinksForm incidentId={incident.id} />
          </section>
        )}
      </div>
      <ConfirmDialog
        open={unlinking !== null}
        title="Remove a link"
        message={`Remove the link to ${unlinking?.label ?? ''} from incident #${incident.id}? The removal is recorded in the audit trail.`}
        confirmLabel="Remove"
        busy={unlink.isPending}
        error={unlink.isError ? errorMessage(unlink.error, 'The link could not be removed.') : null}
        onConfirm={() => {
          if (unlinking) unlink.mutate({ kind: unlinking.kind, targetId: unlinking.targetId }, { onSuccess: () => setUnlinking(null) });
        }}
        onCancel={() => {
          unlink.reset();
          setUnlinking(null);
        }}
      />
    </Page>
  );
}

function NextSteps({ incident }: { incident: IncidentDetail }) {
  const change = useIncidentStatus(incident.id);
  const [note, setNote] = useState('');
  const next = INCIDENT_TRANSITIONS[incident.status];
  return (
    <div className="mt-3 flex flex-col gap-2">
      <TextAreaField label="Note for the next step (optional)" value={note} onChange={(event) => setNote(event.target.value)} maxLength={1000} />
      <div className="flex flex-wrap gap-2">
        {next.map((status) => (
          <Button
            key={status}
            disabled={change.isPending}
            onClick={() => change.mutate({ status, note: note.trim() || undefined }, { onSuccess: () => setNote('') })}
          >
            {incident.status === 'closed' ? 'Reopen for investigation' : ACTION_LABELS[status]}
          </Button>
        ))}
      </div>
      <FormError message={change.isError ? errorMessage(change.error, 'The step could not be taken.') : null} />
    </div>
  );
}
