// The history screen's reads: the track (GET /location/history), the prisoner the URL names, the export links.
import { useQuery } from '@tanstack/react-query';
import type { HistoryResponse } from '@prison/shared/history';
import type { Prisoner } from '@prison/shared/prisoner';
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

/** A plain link: the browser downloads the file with the session cookie, streamed by the server. */
export function exportUrl(range: HistoryRange, format: 'gpx' | 'csv'): string {
  return `${API_PREFIX}${withQuery('/location/export', { prisoner_id: range.prisonerId, from: range.from, to: range.to, format })}`;
}
