// The occupancy picture and moves between cells (issue 3, /cell-assign).
import { useQuery } from '@tanstack/react-query';
import type { AssignCellInput, BlockOverview, Prisoner, PrisonerListResponse } from '@prison/shared';
import { api } from '../../lib/api-client';

export function useCellOverview() {
  return useQuery({
    queryKey: ['cells', 'overview'],
    queryFn: () => api.get<{ data: BlockOverview[] }>('/cell_controls/overview').then((r) => r.data),
  });
}

export function usePrisonerSearch(q: string, enabled: boolean) {
  return useQuery({
    queryKey: ['prisoners', 'search', q],
    queryFn: () =>
      api.get<PrisonerListResponse>('/prisoner/all', { q: q || undefined, limit: 8 }).then((r) => r.prisoners),
    enabled,
  });
}

export const assignToCell = (input: AssignCellInput) =>
  api.post<{ message: string; prisoner: Prisoner }>('/cell_controls/assign', input);
