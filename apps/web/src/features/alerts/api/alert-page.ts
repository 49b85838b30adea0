// GET /alert/prisoneralerts: newest first, paginated, filtered on the server (docs/CLIENT-CONTRACT.md).
// The key starts with 'alerts', so a live alert (socket showAlert) refreshes the open screen.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { AlertPage } from '@prison/shared/alert';
import type { AlertStatus, AlertType } from '@prison/shared/constants';
import { api } from '../../../lib/api-client';

export interface AlertFilters {
  alert_type?: AlertType;
  status?: AlertStatus;
  /** ISO instants. */
  from?: string;
  to?: string;
}

export const ALERTS_PAGE_SIZE = 20;

export function useAlertPage(page: number, filters: AlertFilters, enabled = true) {
  return useQuery({
    enabled,
    queryKey: ['alerts', 'page', page, filters],
    // The body is the page: the list in `data`, paging and counts beside it (docs/CLIENT-CONTRACT.md).
    queryFn: ({ signal }) => api.get<AlertPage>('/alert/prisoneralerts', { page, limit: ALERTS_PAGE_SIZE, ...filters }, signal),
    placeholderData: keepPreviousData,
  });
}
