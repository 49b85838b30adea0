// "Select Block and Cell" (docs/CLIENT-CONTRACT.md): a block picker, "Less Crowded" / "Higher Security" sorting and a cell
// list with an Assign button per cell, disabled when the cell is full. Shared by the create and update dialogs.
// Each cell a rule would refuse for this prisoner is marked with why (decision 031); one that only an overridable
// rule refuses offers "Override", which asks for the reason first.
import { useMay } from '../../lib/use-may';
import { useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { clsx } from 'clsx';
import { cellIsFull, cellSorts, type Block, type Cell, type CellSort } from '@prison/shared/cell';
import type { CellRefusal } from '@prison/shared/cell-rules';
import { api, errorMessage } from '../../lib/api-client';
import { cellVerdict, useCellChecks, type CellCheckSubject } from '../../lib/cell-checks';
import { Button } from './button';
import { CellRefusalList, OverrideReasonDialog } from './cell-refusals';
import { Modal } from './modal';
import { EmptyState, ErrorText, Loading } from './status';

export interface CellPickerDialogProps {
  open: boolean;
  onOpenChange(open: boolean): void;
  /** The chosen cell, with the reason when the cell rules were overridden. */
  onSelect(cellId: string, overrideReason?: string): void;
  /** The cell the prisoner is in now, marked in the list. */
  currentCellId?: string | null;
  /** Whom the cells are checked for (the prisoner, and the form's gender and status). */
  subject?: CellCheckSubject;
}

export function CellPickerDialog({ open, onOpenChange, onSelect, currentCellId, subject = {} }: CellPickerDialogProps) {
  // Only a role that may override a cell rule is offered the override (decision 053).
  const mayOverride = useMay('cells.override');
  const [chosenBlock, setChosenBlock] = useState<string | null>(null);
  const [sort, setSort] = useState<CellSort | null>(null);
  const [overriding, setOverriding] = useState<{ cellId: string; refusals: CellRefusal[] } | null>(null);
  const checks = useCellChecks(subject, open);

  const blocks = useQuery({
    queryKey: ['cells', 'block-summaries'],
    queryFn: ({ signal }) => api.get<{ data: Block[] }>('/cell_controls/block-summaries', undefined, signal).then((r) => r.data),
    enabled: open,
  });
  const block = chosenBlock ?? blocks.data?.[0]?.block ?? null;
  const cells = useQuery({
    queryKey: ['cells', 'block', block],
    queryFn: ({ signal }) => api.get<{ data: Cell[] }>('/cell_controls/block', { block }, signal).then((r) => r.data),
    enabled: open && block !== null,
  });
  const sorted = useMemo(
    () => (sort && cells.data ? [...cells.data].sort(cellSorts[sort]) : cells.data),
    [cells.data, sort],
  );

  return (
    <Modal open={open} onOpenChange={onOpenChange} title="Select Block and Cell" wide>
      {blocks.isPending ? (
        <Loading />
      ) : blocks.isError ? (
        <ErrorText>Error fetching blocks</ErrorText>
      ) : blocks.data.length === 0 ? (
        <EmptyState>No blocks available</EmptyState>
      ) : (
        <div className="flex flex-col gap-4">
          <div className="flex flex-wrap items-end gap-3">
            <label className="flex flex-col gap-1 text-sm font-medium text-slate-700">
              Block
              <select
                value={block ?? ''}
                onChange={(event) => setChosenBlock(event.target.value)}
                className="rounded-md border border-slate-300 bg-white px-3 py-2 text-sm"
              >
                {blocks.data.map((b) => (
                  <option key={b.block} value={b.block}>
                    Block {b.block} ({b.occupants}/{b.capacity})
                  </option>
                ))}
              </select>
            </label>
            <div role="group" aria-label="Sort cells" className="flex gap-2">
              {(Object.keys(cellSorts) as CellSort[]).map((option) => (
                <Button
                  key={option}
                  size="sm"
                  variant={sort === option ? 'primary' : 'secondary'}
                  aria-pressed={sort === option}
                  onClick={() => setSort(sort === option ? null : option)}
                >
                  {option}
                </Button>
              ))}
            </div>
          </div>
          {cells.isPending ? (
            <Loading />
          ) : cells.isError ? (
            <ErrorText>{errorMessage(cells.error, 'Failed to fetch cells.')}</ErrorText>
          ) : !sorted || sorted.length === 0 ? (
            <EmptyState>No cells available in this block.</EmptyState>
          ) : (
            <ul
              className="flex max-h-96 flex-col divide-y divide-slate-200 overflow-y-auto rounded-md border border-slate-200"
              data-testid="cell-list"
            >
              {sorted.map((cell) => {
                const full = cellIsFull(cell);
                const current = cell.cell_id === currentCellId;
                const verdict = current ? cellVerdict([]) : cellVerdict(checks.data?.get(cell.cell_id));
                return (
                  <li
                    key={cell.cell_id}
                    data-testid={`cell-${cell.cell_id}`}
                    className="flex items-center justify-between gap-3 px-3 py-2"
                  >
                    <div>
                      <p className="font-medium text-slate-900">
                        Cell {cell.cell_id}
                        {cell.cell_id === currentCellId && (
                          <span className="ml-2 text-xs text-slate-500">(current)</span>
                        )}
                      </p>
                      <p className="text-xs text-slate-600">Security: {cell.security_level}</p>
                      {verdict.kind !== 'allowed' && (
                        <CellRefusalList refusals={verdict.refusals} testId={`refusals-${cell.cell_id}`} />
                      )}
                    </div>
                    <div className="flex items-center gap-3">
                      <span
                        className={clsx('text-sm tabular-nums', full ? 'font-semibold text-red-700' : 'text-slate-700')}
                      >
                        {cell.current_occupants}/{cell.capacity}
                        {full && ' full'}
                      </span>
                      {verdict.kind === 'override' && mayOverride ? (
                        <Button
                          size="sm"
                          variant="secondary"
                          aria-label={`Override the rules and assign cell ${cell.cell_id}`}
                          onClick={() => setOverriding({ cellId: cell.cell_id, refusals: verdict.refusals })}
                        >
                          Override
                        </Button>
                      ) : (
                        <Button
                          size="sm"
                          disabled={(full || verdict.kind !== 'allowed') && !current}
                          aria-label={`Assign cell ${cell.cell_id}`}
                          onClick={() => {
                            onSelect(cell.cell_id);
                            onOpenChange(false);
                          }}
                        >
                          Assign
                        </Button>
                      )}
                    </div>
                  </li>
                );
              })}
            </ul>
          )}
        </div>
      )}
      <OverrideReasonDialog
        refusals={overriding?.refusals ?? null}
        target={`cell ${overriding?.cellId ?? ''}`}
        onCancel={() => setOverriding(null)}
        onConfirm={(reason) => {
          if (overriding) onSelect(overriding.cellId, reason);
          setOverriding(null);
          onOpenChange(false);
        }}
      />
    </Modal>
  );
}
