// The alert workflow calls: acknowledge, resolve, in bulk, and the 30-day chart. Keys start with 'alerts', so the
// server's dataChanged('alerts') and every live alert refresh them.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AlertRecord } from '@prison/shared/alert';
import type { AlertBulkResponse, AlertDailyStats, AlertWorkflowAction } from '@prison/shared/alert-workflow';
import { api } from '../../lib/api-client';

export function useAlertStep() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, action, note }: { id: number; action: AlertWorkflowAction; note?: string }) =>
      api.post<AlertRecord>(`/alert/${id}/${action}`, note ? { note } : {}),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['alerts'] }),
  });
}

export function useAlertBulk() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { ids: number[]; action: AlertWorkflowAction; note?: string }) =>
      api.post<AlertBulkResponse>('/alert/bulk', input),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['alerts'] }),
  });
}

export function useAlertDailyStats(days = 30) {
  return useQuery({
    queryKey: ['alerts', 'stats', 'daily', days],
    queryFn: ({ signal }) => api.get<AlertDailyStats>('/alert/stats/daily', { days }, signal),
  });
}
