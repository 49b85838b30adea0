// The geofence API (docs/CLIENT-CONTRACT.md): list, add, rename/change, delete. A change that weakens
// the alarm, and every delete, answers with the change pending a second administrator's approval (decision 041).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Geofence, GeofenceRequest, GeofenceUpdateRequest } from '@prison/shared/geofence';
import type { PendingChange } from '@prison/shared/pending-change';
import { api } from '../../../lib/api-client';
import { PENDING_CHANGES_QUERY_KEY } from './pending-changes';

export const GEOFENCES_QUERY_KEY = ['geofences'] as const;

export function useGeofences() {
  return useQuery({ queryKey: GEOFENCES_QUERY_KEY, queryFn: ({ signal }) => api.get<Geofence[]>('/geofence/all', undefined, signal) });
}

export function useCreateGeofence() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: GeofenceRequest) => api.post<Geofence>('/geofence/add', input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: GEOFENCES_QUERY_KEY }),
  });
}

export function useUpdateGeofence() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, changes }: { id: string; changes: GeofenceUpdateRequest }) =>
      api.put<Geofence & { pending?: PendingChange }>(`/geofence/update/${encodeURIComponent(id)}`, changes),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: GEOFENCES_QUERY_KEY }),
        queryClient.invalidateQueries({ queryKey: PENDING_CHANGES_QUERY_KEY }),
      ]),
  });
}

export function useDeleteGeofence() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, reason, until }: { id: string; reason: string; until?: string | undefined }) =>
      api.delete<{ message: string; pending: PendingChange }>(`/geofence/delete/${encodeURIComponent(id)}`, {
        reason,
        ...(until && { until }),
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: PENDING_CHANGES_QUERY_KEY }),
  });
}
