// /allAlerts and /alerts (docs/CLIENT-CONTRACT.md): the counts, then the alert cards, newest first.
// New alerts appear without a reload: the socket's showAlert refreshes every query keyed 'alerts'.
// Decision 024: the filters and the page live in the URL (/allAlerts?alert_type=Critical&status=New,
// as the home page links), open Critical alerts are pinned on top, and the list comes before the 30-day chart.
import { useMay } from '../../lib/use-may';
import { useEffect, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import type { AlertPage, AlertRecord } from '@prison/shared/alert';
import { ALERT_STATUSES, ALERT_TYPES } from '@prison/shared/constants';
import { Page } from '../../components/ui/page';
import { Pagination } from '../../components/ui/pagination';
import { EmptyState, ErrorText, Loading } from '../../components/ui/status';
import { ALERT_SHOWS, useAlertPage, type AlertFilters as Filters } from './api/alert-page';
import { AlertCard } from './components/alert-card';
import { AlertFilters } from './components/alert-filters';
import { AlertWorkflowBulkBar, AlertWorkflowCheckbox, useAlertSelection } from './alert-workflow-bulk';
import { AlertWorkflowChart } from './alert-workflow-chart';
import { AlertWorkflowSoundToggle } from './alert-workflow-sound';
import { InformationalToastsToggle } from './alert-toast-setting';

/** The filters in the URL; a value that is not one the server takes is ignored rather than sent. */
export function filtersFromParams(params: URLSearchParams): Filters {
  const pick = <T extends string>(name: string, allowed: readonly T[]) => {
    const value = params.get(name);
    return allowed.find((candidate) => candidate === value);
  };
  const instant = (name: string) => {
    const value = params.get(name);
    return value && !Number.isNaN(Date.parse(value)) ? new Date(value).toISOString() : undefined;
  };
  return {
    alert_type: pick('alert_type', ALERT_TYPES),
    status: pick('status', ALERT_STATUSES),
    from: instant('from'),
    to: instant('to'),
    show: pick('show', ALERT_SHOWS),
  };
}

function paramsFromFilters(filters: Filters, page: number): URLSearchParams {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(filters)) if (value) params.set(name, value);
  if (page > 1) params.set('page', String(page));
  return params;
}

/**
 * Open (New) Critical alerts matching the filters, for the top of the list; none when the filters leave them out or
 * when the list itself is exactly them.
 */
function usePinnedCriticals(filters: Filters) {
  const applies =
    (filters.alert_type ?? 'Critical') === 'Critical' &&
    (filters.status ?? 'New') === 'New' &&
    !(filters.alert_type && filters.status);
  const pinned = useAlertPage(1, { ...filters, alert_type: 'Critical', status: 'New' }, applies);
  return applies ? pinned.data : undefined;
}

