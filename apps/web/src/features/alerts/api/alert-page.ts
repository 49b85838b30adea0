// GET /alert/prisoneralerts: newest first, paginated, filtered on the server (docs/CLIENT-CONTRACT.md).
// The key starts with 'alerts', so a live alert (socket showAlert) refreshes the open screen.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { AlertPage } from '@prison/shared/alert';
import type { AlertStatus, AlertType } from '@prison/shared/constants';
import { api } from '../../../lib/api-client';

/** Besides the work (the default): the events (Informational zone entries), or both. */
export const ALERT_SHOWS = ['events', 'all'] as const;
export type AlertShow = (typeof ALERT_SHOWS)[number];

export interface AlertFilters {
  alert_type?: AlertType;
  status?: AlertStatus;
  /** ISO instants. */
  from?: string;
  to?: string;
  /** Absent: the alerts that need action; an event (someone entered the Exercise Yard) is not work. */
  show?: AlertShow;
}

export const ALERTS_PAGE_SIZE = 20;

/** The server's filter for what the screen shows. */
export function needsActionFilter(show: AlertShow | undefined): { needs_action?: 'true' | 'false' } {
  if (show === 'all') return {};
  return { needs_action: show === 'events' ? 'false' : 'true' };
}

export function useAlertPage(page: number, filters: AlertFilters, enabled = true) {
  return useQuery({
    enabled,
    queryKey: ['alerts', 'page', page, filters],
    // The body is the page: the list in `data`, paging and counts beside it (docs/CLIENT-CONTRACT.md).
    queryFn: ({ signal }) => {
      const { show, ...rest } = filters;
      return api.get<AlertPage>('/alert/prisoneralerts', { page, limit: ALERTS_PAGE_SIZE, ...rest, ...needsActionFilter(show) }, signal);
    },
    placeholderData: keepPreviousData,
  });
}
