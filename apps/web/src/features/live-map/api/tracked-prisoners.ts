// What the live map needs beside live positions: the assigned devices (to list offline prisoners too, with their
// last position, last fix and battery) and, per prisoner, the open alerts and whether a geofence violation is open
// (GET /alert/live-map, one grouped query; decision 026), and the open staff SOS alerts (decision 072).
import { useQuery } from '@tanstack/react-query';
import type { LiveMapAlerts, LiveMapPrisonerAlerts, LiveMapStaffInDanger } from '@prison/shared/alert';
import type { Device } from '@prison/shared/device';
import type { Escort } from '@prison/shared/escort';
import { api } from '../../../lib/api-client';

export const DEVICES_QUERY_KEY = ['devices'] as const;

export function useAssignedDevices() {
  return useQuery({
    queryKey: DEVICES_QUERY_KEY,
    queryFn: async ({ signal }) =>
      (await api.get<{ data: Device[] }>('/devices', undefined, signal)).data.filter((device) => device.prisoner_id !== null),
    refetchInterval: 60_000,
  });
}

/**
 * Open alerts per prisoner id. The key starts with 'alerts', so every live alert (`showAlert`) and every workflow
 * step anywhere (`dataChanged('alerts')`) refreshes it: a marker's colour follows without a reload.
 */
const liveMapAlertsQuery = {
  queryKey: ['alerts', 'live-map'],
  queryFn: async ({ signal }: { signal: AbortSignal }) => {
    const body = await api.get<LiveMapAlerts>('/alert/live-map', undefined, signal);
    return {
      byPrisoner: new Map<number, LiveMapPrisonerAlerts>(body.data.map((entry) => [entry.prisoner_id, entry])),
      staffInDanger: body.staff_in_danger ?? [],
    };
  },
  refetchInterval: 30_000,
};

export function useLiveMapAlerts() {
  return useQuery({ ...liveMapAlertsQuery, select: (answer) => answer.byPrisoner });
}

/**
 * The open staff SOS alerts with the nearest staff at the alarm, newest first (decision 072), from the same request
 * as the prisoners' alerts: a new alert or a resolved one refreshes both.
 */
export function useStaffInDanger() {
  return useQuery({ ...liveMapAlertsQuery, select: (answer): LiveMapStaffInDanger[] => answer.staffInDanger });
}

/**
 * The escorts in force (decision 035), drawn as lines between the prisoner's and the officer's markers. The key starts
 * with 'escorts', so the server's dataChanged('escorts') (an escort created or ended anywhere) refreshes it.
 */
export function useActiveEscorts() {
  return useQuery({
    queryKey: ['escorts', 'active'],
    queryFn: async ({ signal }) => (await api.get<{ data: Escort[] }>('/escorts?active=true', undefined, signal)).data,
    // An escort also begins and ends with time (from, until).
    refetchInterval: 60_000,
  });
}