export function AlertsPage() {
  const mayWork = useMay('alerts.work');
  const [params, setParams] = useSearchParams();
  const filters = filtersFromParams(params);
  const page = Math.max(1, Number.parseInt(params.get('page') ?? '1', 10) || 1);
  const alerts = useAlertPage(page, filters);
  const pinned = usePinnedCriticals(filters);
  const selection = useAlertSelection();

  const changeFilters = (next: Filters) => setParams(paramsFromFilters(next, 1));
  const setPage = (next: number) => setParams(paramsFromFilters(filters, next));

  const pinnedAlerts = pinned?.data ?? [];
  const pinnedIds = new Set(pinnedAlerts.map((alert) => alert.id));
  const rows: { alert: AlertRecord; pinned: boolean }[] = [
    ...pinnedAlerts.map((alert) => ({ alert, pinned: true })),
    ...(alerts.data?.data ?? []).filter((alert) => !pinnedIds.has(alert.id)).map((alert) => ({ alert, pinned: false })),
  ];
  const morePinned = pinned ? pinned.totalAlerts - pinnedAlerts.length : 0;
  const linkedId = useLinkedAlert(params, rows);

  return (
    <Page
      title="Alerts"
      actions={
        <div className="flex flex-wrap items-center gap-3">
          {alerts.data && <AlertCounts page={alerts.data} />}
          <AlertWorkflowSoundToggle />
          <InformationalToastsToggle />
        </div>
      }
    >
      <div className="flex flex-col gap-4">
        <AlertFilters filters={filters} onChange={changeFilters} />
        {alerts.isPending ? (
          <Loading text="Loading alerts..." />
        ) : alerts.isError ? (
          <ErrorText>Failed to fetch alerts.</ErrorText>
        ) : rows.length === 0 ? (
          <EmptyState>No alerts.</EmptyState>
        ) : (
          <>
            {mayWork && <AlertWorkflowBulkBar selection={selection} page={rows.map((row) => row.alert)} />}
            {morePinned > 0 && (
              <p className="text-sm font-medium text-red-800">
                {morePinned} more open Critical alerts:{' '}
                <Link to="/allAlerts?alert_type=Critical&status=New" className="underline">
                  show them all
                </Link>
              </p>
            )}
            <ul className="flex flex-col gap-3" aria-label="Alerts" aria-busy={alerts.isFetching || undefined}>
              {rows.map(({ alert, pinned: isPinned }) => (
                <li key={alert.id} id={`alert-${alert.id}`} className="flex items-start gap-2">
                  {mayWork && <AlertWorkflowCheckbox alertId={alert.id} selection={selection} />}
                  <div className="min-w-0 flex-1">
                    <AlertCard alert={alert} pinned={isPinned} linked={alert.id === linkedId} />
                  </div>
                </li>
              ))}
            </ul>
            <Pagination
              page={alerts.data.currentPage}
              totalPages={alerts.data.totalPages}
              onPageChange={setPage}
              label="Alert pages"
            />
          </>
        )}
        <CollapsibleChart />
      </div>
    </Page>
  );
}

/**
 * The alert an escalation links to (`?alert=ID`, decision 096): once it is on the page, it is scrolled into view, once.
 * An escalated alert is an open Critical, so it is among the pinned ones at the top.
 */
function useLinkedAlert(params: URLSearchParams, rows: { alert: AlertRecord }[]): number | null {
  const linkedId = Number.parseInt(params.get('alert') ?? '', 10) || null;
  const shown = linkedId !== null && rows.some((row) => row.alert.id === linkedId);
  const scrolledTo = useRef<number | null>(null);
  useEffect(() => {
    if (!shown || scrolledTo.current === linkedId) return;
    scrolledTo.current = linkedId;
    document.getElementById(`alert-${linkedId}`)?.scrollIntoView({ block: 'center' });
  }, [shown, linkedId]);
  return linkedId;
}

const CHART_OPEN_KEY = 'prison.alertsChartOpen';

/** The 30-day chart under the list; open or closed is remembered per browser (and not fetched while closed). */
function CollapsibleChart() {
  const [open, setOpen] = useState(() => localStorage.getItem(CHART_OPEN_KEY) !== 'closed');
  return (
    <details
      open={open}
      onToggle={(event) => {
        const next = event.currentTarget.open;
        localStorage.setItem(CHART_OPEN_KEY, next ? 'open' : 'closed');
        setOpen(next);
      }}
    >
      <summary className="cursor-pointer text-sm font-medium text-slate-700">Alerts per day chart</summary>
      {open && <AlertWorkflowChart />}
    </details>
  );
}

/** Every number follows every filter (decision 029): the server counts the filtered set per type and per status. */
function AlertCounts({ page }: { page: AlertPage }) {
  const types = page.filteredCounts;
  return (
    <dl className="flex flex-wrap gap-2 text-sm" data-testid="alert-counts">
      <Count label="Total" value={page.totalAlerts} className="bg-slate-200 text-slate-900" />
      <Count label="Critical" value={types.Critical} className="bg-red-100 text-red-900" />
      <Count label="Warnings" value={types.Warning} className="bg-yellow-100 text-yellow-900" />
      <Count label="Informational" value={types.Informational} className="bg-blue-100 text-blue-900" />
      {ALERT_STATUSES.map((status) => (
        <Count
          key={status}
          label={status}
          value={page.statusCounts[status]}
          className="border border-slate-300 bg-white text-slate-800"
        />
      ))}
    </dl>
  );
}

function Count({ label, value, className }: { label: string; value: number; className: string }) {
  return (
    <div className={`flex gap-1 rounded-full px-3 py-1 ${className}`} data-count={label}>
      <dt>{label}:</dt>
      <dd className="font-semibold">{value}</dd>
    </div>
  );
}
