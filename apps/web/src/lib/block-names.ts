// The prison's block names (GET /cell_controls/blocks), for every form that picks blocks: geofence scopes, caseloads.
import { useQuery } from '@tanstack/react-query';
import { api } from './api-client';

export function useBlockNames() {
  return useQuery({
    queryKey: ['cells', 'block-names'],
    queryFn: ({ signal }) => api.get<{ data: string[] }>('/cell_controls/blocks', undefined, signal).then((r) => r.data),
  });
}
