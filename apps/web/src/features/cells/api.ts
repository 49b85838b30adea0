// The occupancy picture, moves between cells, and adding, editing and removing cells (/cell-assign).
import { useQuery } from '@tanstack/react-query';
import type { AssignCellInput, BlockOverview, Cell, CellInput, CellUpdateInput } from '@prison/shared/cell';
import type { PendingChange } from '@prison/shared/pending-change';
import type { Prisoner } from '@prison/shared/prisoner';
import { api } from '../../lib/api-client';

export function useCellOverview() {
  return useQuery({
    queryKey: ['cells', 'overview'],
    queryFn: ({ signal }) => api.get<{ data: BlockOverview[] }>('/cell_controls/overview', undefined, signal).then((r) => r.data),
  });
}

/** 200: moved; 202: the move lifts an alarm and waits for a second person (decision 091), the prisoner unchanged. */
export const assignToCell = (input: AssignCellInput) =>
  api.post<{ message: string; prisoner: Prisoner } | { message: string; prisoner: Prisoner; pending: PendingChange }>('/cell_controls/assign', input);

/** 409 when the id is taken; 400 naming the field. */
export const createCell = (input: CellInput) =>
  api.post<{ message: string; cell: Cell }>('/cell_controls/cells', input);

/** Partial: only the fields given change. 409 when the capacity would drop below the current occupants. */
export const updateCell = (cellId: string, input: CellUpdateInput) =>
  api.put<{ message: string; cell: Cell }>(`/cell_controls/cells/${encodeURIComponent(cellId)}`, input);

/** 409 "Cell X still holds N prisoners" while anyone occupies it. */
export const deleteCell = (cellId: string) =>
  api.delete<{ message: string }>(`/cell_controls/cells/${encodeURIComponent(cellId)}`);
