// One cell of the occupancy picture: security level, occupants against capacity, the prisoners in it (each with his prison number, each movable),
// the keep-apart pairs breached in it, and its actions: assign a prisoner, edit the cell, remove it (only once nobody
// occupies it).
import { Link } from 'react-router';
import { clsx } from 'clsx';
import { Pencil, Trash2, TriangleAlert } from 'lucide-react';
import { cellIsFull, type CellWithOccupants } from '@prison/shared/cell';
import { Button } from '../../components/ui/button';
import { PrisonNumber } from '../../components/prisoner-identity';
import { OccupancyBar } from './occupancy-bar';

const securityTone: Record<string, string> = {
  High: 'bg-red-50 text-red-800 ring-red-600/20',
  Medium: 'bg-amber-50 text-amber-800 ring-amber-600/20',
  Low: 'bg-slate-100 text-slate-700 ring-slate-500/20',
};

export interface CellCardProps {
  cell: CellWithOccupants;
  /** Each absent when the role may not take it (decision 053): its button is not shown. */
  onAssign?: () => void;
  onMove?: (prisonerId: number, name: string) => void;
  onEdit?: () => void;
  onRemove?: () => void;
}

export function CellCard({ cell, onAssign, onMove, onEdit, onRemove }: CellCardProps) {
  const full = cellIsFull(cell);
  const held = cell.current_occupants;
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
      <OccupancyBar occupants={held} capacity={cell.capacity} label={`Cell ${cell.cell_id} occupancy`} />
      {/* A keep-apart pair breached here (decision 102): said on the card, so the officer sees it where he works. */}
      {(cell.keep_apart_conflicts ?? []).length > 0 && (
        <ul className="flex flex-col gap-1 rounded-md bg-red-50 p-2 text-sm text-red-800" aria-label={`Keep-apart conflicts in cell ${cell.cell_id}`}>
          {(cell.keep_apart_conflicts ?? []).map((conflict) => (
            <li key={conflict.pair_id} className="flex gap-1.5" data-testid="keep-apart-conflict">
              <TriangleAlert className="mt-0.5 h-4 w-4 shrink-0" aria-hidden="true" />
              <span>{conflict.message}</span>
            </li>
          ))}
        </ul>
      )}
      {cell.occupants.length === 0 ? (
        <p className="text-sm text-slate-500">Empty</p>
      ) : (
        <ul className="flex flex-col gap-1 text-sm" aria-label={`Prisoners in cell ${cell.cell_id}`}>
          {cell.occupants.map((o) => {
            const name = `${o.first_name} ${o.last_name}`;
            return (
              <li key={o.prisoner_id} className="flex items-center justify-between gap-2">
                <span className="flex min-w-0 items-baseline gap-2">
                  <Link to={`/prisoner-details/${o.prisoner_id}`} className="truncate text-brand-700 hover:underline">
                    {name}
                  </Link>
                  <PrisonNumber value={o.prison_number} />
                </span>
                {onMove && (
                  <Button
                    variant="ghost"
                    size="sm"
                    aria-label={`Move ${name}`}
                    onClick={() => onMove(o.prisoner_id, name)}
                  >
                    Move
                  </Button>
                )}
              </li>
            );
          })}
        </ul>
      )}
      {onAssign && (
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
      )}
      {onEdit && onRemove && (
        <div className="flex items-center justify-end gap-1 border-t border-slate-100 pt-2">
          <Button size="sm" variant="ghost" onClick={onEdit} aria-label={`Edit cell ${cell.cell_id}`}>
            <Pencil className="h-3.5 w-3.5" aria-hidden="true" />
            Edit
          </Button>
          <Button
            size="sm"
            variant="ghost"
            onClick={onRemove}
            disabled={held > 0}
            aria-label={`Remove cell ${cell.cell_id}`}
            title={
              held > 0
                ? `Cell ${cell.cell_id} still holds ${held} ${held === 1 ? 'prisoner' : 'prisoners'}: move them out first`
                : undefined
            }
          >
            <Trash2 className="h-3.5 w-3.5" aria-hidden="true" />
            Remove
          </Button>
        </div>
      )}
    </li>
  );
}
