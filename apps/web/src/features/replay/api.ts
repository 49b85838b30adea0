// The replay's read (GET /location/replay) and the blocks to filter by.
import { useQuery } from '@tanstack/react-query';
import type { ReplayResponse } from '@prison/shared/replay';
import { api } from '../../lib/api-client';

export interface ReplayRequest {
  /** ISO instants. */
  from: string;
  to: string;
  block?: string;
  prisonerIds?: number[];
  staffIds?: number[];
}

export function useReplay(request: ReplayRequest | null) {
  return useQuery({
    queryKey: ['replay', request],
    queryFn: ({ signal }) =>
      api.get<ReplayResponse>('/location/replay', {
        from: request!.from,
        to: request!.to,
        block: request!.block || undefined,
        prisoner_ids: request!.prisonerIds?.length ? request!.prisonerIds.join(',') : undefined,
        staff_ids: request!.staffIds?.length ? request!.staffIds.join(',') : undefined,
      }, signal),
    enabled: request !== null,
    staleTime: Infinity,
  });
}

export function useBlocks() {
  return useQuery({ queryKey: ['blocks'], queryFn: ({ signal }) => api.get<{ data: string[] }>('/cell_controls/blocks', undefined, signal).then((r) => r.data) });
}
