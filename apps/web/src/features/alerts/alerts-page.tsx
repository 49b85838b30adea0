// /allAlerts and /alerts (SPEC.md section 2; DECISIONS.md item 6): the counts, then the alert cards, newest first.
// New alerts appear without a reload: the socket's showAlert refreshes every query keyed 'alerts'.
import { useState } from 'react';
import type { AlertPage } from '@prison/shared';
import { Page } from '../../components/ui/page';
import { Pagination } from '../../components/ui/pagination';
import { EmptyState, ErrorText, Loading } from '../../components/ui/status';
import { useAlertPage, type AlertFilters as Filters } from './api/alert-page';
import { AlertCard } from './components/alert-card';
import { AlertFilters } from './components/alert-filters';
import { AlertWorkflowBulkBar, AlertWorkflowCheckbox, useAlertSelection } from './alert-workflow-bulk';
import { AlertWorkflowChart } from './alert-workflow-chart';
import { AlertWorkflowSoundToggle } from './alert-workflow-sound';

export function AlertsPage() {
  const [page, setPage] = useState(1);
  const [filters, setFilters] = useState<Filters>({});
  const alerts = useAlertPage(page, filters);
  const selection = useAlertSelection();

  const changeFilters = (next: Filters) => {
    setFilters(next);
    setPage(1);
  };

  return (
    <Page
      title="Alerts"
      actions={
        <div className="flex flex-wrap items-center gap-3">
          {alerts.data && <AlertCounts page={alerts.data} />}
          <AlertWorkflowSoundToggle />
        </div>
      }
    >
      <div className="flex flex-col gap-4">
        <AlertFilters filters={filters} onChange={changeFilters} />
        <AlertWorkflowChart />
        {alerts.isPending ? (
          <Loading text="Loading alerts..." />
        ) : alerts.isError ? (
          <ErrorText>Failed to fetch alerts.</ErrorText>
        ) : alerts.data.data.length === 0 ? (
          <EmptyState>No alerts.</EmptyState>
        ) : (
          <>
            <AlertWorkflowBulkBar selection={selection} pageIds={alerts.data.data.map((alert) => alert.id)} />
            <ul className="flex flex-col gap-3" aria-label="Alerts" aria-busy={alerts.isFetching || undefined}>
              {alerts.data.data.map((alert) => (
                <li key={alert.id} className="flex items-start gap-2">
                  <AlertWorkflowCheckbox alertId={alert.id} selection={selection} />
                  <div className="min-w-0 flex-1">
                    <AlertCard alert={alert} />
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
      </div>
    </Page>
  );
}

function AlertCounts({ page }: { page: AlertPage }) {
  return (
    <dl className="flex flex-wrap gap-2 text-sm" data-testid="alert-counts">
      <Count label="Total" value={page.totalAlerts} className="bg-slate-200 text-slate-900" />
      <Count label="Critical" value={page.counts.Critical} className="bg-red-100 text-red-900" />
      <Count label="Warnings" value={page.counts.Warning} className="bg-yellow-100 text-yellow-900" />
      <Count label="Informational" value={page.counts.Informational} className="bg-blue-100 text-blue-900" />
    </dl>
  );
}

function Count({ label, value, className }: { label: string; value: number; className: string }) {
  return (
    <div className={`flex gap-1 rounded-full px-3 py-1 ${className}`}>
      <dt>{label}:</dt>
      <dd className="font-semibold">{value}</dd>
    </div>
  );
}
