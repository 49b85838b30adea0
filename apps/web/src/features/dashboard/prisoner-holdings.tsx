// The Delete confirmation's account of what a prisoner still has (decision 042): Delete archives, so the operator sees
// what goes out of the lists with him (his tracker is freed, his escorts end, his open alerts stay to be worked).
import { ALERT_TYPES } from '@prison/shared/constants';
import type { PrisonerHoldings } from '@prison/shared/custody-archive';
import { errorMessage } from '../../lib/api-client';
import { usePrisonerHoldings } from './api';

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

function holdingLines(h: PrisonerHoldings): string[] {
  const openAlerts = [...ALERT_TYPES]
    .reverse()
    .filter((level) => h.open_alerts[level] > 0)
    .map((level) => `${h.open_alerts[level]} ${level}`);
  return [
    `Status: ${h.status ?? 'none'}`,
    h.tracking_device_id ? `Tracker: ${h.tracking_device_id} (it will be unassigned)` : 'Tracker: none',
    openAlerts.length ? `Open alerts: ${openAlerts.join(', ')} (they stay open)` : 'Open alerts: none',
    `Keep-apart pairs: ${h.keep_apart_pairs}`,
    h.active_escorts
      ? `${plural(h.active_escorts, 'active escort', 'active escorts')} (ended)`
      : 'Active escorts: none',
  ];
}

export function PrisonerHoldingsSummary({ prisonerId, label }: { prisonerId: number; label: string }) {
  const holdings = usePrisonerHoldings(prisonerId);
  return (
    <div>
      <span>{label}</span>
      <div className="mt-2 text-sm font-normal text-slate-700" data-testid="prisoner-holdings">
        {holdings.isPending ? (
          <p>Checking what this prisoner still has…</p>
        ) : holdings.isError ? (
          <p>{errorMessage(holdings.error, 'Could not read what this prisoner still has.')}</p>
        ) : (
          <>
            <p>He still has:</p>
            <ul className="mt-1 list-disc pl-5">
              {holdingLines(holdings.data).map((line) => (
                <li key={line}>{line}</li>
              ))}
            </ul>
          </>
        )}
        <p className="mt-2">
          The record is archived, not erased: his track, alerts and pairs stay, and an administrator can restore him
          from Archived records.
        </p>
      </div>
    </div>
  );
}
