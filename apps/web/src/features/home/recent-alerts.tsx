import { Link } from 'react-router';
import { useAuth } from '../../lib/auth';

// Filled by the tracking feature: alerts from GET /alert/recent, shown to a logged-in admin only (DECISIONS.md item 13).
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
  return <p className="text-slate-500">No alerts yet.</p>;
}
