// The prisoner's observation on the details screen: level, interval, last check and when the next is
// due; setting the level (and his own interval) needs a reason. Checks are recorded on "Observation checks".
import { useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  OBSERVATION_LEVEL_LABELS,
  OBSERVATION_LEVELS,
  type ObservationLevel,
  type ObservationStatus,
} from '@prison/shared/observation';
import type { Prisoner } from '@prison/shared/prisoner';
import { api, errorMessage } from '../../lib/api-client';
import { formatAlertDateTime } from '../../lib/format';
import { useMay } from '../../lib/use-may';
import { Button } from '../../components/ui/button';
import { FormError, SelectField, TextAreaField, TextField } from '../../components/ui/field';
import { Modal } from '../../components/ui/modal';
import { ErrorText, Loading } from '../../components/ui/status';

const observationKey = (prisonerId: number) => ['observations', 'prisoner', prisonerId] as const;

function LevelDialog({ prisonerId, current, open, onClose }: { prisonerId: number; current: ObservationStatus; open: boolean; onClose(): void }) {
  const queryClient = useQueryClient();
  const [level, setLevel] = useState<ObservationLevel>(current.level);
  const [interval, setInterval] = useState(current.interval_overridden ? String(current.interval_minutes) : '');
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: () =>
      api.put(`/prisoners/${prisonerId}/observation`, { level, interval_minutes: interval.trim() === '' ? null : Number(interval), reason: reason.trim() }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ['observations'] });
      setReason('');
      onClose();
    },
    onError: (failure) => setError(errorMessage(failure, 'The level could not be set.')),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (reason.trim().split(/\s+/).length < 2) return setError('reason: say why in words (at least two words)');
    setError(null);
    save.mutate();
  };
  return (
    <Modal open={open} onOpenChange={(next) => !next && onClose()} title="Set observation level">
      <form onSubmit={submit} className="flex flex-col gap-3">
        <SelectField label="Level" value={level} options={OBSERVATION_LEVELS} onChange={(event) => setLevel(event.target.value as ObservationLevel)} />
        <TextField label="Own interval in minutes (empty: the level's)" inputMode="numeric" value={interval} onChange={(event) => setInterval(event.target.value)} />
        <TextAreaField label="Reason" rows={2} required value={reason} onChange={(event) => setReason(event.target.value)} />
        <FormError message={error} margin="mt-0" />
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" busy={save.isPending}>
            Set level
          </Button>
        </div>
      </form>
    </Modal>
  );
}

export function ObservationSection({ prisoner }: { prisoner: Pick<Prisoner, 'prisoner_id'> }) {
  const mayLevel = useMay('observations.level');
  const [open, setOpen] = useState(false);
  const query = useQuery({
    queryKey: observationKey(prisoner.prisoner_id),
    queryFn: ({ signal }) => api.get<{ observation: ObservationStatus }>(`/prisoners/${prisoner.prisoner_id}/observation`, { limit: 1 }, signal).then((r) => r.observation),
  });
  const status = query.data;
  return (
    <section aria-labelledby="observation-title" className="rounded-lg bg-white p-5 shadow-sm" data-testid="observation">
      <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
        <h2 id="observation-title" className="text-lg font-semibold text-slate-900">
          Observation
        </h2>
        {mayLevel && status && (
          <Button size="sm" variant="secondary" onClick={() => setOpen(true)}>
            Set level
          </Button>
        )}
      </div>
      {query.isPending ? (
        <Loading text="Loading observation..." />
      ) : query.isError ? (
        <ErrorText>{errorMessage(query.error, 'Failed to fetch the observation.')}</ErrorText>
      ) : status ? (
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
          <dt className="font-medium text-slate-600">Level</dt>
          <dd className="text-slate-900">
            {OBSERVATION_LEVEL_LABELS[status.level]}, every {status.interval_minutes} min{status.reason ? ` (${status.reason})` : ''}
          </dd>
          <dt className="font-medium text-slate-600">Last check</dt>
          <dd className="text-slate-900">{status.last_check_at ? `${formatAlertDateTime(status.last_check_at)} by ${status.last_check_by}` : 'None yet'}</dd>
          <dt className="font-medium text-slate-600">Next due</dt>
          <dd className="text-slate-900">{status.due_at ? `${formatAlertDateTime(status.due_at)}${status.overdue ? ' (overdue)' : ''}` : 'Not scheduled'}</dd>
        </dl>
      ) : null}
      {status && open && <LevelDialog prisonerId={prisoner.prisoner_id} current={status} open={open} onClose={() => setOpen(false)} />}
    </section>
  );
}
