// The prisoner search behind every picker (a cell's assignment, a movement, a keep-apart pair, an incident's links,
// the location history): one shape of GET /prisoner/all, one cache entry per search.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { PrisonerListResponse } from '@prison/shared/prisoner';
import { api } from './api-client';

export interface PrisonerSearchOptions {
  /** Most prisoners answered (8 unless told). */
  limit?: number;
  /** Search the archived records instead (an investigation still finds a deleted prisoner, decision 042). */
  archived?: boolean;
  /** false: no request (a closed dialog). */
  enabled?: boolean;
  /** Keep showing the last answer while the next search is on its way. */
  keepPrevious?: boolean;
}

/** The prisoners GET /prisoner/all's search `q` finds (the newest when it is empty), at most `limit`. */
export function usePrisonerSearch(q: string, { limit = 8, archived = false, enabled = true, keepPrevious = false }: PrisonerSearchOptions = {}) {
  return useQuery({
    queryKey: ['prisoners', 'search', q, limit, archived],
    queryFn: ({ signal }: { signal: AbortSignal }) =>
      api
        .get<PrisonerListResponse>('/prisoner/all', { q: q || undefined, limit, archived: archived ? 'true' : undefined }, signal)
        .then((r) => r.prisoners),
    enabled,
    ...(keepPrevious && { placeholderData: keepPreviousData }),
  });
}
