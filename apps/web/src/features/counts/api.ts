// Roll counts over /api/v1/counts (issue 24): the history, the last count per block, and the officer's three steps.
// Every key starts with 'counts', so the server's dataChanged('counts') refetches them on every screen.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { COUNT_WHOLE_PRISON, type CountRecord, type LatestCount } from '@prison/shared';
import { api } from '../../lib/api-client';

export const COUNTS_KEY = ['counts'] as const;

export function useCountHistory() {
  return useQuery({
    queryKey: [...COUNTS_KEY, 'history'],
    queryFn: ({ signal }) => api.get<{ data: CountRecord[] }>('/counts', undefined, signal).then((r) => r.data),
  });
}

export function useLatestCounts() {
  return useQuery({
    queryKey: [...COUNTS_KEY, 'latest'],
    queryFn: ({ signal }) => api.get<{ data: LatestCount[] }>('/counts/latest', undefined, signal).then((r) => r.data),
  });
}

export function useCount(id: number | null) {
  return useQuery({
    queryKey: [...COUNTS_KEY, 'one', id],
    queryFn: ({ signal }) => api.get<CountRecord>(`/counts/${id}`, undefined, signal),
    enabled: id !== null,
  });
}

function useCountStep<Input>(send: (input: Input) => Promise<CountRecord>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: send,
    onSuccess: (count) => {
      queryClient.setQueryData([...COUNTS_KEY, 'one', count.id], count);
      void queryClient.invalidateQueries({ queryKey: COUNTS_KEY });
    },
  });
}

/** `block` null: the whole prison, asked for by name (an empty body starts nothing). */
export const useStartCount = () =>
  useCountStep((block: string | null) =>
    api.post<CountRecord>('/counts', block === null ? { scope: COUNT_WHOLE_PRISON } : { block_id: block }),
  );

export const useSubmitCount = () =>
  useCountStep(({ id, counted, note }: { id: number; counted: number; note: string }) =>
    api.post<CountRecord>(`/counts/${id}/submit`, { counted, ...(note.trim() ? { note } : {}) }),
  );

export const useCloseCount = () =>
  useCountStep(({ id, note }: { id: number; note: string }) => api.post<CountRecord>(`/counts/${id}/close`, { note }));
