// The prisoner's flags (decision 101) on the details screen: self-harm, escape, violence risks and medical alerts,
// each with who set it, from and until, and its note; set and cleared (with a reason) by the staff who may.
import { useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  PRISONER_FLAG_KINDS,
  PRISONER_FLAG_LABELS,
  type PrisonerFlag,
  type PrisonerFlagKind,
} from '@prison/shared/prisoner-identity';
import { api, errorMessage } from '../../lib/api-client';
import { formatAlertDateTime } from '../../lib/format';
import { useMay } from '../../lib/use-may';
import { Button } from '../../components/ui/button';
import { FormError, SelectField, TextAreaField, TextField } from '../../components/ui/field';
import { Modal } from '../../components/ui/modal';
import { EmptyState, ErrorText, Loading } from '../../components/ui/status';
import { PrisonerFlagBadges } from '../../components/prisoner-identity';

const flagsKey = (prisonerId: number) => ['prisoners', 'flags', prisonerId] as const;

function useRefreshFlags(prisonerId: number) {
  const queryClient = useQueryClient();
  // The badges are part of the prisoner as every list shows him.
  return () => void queryClient.invalidateQueries({ queryKey: ['prisoners'] }).then(() => queryClient.invalidateQueries({ queryKey: flagsKey(prisonerId) }));
}

function SetFlagDialog({ prisonerId, onClose }: { prisonerId: number; onClose(): void }) {
  const refresh = useRefreshFlags(prisonerId);
  const [kind, setKind] = useState<PrisonerFlagKind>('self_harm');
  const [note, setNote] = useState('');
  const [until, setUntil] = useState('');
  const [error, setError] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: () =>
      api.post(`/prisoners/${prisonerId}/flags`, { kind, note: note.trim() || null, ends_at: until ? new Date(`${until}T23:59:59`).toISOString() : null }),
    onSuccess: () => {
      refresh();
      onClose();
    },
    onError: (failure) => setError(errorMessage(failure, 'The flag could not be set.')),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (kind === 'medical' && !note.trim()) return setError('note: name the condition of a medical alert (for example "Epilepsy")');
    setError(null);
    save.mutate();
  };
  return (
    <Modal open onOpenChange={(next) => !next && onClose()} title="Add a flag">
      <form onSubmit={submit} className="flex flex-col gap-3">
        <SelectField label="Flag" value={kind} options={PRISONER_FLAG_KINDS} optionLabels={PRISONER_FLAG_LABELS} onChange={(event) => setKind(event.target.value as PrisonerFlagKind)} />
        <TextAreaField label="Note" rows={2} value={note} maxLength={500} onChange={(event) => setNote(event.target.value)} />
        <TextField label="Until (empty: until cleared)" type="date" value={until} onChange={(event) => setUntil(event.target.value)} />
        <FormError message={error} margin="mt-0" />
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" busy={save.isPending}>
            Add flag
          </Button>
        </div>
      </form>
    </Modal>
  );
}

function ClearFlagDialog({ prisonerId, flag, onClose }: { prisonerId: number; flag: PrisonerFlag; onClose(): void }) {
  const refresh = useRefreshFlags(prisonerId);
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const clear = useMutation({
    mutationFn: () => api.post(`/prisoners/${prisonerId}/flags/${flag.id}/clear`, { reason: reason.trim() }),
    onSuccess: () => {
      refresh();
      onClose();
    },
    onError: (failure) => setError(errorMessage(failure, 'The flag could not be cleared.')),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!reason.trim()) return setError('reason: say why the flag no longer applies');
    setError(null);
    clear.mutate();
  };
  return (
    <Modal open onOpenChange={(next) => !next && onClose()} title={`Clear "${PRISONER_FLAG_LABELS[flag.kind]}"`}>
      <form onSubmit={submit} className="flex flex-col gap-3">
        <TextAreaField label="Reason" rows={2} required value={reason} maxLength={500} onChange={(event) => setReason(event.target.value)} />
        <FormError message={error} margin="mt-0" />
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" variant="danger" busy={clear.isPending}>
            Clear flag
          </Button>
        </div>
      </form>
    </Modal>
  );
}

export function FlagsSection({ prisonerId }: { prisonerId: number }) {
  const mayWrite = useMay('flags.write');
  const [adding, setAdding] = useState(false);
  const [clearing, setClearing] = useState<PrisonerFlag | null>(null);
  const query = useQuery({
    queryKey: flagsKey(prisonerId),
    queryFn: ({ signal }) => api.get<{ flags: PrisonerFlag[] }>(`/prisoners/${prisonerId}/flags`, undefined, signal).then((r) => r.flags),
  });
  const current = query.data?.filter((flag) => !flag.cleared_at) ?? [];
  return (
    <section aria-labelledby="flags-title" className="rounded-lg bg-white p-5 shadow-sm" data-testid="flags">
      <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
        <h2 id="flags-title" className="text-lg font-semibold text-slate-900">
          Flags
        </h2>
        {mayWrite && (
          <Button size="sm" variant="secondary" onClick={() => setAdding(true)}>
            Add flag
          </Button>
        )}
      </div>
      {query.isPending ? (
        <Loading text="Loading flags..." />
      ) : query.isError ? (
        <ErrorText>{errorMessage(query.error, 'Failed to fetch the flags.')}</ErrorText>
      ) : current.length === 0 ? (
        <EmptyState>No flags.</EmptyState>
      ) : (
        <ul className="flex flex-col gap-3">
          {current.map((flag) => (
            <li key={flag.id} className="flex flex-wrap items-start justify-between gap-2 border-b border-slate-100 pb-2 text-sm last:border-0">
              <div className="flex flex-col gap-1">
                <PrisonerFlagBadges flags={[flag.kind]} />
                {flag.note && <p className="text-slate-900">{flag.note}</p>}
                <p className="text-xs text-slate-600">
                  Set by {flag.set_by}, from {formatAlertDateTime(flag.starts_at)}
                  {flag.ends_at ? ` until ${formatAlertDateTime(flag.ends_at)}` : ' until cleared'}
                  {!flag.active && ' (not in force now)'}
                </p>
              </div>
              {mayWrite && (
                <Button size="sm" variant="ghost" onClick={() => setClearing(flag)} aria-label={`Clear ${PRISONER_FLAG_LABELS[flag.kind]}`}>
                  Clear
                </Button>
              )}
            </li>
          ))}
        </ul>
      )}
      {adding && <SetFlagDialog prisonerId={prisonerId} onClose={() => setAdding(false)} />}
      {clearing && <ClearFlagDialog prisonerId={prisonerId} flag={clearing} onClose={() => setClearing(null)} />}
    </section>
  );
}
