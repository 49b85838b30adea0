// Every geofence, for the maps that draw them and the pickers that name them; the socket's dataChanged('geofences')
// refreshes it by its key.
import { useQuery } from '@tanstack/react-query';
import type { Geofence } from '@prison/shared/geofence';
import { api } from './api-client';

export function useGeofences() {
  return useQuery({ queryKey: ['geofences'], queryFn: ({ signal }) => api.get<Geofence[]>('/geofence/all', undefined, signal) });
}
