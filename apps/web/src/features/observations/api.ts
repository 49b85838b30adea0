// Observation checks: a block's due list (kept current by dataChanged('observations') and a 15 s
// poll), recording a check, a prisoner's observation and setting his level.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  ObservationCheck,
  ObservationDueResponse,
  ObservationLevelInput,
  ObservationStatus,
  QuickObservation,
} from '@prison/shared/observation';
import { api } from '../../lib/api-client';

export const OBSERVATIONS_KEY = ['observations'] as const;
/** The due list is read again this often even without an event (a check recorded through another process). */
export const DUE_POLL_MS = 15_000;

export function useDueList(block: string | null) {
  return useQuery({
    queryKey: [...OBSERVATIONS_KEY, 'due', block],
    queryFn: ({ signal }) => api.get<ObservationDueResponse>('/observations/due', { block_id: block! }, signal),
    enabled: block !== null,
    refetchInterval: DUE_POLL_MS,
  });
}

export function usePrisonerObservation(prisonerId: number) {
  return useQuery({
    queryKey: [...OBSERVATIONS_KEY, 'prisoner', prisonerId],
    queryFn: ({ signal }) => api.get<{ observation: ObservationStatus; checks: ObservationCheck[] }>(`/prisoners/${prisonerId}/observation`, { limit: 5 }, signal),
  });
}

export function useRecordCheck() {
  const queryClient = useQueryClient();
  return useMutation({
    /** What was seen in words, or a one-tap entry on standard observation (with where, for "Not in cell"). */
    mutationFn: (body: { prisoner_id: number; observed?: string; quick?: QuickObservation; where?: string }) =>
      api.post<{ message: string; check: ObservationCheck; observation: ObservationStatus }>('/observations', body),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: OBSERVATIONS_KEY }),
  });
}

export function useSetObservationLevel(prisonerId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ObservationLevelInput) => api.put<{ message: string; observation: ObservationStatus }>(`/prisoners/${prisonerId}/observation`, body),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: OBSERVATIONS_KEY }),
  });
}
