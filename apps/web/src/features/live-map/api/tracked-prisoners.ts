// What the side panel needs beside live positions: the assigned devices (to list offline prisoners too) and the
// prisoners whose geofence violation is still open (unresolved geofence alerts that have not ended).
import { useQuery } from '@tanstack/react-query';
import type { Device } from '@prison/shared';
import { api } from '../../../lib/api-client';

export function useAssignedDevices() {
  return useQuery({
    queryKey: ['devices'],
    queryFn: async () =>
      (await api.get<{ data: Device[] }>('/devices')).data.filter((device) => device.prisoner_id !== null),
    refetchInterval: 60_000,
  });
}

/** Prisoner ids in violation now. The key starts with 'alerts', so every live alert refreshes it. */
export function useOpenViolations() {
  return useQuery({
    queryKey: ['alerts', 'open-violations'],
    queryFn: async () => new Set((await api.get<{ data: number[] }>('/alert/open-violations')).data),
    refetchInterval: 30_000,
  });
}
