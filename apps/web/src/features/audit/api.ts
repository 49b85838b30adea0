// GET /audit: newest first, paged and filtered on the server; GET /audit/export: the same filters as a CSV file.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { AuditPage } from '@prison/shared/audit-entry';
import { API_PREFIX } from '@prison/shared/constants';
import { api, withQuery } from '../../lib/api-client';

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

/** The CSV of every entry the filters match, with the chain's state (a download: the browser sends the session cookie). */
export function auditExportUrl(filters: AuditFilters): string {
  return `${API_PREFIX}${withQuery('/audit/export', { ...filters })}`;
}
