// How often one problem was seen: repeats of one rule for one person fold into the open alert (a device alarm held
// down, a prisoner crossing one boundary again), so the card and the Critical bar say how often and when last.
import type { AlertRecord } from '@prison/shared/alert';
import { formatAlertDateTime } from '../../lib/format';

/** "Seen 5 times, last 12/08/2026 01:40"; null for a problem seen once (or a server that does not count). */
export function repeatSummary(alert: Pick<AlertRecord, 'repeat_count' | 'last_seen_at' | 'last_repeat_at'>): string | null {
  const count = alert.repeat_count ?? 1;
  const last = alert.last_seen_at ?? alert.last_repeat_at;
  if (count < 2 || !last) return null;
  return `Seen ${count} times, last ${formatAlertDateTime(last)}`;
}
