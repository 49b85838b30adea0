// Home "Recent Alerts" (docs/CLIENT-CONTRACT.md): the newest alerts from GET /alert/recent for a logged-in admin;
// a visitor sees a prompt to log in instead of prisoner data.
import { Link } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { clsx } from 'clsx';
import type { AlertRecord } from '@prison/shared/alert';
import { useAuth } from '../../lib/auth';
import { api } from '../../lib/api-client';
import { alertTone } from '../../lib/toast';
import { formatAlertDateTime } from '../../lib/format';
import { EmptyState, ErrorText, Loading } from '../../components/ui/status';

export function RecentAlerts() {
  const { status } = useAuth();
  if (status !== 'authenticated') {
    return (
      <p className="rounded-md bg-white p-4 text-slate-600 shadow-sm">
        <Link to="/login" className="font-medium text-brand-700 underline">
          Log in
        </Link>{' '}
        to see recent alerts.
      </p>
    );
  }
  return <RecentAlertList />;
}

function RecentAlertList() {
  // Keyed 'alerts' so a live alert (socket showAlert) refreshes it.
  const recent = useQuery({
    queryKey: ['alerts', 'recent'],
    queryFn: async ({ signal }) => (await api.get<{ data: AlertRecord[] }>('/alert/recent', undefined, signal)).data,
  });
  if (recent.isPending) return <Loading text="Loading alerts..." />;
  if (recent.isError) return <ErrorText>Failed to fetch alerts.</ErrorText>;
  if (recent.data.length === 0) return <EmptyState>No alerts yet.</EmptyState>;
  return (
    <div className="flex flex-col gap-2">
      <ul className="flex flex-col gap-2" aria-label="Recent alerts">
        {recent.data.map((alert) => (
          <li
            key={alert.id}
            className={clsx('rounded-md border-l-4 px-3 py-2 shadow-sm', alertTone[alert.alert_type])}
            data-testid="recent-alert"
            data-alert-type={alert.alert_type}
          >
            <p className="text-sm font-medium">{alert.details}</p>
            <p className="text-xs">
              {alert.staff_name
                ? `Staff: ${alert.staff_name}`
                : `Prisoner: ${[alert.first_name, alert.last_name].filter(Boolean).join(' ') || 'Unknown'}`}
            </p>
            <time className="text-xs opacity-80" dateTime={alert.timestamp}>
              {formatAlertDateTime(alert.timestamp)}
            </time>
          </li>
        ))}
      </ul>
      <Link to="/allAlerts" className="self-end text-sm font-medium text-brand-700 underline">
        See all alerts
      </Link>
    </div>
  );
}
