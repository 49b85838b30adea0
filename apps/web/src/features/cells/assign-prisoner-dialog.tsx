// Pick a prisoner by search and assign (or move) them into a chosen cell. Each prisoner the cell rules would refuse
// here is marked with why before anything is written (decision 031); an override asks for the reason. A refusal from
// the server itself (409, e.g. a move made meanwhile) is shown, and offers the override when one is possible.
import { useMay } from '../../lib/use-may';
import { useState } from 'react';
import type { CellWithOccupants } from '@prison/shared/cell';
import type { CellRefusal } from '@prison/shared/cell-rules';
import type { Prisoner } from '@prison/shared/prisoner';
import { errorMessage } from '../../lib/api-client';
import { cellVerdict, overridableRefusal, useCellChecks } from '../../lib/cell-checks';
import { CellRefusalList, OverrideReasonDialog } from '../../components/ui/cell-refusals';
import { useDebouncedValue } from '../../lib/use-debounced-value';
import { Button } from '../../components/ui/button';
import { Modal } from '../../components/ui/modal';
import { EmptyState, ErrorText, Loading } from '../../components/ui/status';
import { StatusBadge } from '../../components/ui/status-badge';
import { PrisonNumber } from '../../components/prisoner-identity';
import { usePrisonerSearch } from '../../lib/prisoner-search';
import { FormError } from '../../components/ui/field';

export interface AssignPrisonerDialogProps {
  cell: CellWithOccupants | null;
  onClose(): void;
  onAssign(prisonerId: number, cellId: string, overrideReason?: string): Promise<void>;
}

export function AssignPrisonerDialog({ cell, onClose, onAssign }: AssignPrisonerDialogProps) {
  const [search, setSearch] = useState('');
  const q = useDebouncedValue(search.trim());
  const [busyId, setBusyId] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [overriding, setOverriding] = useState<{ prisonerId: number; refusals: CellRefusal[] } | null>(null);
  const results = usePrisonerSearch(q, { enabled: cell !== null });

  async function assign(prisonerId: number) {
    if (!cell) return;
    setBusyId(prisonerId);
    setError(null);
    try {
      await onAssign(prisonerId, cell.cell_id);
      setSearch('');
    } catch (failure) {
      setError(errorMessage(failure, 'Failed to assign the prisoner. Please try again.'));
      const refusal = overridableRefusal(failure);
      if (refusal) setOverriding({ prisonerId, refusals: [refusal] });
    } finally {
      setBusyId(null);
    }
  }

  async function assignWithOverride(reason: string) {
    if (!cell || !overriding) return;
    await onAssign(overriding.prisonerId, cell.cell_id, reason);
    setOverriding(null);
    setError(null);
    setSearch('');
  }

  return (
    <Modal
      open={cell !== null}
      onOpenChange={(open) => {
        if (!open) {
          setSearch('');
          setError(null);
          onClose();
        }
      }}
      title={cell ? `Assign a prisoner to cell ${cell.cell_id}` : 'Assign a prisoner'}
      description={
        cell
          ? `Block ${cell.block} · ${cell.security_level} security · ${cell.current_occupants}/${cell.capacity} occupied`
          : undefined
      }
    >
      <input
        type="search"
        autoFocus
        aria-label="Search prisoner"
        placeholder="Search prisoner"
        value={search}
        onChange={(event) => setSearch(event.target.value)}
        className="w-full rounded-md border border-slate-300 px-3 py-2 text-sm focus:border-brand-700 focus:outline-none"
      />
      <FormError message={error} margin="mt-3" />
      <div className="mt-3">
        {results.isPending ? (
          <Loading text="Searching..." />
        ) : results.isError ? (
          <ErrorText>{errorMessage(results.error, 'Failed to fetch prisoners.')}</ErrorText>
        ) : results.data.length === 0 ? (
          <EmptyState>No prisoners found.</EmptyState>
        ) : (
          <ul className="divide-y divide-slate-200 rounded-md border border-slate-200" aria-label="Prisoners found">
            {results.data.map((p) => (
              <PrisonerRow
                key={p.prisoner_id}
                prisoner={p}
                cell={cell}
                busy={busyId === p.prisoner_id}
                onAssign={() => void assign(p.prisoner_id)}
                onOverride={(refusals) => setOverriding({ prisonerId: p.prisoner_id, refusals })}
              />
            ))}
          </ul>
        )}
      </div>
      <OverrideReasonDialog
        refusals={overriding?.refusals ?? null}
        target={`cell ${cell?.cell_id ?? ''}`}
        onCancel={() => setOverriding(null)}
        onConfirm={assignWithOverride}
      />
    </Modal>
  );
}

interface PrisonerRowProps {
  prisoner: Prisoner;
  cell: CellWithOccupants | null;
  busy: boolean;
  onAssign(): void;
  onOverride(refusals: CellRefusal[]): void;
}

/** One prisoner found, with what the cell rules say about placing them in this cell. */
function PrisonerRow({ prisoner: p, cell, busy, onAssign, onOverride }: PrisonerRowProps) {
  const here = p.cell_id === cell?.cell_id;
  const checks = useCellChecks({ prisonerId: p.prisoner_id }, cell !== null && !here);
  const verdict = here || !cell ? cellVerdict([]) : cellVerdict(checks.data?.get(cell.cell_id));
  const action = here ? 'Here' : p.cell_id ? 'Move here' : 'Assign';
  // Only a role that may override a cell rule is offered the override (decision 053).
  const mayOverride = useMay('cells.override');
  return (
    <li className="flex items-center justify-between gap-3 px-3 py-2" data-testid={`candidate-${p.prisoner_id}`}>
      <div className="min-w-0">
        <p className="truncate font-medium text-slate-900">
          {p.first_name} {p.last_name} <PrisonNumber value={p.prison_number} />
        </p>
        <p className="flex items-center gap-2 text-xs text-slate-600">
          <StatusBadge status={p.status} /> {p.cell_id ? `Cell ${p.cell_id}` : 'No cell'}
        </p>
        {verdict.kind !== 'allowed' && <CellRefusalList refusals={verdict.refusals} />}
      </div>
      {verdict.kind === 'override' && mayOverride ? (
        <Button
          size="sm"
          variant="secondary"
          aria-label={`Override the rules: ${p.first_name} ${p.last_name}`}
          onClick={() => onOverride(verdict.refusals)}
        >
          Override
        </Button>
      ) : (
        <Button
          size="sm"
          disabled={here || verdict.kind !== 'allowed'}
          busy={busy}
          aria-label={`${action}: ${p.first_name} ${p.last_name}`}
          onClick={onAssign}
        >
          {action}
        </Button>
      )}
    </li>
  );
}
