// Keep apart: the prisoner's keep-apart pairs (non-associations) on the details screen: who, why,
// whether a landing or the whole block is barred, since when and by whom; add one, and end one with the reason. The cell rules
// enforce them in every move (decision 031) and the live map raises a Warning when their trackers meet (decision 032).
// Two prisoners already together as the pair forbids are kept apart only with a move in the same step (decision 102).
import { useMay } from '../../lib/use-may';
import { useState, type FormEvent } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { KEEP_APART_SCOPES, type KeepApartScope } from '@prison/shared/cell-rules';
import { KEEP_APART_REASONS, type KeepApartPair, type KeepApartReason } from '@prison/shared/keep-apart';
import type { PendingChange } from '@prison/shared/pending-change';
import type { Prisoner } from '@prison/shared/prisoner';
import { api, errorMessage } from '../../lib/api-client';
import { formatAlertDateTime } from '../../lib/format';
import { usePrisonerSearch } from '../../lib/prisoner-search';
import { useDebouncedValue } from '../../lib/use-debounced-value';
import { useToast } from '../../lib/toast';
import { Button } from '../../components/ui/button';
import { FormError, SelectField, TextAreaField, TextField } from '../../components/ui/field';
import { Modal } from '../../components/ui/modal';
import { KeepApartMove, pairBreach, type PairMove } from './keep-apart-move';
import { EmptyState, ErrorText, Loading } from '../../components/ui/status';

const keepApartKey = (prisonerId: number) => ['keep-apart', 'prisoner', prisonerId] as const;
const SCOPE_LABELS: Record<KeepApartScope, string> = {
  cell: 'Not in the same cell',
  landing: 'Not on the same landing',
  block: 'Not in the same block',
};

function useKeepApart(prisonerId: number) {
  return useQuery({
    queryKey: keepApartKey(prisonerId),
    queryFn: ({ signal }) => api.get<{ data: KeepApartPair[] }>('/keep-apart', { prisoner_id: prisonerId }, signal).then((r) => r.data),
  });
}

/** Ends of pairs waiting for a second administrator (decision 041), by pair id; approved under "Pending approvals". */
function usePendingEnds() {
  return useQuery({
    queryKey: ['pending-changes', 'keep_apart'],
    queryFn: ({ signal }) =>
      api
        .get<{ data: PendingChange[] }>('/pending-changes', { target_type: 'keep_apart' }, signal)
        .then((r) => new Map(r.data.map((change) => [change.target_id, change]))),
  });
}

export function KeepApartSection({ prisoner }: { prisoner: Prisoner }) {
  const pairs = useKeepApart(prisoner.prisoner_id);
  const pendingEnds = usePendingEnds();
  const [adding, setAdding] = useState(false);
  const [ending, setEnding] = useState<KeepApartPair | null>(null);
  const mayCreate = useMay('keepapart.create');
  const mayEnd = useMay('keepapart.end');

  return (
    <section aria-labelledby="keep-apart-title" className="rounded-lg bg-white p-5 shadow-sm" data-testid="keep-apart">
      <div className="mb-3 flex items-center justify-between gap-3">
        <h2 id="keep-apart-title" className="text-lg font-semibold text-slate-900">
          Keep apart
        </h2>
        {mayCreate && (
          <Button size="sm" variant="secondary" onClick={() => setAdding(true)}>
            Add keep-apart
          </Button>
        )}
      </div>
      {pairs.isPending ? (
        <Loading />
      ) : pairs.isError ? (
        <ErrorText>{errorMessage(pairs.error, 'Failed to fetch the keep-apart pairs.')}</ErrorText>
      ) : pairs.data.length === 0 ? (
        <EmptyState>No one is to be kept apart from this prisoner.</EmptyState>
      ) : (
        <ul className="flex flex-col divide-y divide-slate-200 text-sm" aria-label="Keep-apart pairs">
          {pairs.data.map((pair) => {
            const other = pair.prisoner_a.prisoner_id === prisoner.prisoner_id ? pair.prisoner_b : pair.prisoner_a;
            const ended = pair.ended_at !== null;
            const pendingEnd = ended ? undefined : pendingEnds.data?.get(String(pair.id));
            return (
              <li key={pair.id} className="flex flex-wrap items-start justify-between gap-3 py-2" data-testid={`keep-apart-${pair.id}`}>
                <div className={ended ? 'text-slate-500' : 'text-slate-900'}>
                  <p className="font-medium">
                    {other.first_name} {other.last_name} · #{other.prisoner_id}
                    {other.cell_id ? ` · cell ${other.cell_id}` : ''}
                  </p>
                  <p>
                    {pair.reason} · {SCOPE_LABELS[pair.scope]}
                    {pair.comment ? ` · ${pair.comment}` : ''}
                  </p>
                  <p className="text-xs text-slate-500">
                    Since {formatAlertDateTime(pair.created_at)} by {pair.created_by}
                    {ended && ` · ended ${formatAlertDateTime(pair.ended_at)} by ${pair.ended_by}: ${pair.end_reason}`}
                  </p>
                  {pendingEnd && (
                    <p className="text-xs font-medium text-amber-800" data-testid="keep-apart-end-pending">
                      End pending approval: asked by {pendingEnd.requested_by}: {pendingEnd.reason}
                    </p>
                  )}
                </div>
                {!ended && !pendingEnd && mayEnd && (
                  <Button
                    size="sm"
                    variant="secondary"
                    aria-label={`End keep-apart with ${other.first_name} ${other.last_name}`}
                    onClick={() => setEnding(pair)}
                  >
                    End
                  </Button>
                )}
              </li>
            );
          })}
        </ul>
      )}
      {adding && <AddKeepApartDialog prisoner={prisoner} onClose={() => setAdding(false)} />}
      {ending && <EndKeepApartDialog pair={ending} prisonerId={prisoner.prisoner_id} onClose={() => setEnding(null)} />}
    </section>
  );
}

