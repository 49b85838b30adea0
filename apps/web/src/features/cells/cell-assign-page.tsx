// /cell-assign, "Assign cells": the occupancy picture of the prison (each block, each cell with occupants against
// capacity, security level and the prisoners in it); assign or move a prisoner with the server's capacity check.
import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { clsx } from 'clsx';
import { cellIsFull, type CellWithOccupants } from '@prison/shared';
import { errorMessage } from '../../lib/api-client';
import { useToast } from '../../lib/toast';
import { Button } from '../../components/ui/button';
import { CellPickerDialog } from '../../components/ui/cell-picker-dialog';
import { Page } from '../../components/ui/page';
import { EmptyState, ErrorText, Loading } from '../../components/ui/status';
import { assignToCell, useCellOverview } from './api';
import { AssignPrisonerDialog } from './assign-prisoner-dialog';
import { OccupancyBar } from './occupancy-bar';

const securityTone: Record<string, string> = {
  High: 'bg-red-50 text-red-800 ring-red-600/20',
  Medium: 'bg-amber-50 text-amber-800 ring-amber-600/20',
  Low: 'bg-slate-100 text-slate-700 ring-slate-500/20',
};

interface Moving {
  prisonerId: number;
  name: string;
  fromCell: string;
}

export function CellAssignPage() {
  const overview = useCellOverview();
  const queryClient = useQueryClient();
  const { notify } = useToast();
  const [block, setBlock] = useState<string>('');
  const [withRoomOnly, setWithRoomOnly] = useState(false);
  const [assignTarget, setAssignTarget] = useState<CellWithOccupants | null>(null);
  const [moving, setMoving] = useState<Moving | null>(null);
  const [moveError, setMoveError] = useState<string | null>(null);

  const blocks = useMemo(
    () =>
      (overview.data ?? [])
        .filter((b) => !block || b.block === block)
        .map((b) => ({ ...b, cells: withRoomOnly ? b.cells.filter((c) => !cellIsFull(c)) : b.cells })),
    [overview.data, block, withRoomOnly],
  );

  async function assign(prisonerId: number, cellId: string) {
    const result = await assignToCell({ prisoner_id: prisonerId, cell_id: cellId });
    notify(`${result.prisoner.first_name} ${result.prisoner.last_name} is now in cell ${cellId}.`);
    setAssignTarget(null);
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: ['cells'] }),
      queryClient.invalidateQueries({ queryKey: ['prisoners'] }),
    ]);
  }

  async function move(cellId: string) {
    if (!moving) return;
    setMoveError(null);
    try {
      await assign(moving.prisonerId, cellId);
    } catch (error) {
      setMoveError(errorMessage(error, 'Failed to move the prisoner. Please try again.'));
    } finally {
      setMoving(null);
    }
  }

  const totals = (overview.data ?? []).reduce(
    (sum, b) => ({ occupants: sum.occupants + b.occupants, capacity: sum.capacity + b.capacity }),
    {
      occupants: 0,
      capacity: 0,
    },
  );

  return (
    <Page title="Assign cells">
      {overview.isPending ? (
        <Loading text="Loading cells..." />
      ) : overview.isError ? (
        <ErrorText>{errorMessage(overview.error, 'Failed to fetch cells.')}</ErrorText>
      ) : overview.data.length === 0 ? (
        <EmptyState>No blocks available</EmptyState>
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
                value={block}
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
              </div>
              {b.cells.length === 0 ? (
                <EmptyState>No cells available in this block.</EmptyState>
              ) : (
                <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-4">
                  {b.cells.map((cell) => (
                    <CellCard
                      key={cell.cell_id}
                      cell={cell}
                      onAssign={() => setAssignTarget(cell)}
                      onMove={(prisonerId, name) => {
                        setMoveError(null);
                        setMoving({ prisonerId, name, fromCell: cell.cell_id });
                      }}
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
        onSelect={(cellId) => void move(cellId)}
      />
    </Page>
  );
}

function CellCard({
  cell,
  onAssign,
  onMove,
}: {
  cell: CellWithOccupants;
  onAssign(): void;
  onMove(prisonerId: number, name: string): void;
}) {
  const full = cellIsFull(cell);
  return (
    <li
      className="flex flex-col gap-2 rounded-lg border border-slate-200 bg-white p-3 shadow-sm"
      data-testid={`cell-card-${cell.cell_id}`}
    >
      <div className="flex items-center justify-between gap-2">
        <h3 className="font-semibold text-slate-900">Cell {cell.cell_id}</h3>
        <span
          className={clsx(
            'rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset',
            securityTone[cell.security_level],
          )}
        >
          {cell.security_level} security
        </span>
      </div>
      <OccupancyBar
        occupants={cell.current_occupants}
        capacity={cell.capacity}
        label={`Cell ${cell.cell_id} occupancy`}
      />
      {cell.occupants.length === 0 ? (
        <p className="text-sm text-slate-500">Empty</p>
      ) : (
        <ul className="flex flex-col gap-1 text-sm" aria-label={`Prisoners in cell ${cell.cell_id}`}>
          {cell.occupants.map((o) => {
            const name = `${o.first_name} ${o.last_name}`;
            return (
              <li key={o.prisoner_id} className="flex items-center justify-between gap-2">
                <Link to={`/prisoner-details/${o.prisoner_id}`} className="truncate text-brand-700 hover:underline">
                  {name}
                </Link>
                <Button
                  variant="ghost"
                  size="sm"
                  aria-label={`Move ${name}`}
                  onClick={() => onMove(o.prisoner_id, name)}
                >
                  Move
                </Button>
              </li>
            );
          })}
        </ul>
      )}
      <Button
        size="sm"
        variant="secondary"
        className="mt-auto"
        disabled={full}
        onClick={onAssign}
        aria-label={`Assign a prisoner to cell ${cell.cell_id}`}
      >
        {full ? 'Full' : 'Assign prisoner'}
      </Button>
    </li>
  );
}
