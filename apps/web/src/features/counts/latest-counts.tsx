// The overview's roll of each block from its last count (expected, seen, out with a reason, to find) and its state:
// a link to the Counts screen.
import { Link } from 'react-router';
import { EmptyState, ErrorText, Loading } from '../../components/ui/status';
import { errorMessage } from '../../lib/api-client';
import type { CountRecord } from '@prison/shared/roll-count';
import { COUNT_OUT_REASON_LABELS } from '@prison/shared/roll-count-labels';
import { formatAlertDateTime } from '../../lib/format';
import { useLatestCounts } from './api';
import { CountStateBadge } from './count-badges';

/** The block's roll: expected, seen, out (with the reasons) and to find. */
function BlockRoll({ count, block }: { count: CountRecord; block: string }) {
  const roll = count.roll.find((row) => row.block === block);
  if (!roll) return null;
  const reasons = count.accounts.filter((account) => account.block === block).map((account) => COUNT_OUT_REASON_LABELS[account.reason]);
  return (
    <p className="text-xs text-slate-700" data-testid="block-roll">
      {roll.expected} expected · {roll.seen ?? '—'} seen · {roll.out} out{reasons.length > 0 ? ` (${reasons.join(', ')})` : ''} ·{' '}
      {count.state === 'open' ? '—' : roll.to_find} to find
    </p>
  );
}

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
              {count ? formatAlertDateTime(count.started_at) : 'Not counted yet'}
            </p>
            {count && <BlockRoll count={count} block={block} />}
          </div>
          {count && <CountStateBadge state={count.state} />}
        </li>
      ))}
    </ul>
  );
}
