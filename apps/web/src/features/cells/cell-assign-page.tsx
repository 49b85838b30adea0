// /cell-assign, "Assign cells": the occupancy picture of the prison (each block, each cell with occupants against
// capacity, security level and the prisoners in it); assign or move a prisoner with the server's capacity check; add,
// edit and remove cells (the server refuses a taken ID, a capacity below the occupants, removing an occupied cell).
// Moves show beforehand which cells the cell rules refuse and why; an override asks for the reason (decision 031).
// A move that lifts an alarm asks for a reason and waits for a second person (decision 091).
import { useMay } from '../../lib/use-may';
import { useMemo, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Plus } from 'lucide-react';
import {
  cellIsFull,
  type Cell,
  type CellInput,
  type CellUpdateInput,
  type CellWithOccupants,
} from '@prison/shared/cell';
import { ApiError, errorMessage } from '../../lib/api-client';
import { useToast } from '../../lib/toast';
import { Button } from '../../components/ui/button';
import { CellPickerDialog } from '../../components/ui/cell-picker-dialog';
import { Page } from '../../components/ui/page';
import { EmptyState, ErrorText, Loading } from '../../components/ui/status';
import { assignToCell, createCell, deleteCell, updateCell, useCellOverview } from './api';
import { AssignPrisonerDialog } from './assign-prisoner-dialog';
import { CellCard } from './cell-card';
import { CellFormDialog, type CellFormTarget } from './cell-form-dialog';
import { OccupancyBar } from './occupancy-bar';
import { MoveReasonDialog } from './move-reason-dialog';
import { RemoveCellDialog } from './remove-cell-dialog';

interface Moving {
  prisonerId: number;
  name: string;
  fromCell: string;
}

