// Roll counts over /api/v1/counts: the history, the last count per block, and the officer's steps (start, submit or
// recount, account for the prisoners not seen).
// Every key starts with 'counts', so the server's dataChanged('counts') refetches them on every screen.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CountAccountInput, CountRecord, LatestCount } from '@prison/shared/roll-count';
import { COUNT_WHOLE_PRISON } from '@prison/shared/roll-count-labels';
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

/** Who was seen, ticked cell by cell (`seen`), or a typed number (`counted`); a second submit is a recount. */
export type CountSubmit = { id: number; note: string } & ({ seen: number[] } | { counted: number });

export const useSubmitCount = () =>
  useCountStep(({ id, note, ...count }: CountSubmit) =>
    api.post<CountRecord>(`/counts/${id}/submit`, { ...count, ...(note.trim() ? { note } : {}) }),
  );

/** Ends a discrepancy by accounting for each prisoner not seen. */
export const useAccountForMissing = () =>
  useCountStep(({ id, accounts }: { id: number; accounts: CountAccountInput[] }) =>
    api.post<CountRecord>(`/counts/${id}/close`, { accounts }),
  );
