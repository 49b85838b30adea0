// What the live map needs beside live positions: the assigned devices (to list offline prisoners too, with their
// last position, last fix and battery) and, per prisoner, the open alerts and whether a geofence violation is open
// (GET /alert/live-map, one grouped query; decision 026).
import { useQuery } from '@tanstack/react-query';
import type { Device, Escort, LiveMapAlerts, LiveMapPrisonerAlerts } from '@prison/shared';
import { api } from '../../../lib/api-client';

export const DEVICES_QUERY_KEY = ['devices'] as const;

export function useAssignedDevices() {
  return useQuery({
    queryKey: DEVICES_QUERY_KEY,
    queryFn: async () =>
      (await api.get<{ data: Device[] }>('/devices')).data.filter((device) => device.prisoner_id !== null),
    refetchInterval: 60_000,
  });
}

/**
 * Open alerts per prisoner id. The key starts with 'alerts', so every live alert (`showAlert`) and every workflow
 * step anywhere (`dataChanged('alerts')`) refreshes it: a marker's colour follows without a reload.
 */
export function useLiveMapAlerts() {
  return useQuery({
    queryKey: ['alerts', 'live-map'],
    queryFn: async () =>
      new Map<number, LiveMapPrisonerAlerts>(
        (await api.get<LiveMapAlerts>('/alert/live-map')).data.map((entry) => [entry.prisoner_id, entry]),
      ),
    refetchInterval: 30_000,
  });
}

/**
 * The escorts in force (decision 035), drawn as lines between the prisoner's and the officer's markers. The key starts
 * with 'escorts', so the server's dataChanged('escorts') (an escort created or ended anywhere) refreshes it.
 */
export function useActiveEscorts() {
  return useQuery({
    queryKey: ['escorts', 'active'],
    queryFn: async () => (await api.get<{ data: Escort[] }>('/escorts?active=true')).data,
    // An escort also begins and ends with time (from, until).
    refetchInterval: 60_000,
  });
}