export function CellAssignPage() {
  const mayAssign = useMay('records.write');
  const mayManageCells = useMay('cells.manage');
  const overview = useCellOverview();
  const queryClient = useQueryClient();
  const { notify } = useToast();
  const [block, setBlock] = useState<string>('');
  const [withRoomOnly, setWithRoomOnly] = useState(false);
  const [assignTarget, setAssignTarget] = useState<CellWithOccupants | null>(null);
  const [moving, setMoving] = useState<Moving | null>(null);
  const [moveError, setMoveError] = useState<string | null>(null);
  const [formTarget, setFormTarget] = useState<CellFormTarget | null>(null);
  const [removing, setRemoving] = useState<CellWithOccupants | null>(null);
  const [lifting, setLifting] = useState<{ prisonerId: number; cellId: string; overrideReason?: string | undefined } | null>(null);

  const blockNames = useMemo(() => (overview.data ?? []).map((b) => b.block), [overview.data]);
  // A block whose last cell was removed is no filter any more.
  const activeBlock = blockNames.includes(block) ? block : '';
  const blocks = useMemo(
    () =>
      (overview.data ?? [])
        .filter((b) => !activeBlock || b.block === activeBlock)
        .map((b) => ({ ...b, cells: withRoomOnly ? b.cells.filter((c) => !cellIsFull(c)) : b.cells })),
    [overview.data, activeBlock, withRoomOnly],
  );

  const refetch = (alsoPrisoners: boolean) =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: ['cells'] }),
      alsoPrisoners && queryClient.invalidateQueries({ queryKey: ['prisoners'] }),
    ]);

  async function assign(prisonerId: number, cellId: string, overrideReason?: string, reason?: string) {
    let result: Awaited<ReturnType<typeof assignToCell>>;
    try {
      result = await assignToCell({ prisoner_id: prisonerId, cell_id: cellId, override_reason: overrideReason, ...(reason && { reason }) });
    } catch (error) {
      // The move lifts an alarm: ask why, then it waits for a second person.
      if (error instanceof ApiError && error.status === 400 && error.message.startsWith('reason:') && !reason) {
        setAssignTarget(null);
        setLifting({ prisonerId, cellId, overrideReason });
        return;
      }
      throw error;
    }
    const name = `${result.prisoner.first_name} ${result.prisoner.last_name}`;
    if ('pending' in result) notify(`Moving ${name} to cell ${cellId} lifts an alarm: it waits for a second person's approval.`);
    else notify(`${name} is now in cell ${cellId}.`);
    setAssignTarget(null);
    setLifting(null);
    await refetch(true);
  }

  async function move(cellId: string, overrideReason?: string) {
    if (!moving) return;
    setMoveError(null);
    try {
      await assign(moving.prisonerId, cellId, overrideReason);
    } catch (error) {
      setMoveError(errorMessage(error, 'Failed to move the prisoner. Please try again.'));
    } finally {
      setMoving(null);
    }
  }

  function openForm(target: CellFormTarget) {
    setFormTarget(target);
  }
  function closeForm() {
    setFormTarget(null);
  }
  function openRemove(cell: CellWithOccupants) {
    setRemoving(cell);
  }
  function closeRemove() {
    setRemoving(null);
  }

  async function saveCell(input: CellInput) {
    if (formTarget?.mode === 'edit') {
      const before = formTarget.cell;
      const changes = changedFields(before, input);
      if (Object.keys(changes).length === 0) notify(`Nothing to change in cell ${before.cell_id}.`, 'info');
      else {
        await updateCell(before.cell_id, changes);
        notify(`Cell ${before.cell_id} updated.`);
      }
      closeForm();
      await refetch(true);
    } else {
      await createCell(input);
      notify(`Cell ${input.cell_id} added to block ${input.block}.`);
      closeForm();
      await refetch(false);
    }
    // Keep the saved cell in view when one block is shown.
    if (activeBlock && activeBlock !== input.block) setBlock(input.block);
  }

  async function removeCell(cell: Cell) {
    await deleteCell(cell.cell_id);
    notify(`Cell ${cell.cell_id} removed.`);
    closeRemove();
    await refetch(true);
  }

  const totals = (overview.data ?? []).reduce(
    (sum, b) => ({ occupants: sum.occupants + b.occupants, capacity: sum.capacity + b.capacity }),
    {
      occupants: 0,
      capacity: 0,
    },
  );

  return (
    <Page
      title="Assign cells"
      actions={
        mayManageCells && (
          <Button onClick={() => openForm({ mode: 'create', block: activeBlock || undefined })}>
            <Plus className="h-4 w-4" aria-hidden="true" />
            Add cell
          </Button>
        )
      }
    >
      {overview.isPending ? (
        <Loading text="Loading cells..." />
      ) : overview.isError ? (
        <ErrorText>{errorMessage(overview.error, 'Failed to fetch cells.')}</ErrorText>
      ) : overview.data.length === 0 ? (
        <EmptyState>No blocks available. Add a cell to start.</EmptyState>
      ) : (
        <div className="flex flex-col gap-6">
          <div className="flex flex-wrap items-end gap-4 rounded-lg bg-white p-4 shadow-sm">
            <div className="min-w-60 flex-1">
              <p className="text-sm font-medium text-slate-700">Whole prison</p>
              <OccupancyBar occupants={totals.occupants} capacity={totals.capacity} label="Whole prison occupancy" />
            </div>
            <label className="flex flex-col gap-1 text-sm font-medium text-slate-700">
              Block
              <select
                value={activeBlock}
                onChange={(e) => setBlock(e.target.value)}
                className="rounded-md border border-slate-300 bg-white px-3 py-2 text-sm"
              >
                <option value="">All blocks</option>
                {overview.data.map((b) => (
                  <option key={b.block} value={b.block}>
                    Block {b.block}
                  </option>
                ))}
              </select>
            </label>
            <label className="flex items-center gap-2 text-sm text-slate-700">
              <input type="checkbox" checked={withRoomOnly} onChange={(e) => setWithRoomOnly(e.target.checked)} />
              Only cells with room
            </label>
          </div>
          {moveError && (
            <p role="alert" className="rounded-md bg-red-50 px-4 py-2 text-sm text-red-700">
              {moveError}
            </p>
          )}
          {blocks.map((b) => (
            <section key={b.block} aria-labelledby={`block-${b.block}`} data-testid={`block-${b.block}`}>
              <div className="mb-3 flex flex-wrap items-center gap-4">
                <h2 id={`block-${b.block}`} className="text-xl font-semibold text-slate-900">
                  Block {b.block}
                </h2>
                <div className="w-64">
                  <OccupancyBar occupants={b.occupants} capacity={b.capacity} label={`Block ${b.block} occupancy`} />
                </div>
                {mayManageCells && (
                  <Button
                    size="sm"
                    variant="secondary"
                    aria-label={`Add cell to block ${b.block}`}
                    onClick={() => openForm({ mode: 'create', block: b.block })}
                  >
                    <Plus className="h-4 w-4" aria-hidden="true" />
                    Add cell
                  </Button>
                )}
              </div>
              {b.cells.length === 0 ? (
                <EmptyState>No cells available in this block.</EmptyState>
              ) : (
                <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-4">
                  {b.cells.map((cell) => (
                    <CellCard
                      key={cell.cell_id}
                      cell={cell}
                      onAssign={mayAssign ? () => setAssignTarget(cell) : undefined}
                      onMove={
                        mayAssign
                          ? (prisonerId, name) => {
                              setMoveError(null);
                              setMoving({ prisonerId, name, fromCell: cell.cell_id });
                            }
                          : undefined
                      }
                      onEdit={mayManageCells ? () => openForm({ mode: 'edit', cell }) : undefined}
                      onRemove={mayManageCells ? () => openRemove(cell) : undefined}
                    />
                  ))}
                </ul>
              )}
            </section>
          ))}
        </div>
      )}
      <AssignPrisonerDialog cell={assignTarget} onClose={() => setAssignTarget(null)} onAssign={assign} />
      <CellPickerDialog
        open={moving !== null}
        onOpenChange={(open) => !open && setMoving(null)}
        currentCellId={moving?.fromCell}
        subject={{ prisonerId: moving?.prisonerId }}
        onSelect={(cellId, reason) => void move(cellId, reason)}
      />
      <CellFormDialog target={formTarget} blocks={blockNames} onClose={closeForm} onSubmit={saveCell} />
      <RemoveCellDialog cell={removing} onClose={closeRemove} onConfirm={removeCell} />
      <MoveReasonDialog
        target={lifting}
        onCancel={() => setLifting(null)}
        onConfirm={(reason) => (lifting ? assign(lifting.prisonerId, lifting.cellId, lifting.overrideReason, reason) : Promise.resolve())}
      />
    </Page>
  );
}

/** Only what the form changed, so a concurrent edit of another field is not overwritten. */
function changedFields(before: Cell, after: CellInput): CellUpdateInput {
  const changes: CellUpdateInput = {};
  if (after.block !== before.block) changes.block = after.block;
  if (after.capacity !== before.capacity) changes.capacity = after.capacity;
  if (after.security_level !== before.security_level) changes.security_level = after.security_level;
  return changes;
}
