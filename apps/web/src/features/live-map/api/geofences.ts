// The geofence API (SPEC.md section 7; DECISIONS.md item 11): list, add, rename/change, delete.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Geofence, GeofenceRequest, GeofenceUpdateRequest } from '@prison/shared';
import { api } from '../../../lib/api-client';

export const GEOFENCES_QUERY_KEY = ['geofences'] as const;

export function useGeofences() {
  return useQuery({ queryKey: GEOFENCES_QUERY_KEY, queryFn: () => api.get<Geofence[]>('/geofence/all') });
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
      api.put<Geofence>(`/geofence/update/${encodeURIComponent(id)}`, changes),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: GEOFENCES_QUERY_KEY }),
  });
}

export function useDeleteGeofence() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete<unknown>(`/geofence/delete/${encodeURIComponent(id)}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: GEOFENCES_QUERY_KEY }),
  });
}
