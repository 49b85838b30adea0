// The indoor readers API (decision 067): the list with each reader's state, register and a new secret (each answered
// once), remove.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Reader, ReaderCreated, ReaderInput } from '@prison/shared/reader';
import { api } from '../../lib/api-client';

export const READERS_QUERY_KEY = ['readers'] as const;
/** A reader turns grey within this long of the server calling it silent. */
const READERS_REFRESH_MS = 10_000;

export function useReaders() {
  return useQuery({
    queryKey: READERS_QUERY_KEY,
    queryFn: async ({ signal }) => (await api.get<{ data: Reader[] }>('/readers', undefined, signal)).data,
    refetchInterval: READERS_REFRESH_MS,
  });
}

export function useRegisterReader() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: ReaderInput) => api.post<ReaderCreated>('/readers', input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: READERS_QUERY_KEY }),
  });
}

export function useRemoveReader() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete<{ message: string }>(`/readers/${encodeURIComponent(id)}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: READERS_QUERY_KEY }),
  });
}

export function useRotateReaderSecret() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.post<ReaderCreated>(`/readers/${encodeURIComponent(id)}/rotate-secret`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: READERS_QUERY_KEY }),
  });
}
