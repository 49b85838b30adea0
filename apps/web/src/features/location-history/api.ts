// The history screen's reads: the track (GET /location/history), prisoners to pick from, geofences and map settings.
import { useQuery } from '@tanstack/react-query';
import type { Geofence } from '@prison/shared/geofence';
import type { HistoryResponse } from '@prison/shared/history';
import type { Prisoner } from '@prison/shared/prisoner';
import type { ClientSettings } from '@prison/shared/settings';
import { API_PREFIX } from '@prison/shared/constants';
import { api, withQuery } from '../../lib/api-client';

export interface HistoryRange {
  prisonerId: number;
  /** ISO instants. */
  from: string;
  to: string;
}

export function useHistory(range: HistoryRange | null) {
  return useQuery({
    queryKey: ['location-history', range],
    queryFn: ({ signal }) =>
      api.get<HistoryResponse>('/location/history', {
        prisoner_id: range!.prisonerId,
        from: range!.from,
        to: range!.to,
      }, signal),
    enabled: range !== null,
  });
}

/** The prisoner named by /location-history?prisoner=ID (the details screen links so); same key as the details screen. */
export function usePrisonerById(id: number | null) {
  return useQuery({
    queryKey: ['prisoners', 'detail', id],
    queryFn: ({ signal }) => api.get<{ data: Prisoner }>(`/prisoner/prisonerid/${id}`, undefined, signal).then((r) => r.data),
    enabled: id !== null,
    retry: false,
  });
}

export function useGeofences() {
  return useQuery({ queryKey: ['geofences'], queryFn: ({ signal }) => api.get<Geofence[]>('/geofence/all', undefined, signal) });
}

export function useClientSettings() {
  return useQuery({ queryKey: ['settings'], queryFn: ({ signal }) => api.get<ClientSettings>('/settings', undefined, signal), staleTime: Infinity });
}

/** A plain link: the browser downloads the file with the session cookie, streamed by the server. */
export function exportUrl(range: HistoryRange, format: 'gpx' | 'csv'): string {
  return `${API_PREFIX}${withQuery('/location/export', { prisoner_id: range.prisonerId, from: range.from, to: range.to, format })}`;
}
