// GET /audit: newest first, paged and filtered on the server.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { AuditPage } from '@prison/shared';
import { api } from '../../lib/api-client';

export interface AuditFilters {
  entity?: string;
  action?: string;
  actor?: string;
  /** ISO instants. */
  from?: string;
  to?: string;
}

export const AUDIT_PAGE_SIZE = 25;

export function useAuditPage(page: number, filters: AuditFilters) {
  return useQuery({
    queryKey: ['audit', page, filters],
    queryFn: ({ signal }) => api.get<AuditPage>('/audit', { page, limit: AUDIT_PAGE_SIZE, ...filters }, signal),
    placeholderData: keepPreviousData,
  });
}
