// Incidents with a workflow: the list, one incident, opening one, moving it on, linking more to it and taking a link back.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  IncidentDetail,
  IncidentLinkKind,
  IncidentLinksInput,
  IncidentOpenInput,
  IncidentStatus,
  IncidentSummary,
} from '@prison/shared/incident-workflow';
import { api } from '../../lib/api-client';

export function useIncidents() {
  return useQuery({ queryKey: ['incidents', 'list'], queryFn: ({ signal }) => api.get<{ data: IncidentSummary[] }>('/incidents', undefined, signal).then((r) => r.data) });
}

export function useIncident(id: number) {
  return useQuery({ queryKey: ['incidents', 'detail', id], queryFn: ({ signal }) => api.get<IncidentDetail>(`/incidents/${id}`, undefined, signal), retry: false });
}

export function useOpenIncident() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: IncidentOpenInput) => api.post<IncidentDetail>('/incidents', input),
    onSuccess: () => client.invalidateQueries({ queryKey: ['incidents'] }),
  });
}

export function useIncidentStatus(id: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { status: IncidentStatus; note?: string }) => api.patch<IncidentDetail>(`/incidents/${id}/status`, input),
    onSuccess: (updated) => {
      client.setQueryData(['incidents', 'detail', id], updated);
      return client.invalidateQueries({ queryKey: ['incidents', 'list'] });
    },
  });
}

/** Links more alerts and people; the page shows the answer at once. */
export function useLinkToIncident(id: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: IncidentLinksInput) => api.post<IncidentDetail>(`/incidents/${id}/links`, input),
    onSuccess: (updated) => client.setQueryData(['incidents', 'detail', id], updated),
  });
}

/** Takes one link back (linked by mistake). */
export function useUnlinkFromIncident(id: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ kind, targetId }: { kind: IncidentLinkKind; targetId: number }) => api.delete<IncidentDetail>(`/incidents/${id}/links/${kind}/${targetId}`),
    onSuccess: (updated) => client.setQueryData(['incidents', 'detail', id], updated),
  });
}
