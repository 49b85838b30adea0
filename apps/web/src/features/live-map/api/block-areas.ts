// Block areas: GET /blocks/areas for the map, PUT /blocks/{block}/area for a block's polygon. The key
// is the server's dataChanged topic, so every open map redraws after a change anywhere.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { GeoPoint } from '@prison/shared/geofence';
import type { BlockArea } from '@prison/shared/roll-count';
import { api } from '../../../lib/api-client';

export const BLOCK_AREAS_QUERY_KEY = ['block-areas'] as const;

export function useBlockAreas() {
  return useQuery({
    queryKey: BLOCK_AREAS_QUERY_KEY,
    queryFn: ({ signal }) => api.get<{ data: BlockArea[] }>('/blocks/areas', undefined, signal).then((r) => r.data),
  });
}

export function useSetBlockArea() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ block, points }: { block: string; points: GeoPoint[] }) =>
      api.put<BlockArea>(`/blocks/${encodeURIComponent(block)}/area`, { points }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: BLOCK_AREAS_QUERY_KEY }),
  });
}
