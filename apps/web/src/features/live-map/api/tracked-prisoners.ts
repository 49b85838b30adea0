// What the side panel needs beside live positions: the assigned devices (to list offline prisoners too) and the
// prisoners whose geofence violation is still open (from unresolved geofence alerts that have not ended).
import { useQuery } from '@tanstack/react-query';
import type { AlertPage, Device } from '@prison/shared';
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
    queryFn: async () => {
      const page = (await api.get<{ data: AlertPage }>('/alert/prisoneralerts', { limit: 100 })).data;
      const ids = new Set<number>();
      for (const alert of page.data) {
        if (
          alert.kind === 'geofence' &&
          alert.ended_at === null &&
          alert.status !== 'Resolved' &&
          alert.prisoner_id !== null
        ) {
          ids.add(alert.prisoner_id);
        }
      }
      return ids;
    },
    refetchInterval: 30_000,
  });
}
