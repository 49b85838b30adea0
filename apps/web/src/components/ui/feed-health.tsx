// The live feed's state on every logged-in screen (decision 028): "Live" in the top bar, and a banner
// under it while the feed is reconnecting or lost, saying how old the shown data are.
import { clsx } from 'clsx';
import { RefreshCw, WifiOff } from 'lucide-react';
import { formatClock, isStale, useFeedHealth, type FeedState } from '../../lib/feed-health';
import { formatAge } from '../../lib/format';
import { useNow } from '../../lib/use-now';
import { OutageBanner } from './service-banner';

const INDICATOR: Record<FeedState, { text: string; dot: string }> = {
  connecting: { text: 'Connecting…', dot: 'bg-slate-300' },
  live: { text: 'Live', dot: 'bg-green-400' },
  partial: { text: 'Partly live', dot: 'bg-amber-300' },
  reconnecting: { text: 'Reconnecting…', dot: 'bg-amber-300' },
  lost: { text: 'Feed lost', dot: 'bg-red-400' },
};

/** The compact indicator for the top bar. */
export function FeedHealthIndicator() {
  const { state } = useFeedHealth();
  const { text, dot } = INDICATOR[state];
  return (
    <span
      className="flex items-center gap-1.5 text-sm whitespace-nowrap text-slate-100"
      data-testid="feed-indicator"
      data-state={state}
      title="Live feed"
    >
      <span aria-hidden="true" className={clsx('h-2.5 w-2.5 shrink-0 rounded-full', dot)} />
      <span className="sr-only">Live feed: {text}</span>
      {/* A dot alone on a phone: the banner says the rest when it matters. */}
      <span aria-hidden="true" className="hidden sm:inline">
        {text}
      </span>
    </span>
  );
}

/** "data as of 14:02:11 (35 s ago)", ticking; "no live data received" when there were none. */
export function DataAsOf({ time, className }: { time: number | null; className?: string }) {
  const now = useNow(1_000, time !== null);
  if (time === null) return <span className={className}>no live data received</span>;
  return (
    <span className={className} data-testid="data-as-of">
      data as of <time dateTime={new Date(time).toISOString()}>{formatClock(time)}</time>{' '}
      {/* The age ticks every second; a screen reader hears the sentence once, not every tick. */}
      <span aria-live="off">({formatAge(now - time, { justNow: false })})</span>
    </span>
  );
}

/** Always rendered (an empty live region), so that the banner appearing in it is announced. */
export function FeedHealthBanner() {
  const { state, dataAsOf } = useFeedHealth();
  return (
    <div role="status" aria-live="polite" data-testid="feed-health-region">
      {isStale(state) &&
        (state === 'partial' ? (
          <OutageBanner tone="amber" icon={<RefreshCw />} testId="feed-banner">
            Live updates from the other servers are interrupted: trackers and alerts they receive may be missing here.
            Complete <DataAsOf time={dataAsOf} />.
          </OutageBanner>
        ) : state === 'reconnecting' ? (
          <OutageBanner tone="amber" icon={<RefreshCw />} testId="feed-banner">
            Reconnecting… <DataAsOf time={dataAsOf} />
          </OutageBanner>
        ) : (
          <OutageBanner tone="red" icon={<WifiOff />} testId="feed-banner">
            Live feed lost — <DataAsOf time={dataAsOf} />. Retrying…
          </OutageBanner>
        ))}
    </div>
  );
}
