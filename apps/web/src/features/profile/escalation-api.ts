// Escalation of unacknowledged Critical alerts (decision 060): the delivery log and the test send.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { DeliveryPage, EscalationTestResult } from '@prison/shared/escalation';
import { api } from '../../lib/api-client';

const DELIVERIES_KEY = ['escalation', 'deliveries'] as const;

export function useDeliveries(page: number) {
  return useQuery({
    queryKey: [...DELIVERIES_KEY, page],
    queryFn: ({ signal }) => api.get<DeliveryPage>(`/escalation/deliveries?page=${page}&limit=10`, undefined, signal),
    // Retries happen in the background: the log follows them while it is open.
    refetchInterval: 10_000,
  });
}

export function useSendTest() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<EscalationTestResult>('/escalation/test', {}),
    onSettled: () => queryClient.invalidateQueries({ queryKey: DELIVERIES_KEY }),
  });
}
