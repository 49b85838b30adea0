// Changes that weaken an alarm, waiting for a second administrator (decision 041): the list, and approve or refuse.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { PendingChange } from '@prison/shared/pending-change';
import { api } from '../../../lib/api-client';

/** The socket's `dataChanged('pending-changes')` invalidates this key. */
export const PENDING_CHANGES_QUERY_KEY = ['pending-changes'] as const;

export function usePendingChanges() {
  return useQuery({
    queryKey: PENDING_CHANGES_QUERY_KEY,
    queryFn: ({ signal }) => api.get<{ data: PendingChange[] }>('/pending-changes', undefined, signal).then((r) => r.data),
  });
}

export function useDecideChange() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, decision }: { id: number; decision: 'approve' | 'refuse' }) =>
      api.post<{ message: string; change: PendingChange }>(`/pending-changes/${id}/${decision}`, {}),
    onSettled: () => {
      for (const key of [PENDING_CHANGES_QUERY_KEY, ['geofences'], ['keep-apart'], ['admins'], ['prisoners'], ['cells']])
        void queryClient.invalidateQueries({ queryKey: key });
    },
  });
}