function AddKeepApartDialog({ prisoner, onClose }: { prisoner: Prisoner; onClose(): void }) {
  const queryClient = useQueryClient();
  const { notify } = useToast();
  const [search, setSearch] = useState('');
  const q = useDebouncedValue(search.trim());
  const [otherId, setOtherId] = useState('');
  const [reason, setReason] = useState('');
  const [scope, setScope] = useState<KeepApartScope>('cell');
  const [comment, setComment] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const found = usePrisonerSearch(q);
  const candidates = (found.data ?? []).filter((p) => p.prisoner_id !== prisoner.prisoner_id);
  const other = candidates.find((p) => String(p.prisoner_id) === otherId) ?? null;
  const breach = other ? pairBreach(prisoner, other, scope) : null;
  const [move, setMove] = useState<PairMove>({ prisonerId: null, cellId: '' });

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!otherId) return setError('Choose the prisoner to keep apart.');
    if (!reason) return setError('Choose a reason.');
    if (breach && (!move.prisonerId || !move.cellId)) return setError('Choose who moves and the cell he moves to.');
    setBusy(true);
    setError(null);
    try {
      await api.post('/keep-apart', {
        prisoner_a: prisoner.prisoner_id,
        prisoner_b: Number(otherId),
        reason: reason as KeepApartReason,
        scope,
        comment: comment.trim() || null,
        ...(breach && { move_prisoner_id: move.prisonerId, move_cell_id: move.cellId }),
      });
      notify('Keep-apart pair created.');
      await queryClient.invalidateQueries({ queryKey: ['keep-apart'] });
      if (breach) await queryClient.invalidateQueries({ queryKey: ['prisoners'] });
      if (breach) void queryClient.invalidateQueries({ queryKey: ['cells'] });
      onClose();
    } catch (failure) {
      setError(errorMessage(failure, 'Failed to create the keep-apart pair. Please try again.'));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Modal
      open
      onOpenChange={(open) => !open && onClose()}
      title={`Keep apart from ${prisoner.first_name} ${prisoner.last_name}`}
    >
      <form onSubmit={submit} noValidate aria-label="Add keep-apart" className="flex flex-col gap-3">
        <TextField label="Search prisoner" type="search" value={search} onChange={(e) => setSearch(e.target.value)} autoFocus />
        <label className="flex flex-col gap-1 text-sm font-medium text-slate-700">
          Prisoner to keep apart
          <select
            value={otherId}
            onChange={(e) => setOtherId(e.target.value)}
            className="w-full min-w-0 rounded-md border border-slate-300 bg-white px-3 py-2 text-sm"
          >
            <option value="">{found.isPending ? 'Searching...' : 'Select a prisoner'}</option>
            {candidates.map((p) => (
              <option key={p.prisoner_id} value={p.prisoner_id}>
                {p.first_name} {p.last_name} · #{p.prisoner_id}
                {p.cell_id ? ` · cell ${p.cell_id}` : ''}
              </option>
            ))}
          </select>
        </label>
        <SelectField
          label="Reason"
          options={KEEP_APART_REASONS}
          placeholder="Select a reason"
          value={reason}
          onChange={(e) => setReason(e.target.value)}
        />
        <label className="flex flex-col gap-1 text-sm font-medium text-slate-700">
          Scope
          <select
            value={scope}
            onChange={(e) => setScope(e.target.value as KeepApartScope)}
            className="w-full min-w-0 rounded-md border border-slate-300 bg-white px-3 py-2 text-sm"
          >
            {KEEP_APART_SCOPES.map((s) => (
              <option key={s} value={s}>
                {SCOPE_LABELS[s]}
              </option>
            ))}
          </select>
        </label>
        {breach && other && (
          <KeepApartMove breach={breach} pair={[prisoner, other]} scope={scope} move={move} onChange={setMove} />
        )}
        <TextAreaField label="Comment" rows={2} maxLength={1000} value={comment} onChange={(e) => setComment(e.target.value)} />
        <FormError message={error} margin="mt-1" />
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" busy={busy}>
            Keep apart
          </Button>
        </div>
      </form>
    </Modal>
  );
}

function EndKeepApartDialog({ pair, prisonerId, onClose }: { pair: KeepApartPair; prisonerId: number; onClose(): void }) {
  const queryClient = useQueryClient();
  const { notify } = useToast();
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const other = pair.prisoner_a.prisoner_id === prisonerId ? pair.prisoner_b : pair.prisoner_a;

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!reason.trim()) return setError('Say why the pair ends.');
    setBusy(true);
    setError(null);
    try {
      // Ending a pair waits for another administrator's approval (decision 041); it stays active until then.
      const asked = await api.post<{ message: string }>(`/keep-apart/${pair.id}/end`, { reason: reason.trim() });
      notify(asked.message);
      await queryClient.invalidateQueries({ queryKey: ['keep-apart'] });
      await queryClient.invalidateQueries({ queryKey: ['pending-changes'] });
      onClose();
    } catch (failure) {
      setError(errorMessage(failure, 'Failed to end the keep-apart pair. Please try again.'));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Modal open onOpenChange={(open) => !open && onClose()} title={`End keep-apart with ${other.first_name} ${other.last_name}`}>
      <form onSubmit={submit} noValidate aria-label="End keep-apart" className="flex flex-col gap-3">
        <TextField label="Why does it end?" value={reason} maxLength={500} onChange={(e) => setReason(e.target.value)} autoFocus />
        <FormError message={error} margin="mt-1" />
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" busy={busy}>
            End keep-apart
          </Button>
        </div>
      </form>
    </Modal>
  );
}
