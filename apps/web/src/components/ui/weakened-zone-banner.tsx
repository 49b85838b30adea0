// While a Critical zone is weakened (an approved change with an end time, decision 091), every staff screen says so
// under the top bar: which zone, who asked, who approved, until when. It goes by itself at the end time.
import { useQuery } from '@tanstack/react-query';
import { ShieldAlert } from 'lucide-react';
import type { ActiveWeakening } from '@prison/shared/pending-change';
import { weakeningBannerText } from '@prison/shared/weakening-banner';
import { api } from '../../lib/api-client';
import { formatAlertDateTime } from '../../lib/format';
import { useNow } from '../../lib/use-now';
import { OutageBanner } from './service-banner';

/** Under the pending changes' key: the socket's `dataChanged('pending-changes')` refetches it (a decision, a revert). */
export const WEAKENINGS_QUERY_KEY = ['pending-changes', 'weakened'] as const;

export function WeakenedZoneBanner() {
  const weakenings = useQuery({
    queryKey: WEAKENINGS_QUERY_KEY,
    queryFn: ({ signal }) => api.get<{ data: ActiveWeakening[] }>('/pending-changes/weakened', undefined, signal).then((r) => r.data),
    // A missed event (a lost connection) is caught up within a minute.
    refetchInterval: 60_000,
  });
  const now = useNow(15_000);
  // The latest approved first: the newest weakening is the one a screen has not said yet.
  const critical = (weakenings.data ?? [])
    .filter((w) => w.level === 'Critical' && Date.parse(w.until) > now)
    .sort((a, b) => Date.parse(b.approved_at) - Date.parse(a.approved_at));
  const [first] = critical;
  // Always rendered (an empty live region), so that a banner appearing in it is announced. One line however many:
  // the latest, and how many more.
  return (
    <div role="status" aria-live="polite" data-testid="weakened-zone-region">
      {first && (
        <OutageBanner tone="amber" icon={<ShieldAlert />} testId="weakened-zone-banner">
          {weakeningBannerText(first, formatAlertDateTime(first.until))}
          {critical.length > 1 && ` (and ${critical.length - 1} more Critical ${critical.length === 2 ? 'zone' : 'zones'} weakened)`}
        </OutageBanner>
      )}
    </div>
  );
}
