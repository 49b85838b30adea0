// The overview's last roll count of each block and its state (issue 24): a link to the Counts screen.
import { Link } from 'react-router';
import { EmptyState, ErrorText, Loading } from '../../components/ui/status';
import { errorMessage } from '../../lib/api-client';
import { formatAlertDateTime } from '../../lib/format';
import { useLatestCounts } from './api';
import { CountStateBadge } from './count-badges';

export function LatestCounts() {
  const latest = useLatestCounts();
  if (latest.isPending) return <Loading text="Loading counts..." />;
  if (latest.isError) return <ErrorText>{errorMessage(latest.error, 'Failed to fetch counts.')}</ErrorText>;
  if (latest.data.length === 0) return <EmptyState>No blocks available</EmptyState>;
  return (
    <ul aria-label="Last count per block" className="grid gap-2 sm:grid-cols-2 lg:grid-cols-4">
      {latest.data.map(({ block, count }) => (
        <li key={block} data-testid="latest-count" className="flex items-center justify-between gap-2 rounded-lg border border-slate-200 bg-white p-3">
          <div className="min-w-0">
            <Link to="/counts" className="font-medium text-brand-700 underline">
              Block {block}
            </Link>
            <p className="text-xs text-slate-600">
              {count ? `${formatAlertDateTime(count.started_at)} · ${count.located}/${count.expected} located` : 'Not counted yet'}
            </p>
          </div>
          {count && <CountStateBadge state={count.state} />}
        </li>
      ))}
    </ul>
  );
}
