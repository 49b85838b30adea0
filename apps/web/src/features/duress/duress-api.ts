// The duress calls (decision 100): raise "Need assistance", the account's own open alarm, its stand-down, and
// "Responding" on any alert. Keys start with 'alerts', so the server's dataChanged('alerts') refreshes them live.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AlertRecord } from '@prison/shared/alert';
import type { CurrentDuress } from '@prison/shared/duress';
import { api } from '../../lib/api-client';

export const CURRENT_DURESS_KEY = ['alerts', 'duress', 'current'] as const;

export function useCurrentDuress(enabled: boolean) {
  return useQuery({
    queryKey: CURRENT_DURESS_KEY,
    queryFn: async ({ signal }) => (await api.get<CurrentDuress>('/duress/current', undefined, signal)).data,
    enabled,
  });
}

function useAlertsMutation<I>(call: (input: I) => Promise<AlertRecord>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: (record) => {
      if (record.raised_by_id !== undefined) queryClient.setQueryData(CURRENT_DURESS_KEY, record.status === 'Resolved' ? null : record);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['alerts'] }),
  });
}

export const useRaiseDuress = () => useAlertsMutation(() => api.post<AlertRecord>('/duress'));
export const useStandDown = () => useAlertsMutation((note: string) => api.post<AlertRecord>('/duress/stand-down', { note }));
export const useRespond = () => useAlertsMutation((id: number) => api.post<AlertRecord>(`/alert/${id}/respond`));
