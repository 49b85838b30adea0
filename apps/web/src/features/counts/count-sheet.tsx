// One roll count: its roll (expected, seen, out, to find), then the officer's step. While open he counts cell by cell;
// after a discrepancy the prisoners to find are named and it ends by a recount that agrees or by accounting for each
// one. Trackers that disagreed with what he saw are listed for a device check; they never decide the count.
import type { CountLine, CountRecord } from '@prison/shared/roll-count';
import { COUNT_OUT_REASON_LABELS } from '@prison/shared/roll-count';
import { formatAlertDateTime } from '../../lib/format';
import { useMay } from '../../lib/use-may';
import { AccountForm } from './account-form';
import { CellByCell } from './cell-by-cell';
import { CountLineIdentity } from './count-line-identity';
import { prisonerTag } from '../../lib/prisoner-label';
import { CountStateBadge, TrackerAdvice } from './count-badges';

export const countTitle = (count: Pick<CountRecord, 'block_id'>) =>
  count.block_id === null ? 'Whole prison' : `Block ${count.block_id}`;

function LineList({ lines, label, testId }: { lines: CountLine[]; label: string; testId: string }) {
  return (
    <ul aria-label={label} className="divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white">
      {lines.map((line) => (
        <li key={line.prisoner_id} data-testid={testId} className="p-3">
          <CountLineIdentity line={line} />
          <p className="text-xs text-slate-600">{prisonerTag({ prisonerId: line.prisoner_id, prisonNumber: line.prison_number, cellId: line.cell_id })}</p>
          <TrackerAdvice line={line} />
        </li>
      ))}
    </ul>
  );
}

/** The figures of the whole count: the roll's four numbers, and how many trackers placed their wearer in the block. */
function RollFigures({ count }: { count: CountRecord }) {
  const out = count.accounts.length;
  const seen = count.counted;
  return (
    <div className="flex flex-col gap-1">
      <dl className="grid grid-cols-4 gap-2 text-center">
        {(
          [
            ['Expected', 'expected', count.expected],
            ['Seen', 'seen', seen ?? '—'],
            ['Out', 'out', out],
            ['To find', 'to-find', count.state === 'open' ? '—' : count.missing],
          ] as const
        ).map(([label, id, value]) => (
          <div key={id} className="rounded-lg border border-slate-200 bg-white p-2">
            <dt className="text-xs text-slate-600">{label}</dt>
            <dd className="text-xl font-semibold" data-testid={`count-${id}`}>
              {value}
            </dd>
          </div>
        ))}
      </dl>
      <p className="text-xs text-slate-600">
        Trackers placing their wearer in the block: <span data-testid="count-located">{count.located}</span> of {count.expected}{' '}
        (advice only)
      </p>
    </div>
  );
}

function Outcome({ count }: { count: CountRecord }) {
  if (count.state === 'clear')
    return (
      <p role="status" className="rounded-lg bg-green-50 p-3 font-medium text-green-800">
        Count clear: every prisoner is accounted for.
      </p>
    );
  if (count.state === 'discrepancy' && count.seen === null)
    return (
      <p role="status" className="rounded-lg bg-red-50 p-3 font-medium text-red-800">
        Discrepancy: counted {count.counted} of {count.expected} expected
        {count.missing > 0 ? `; ${count.missing} missing, not named.` : '.'} Recount cell by cell to find who.
      </p>
    );
  if (count.state === 'discrepancy')
    return (
      <div className="flex flex-col gap-2">
        <p role="status" className="rounded-lg bg-red-50 p-3 font-medium text-red-800">
          Discrepancy: {count.missing} not seen. Recount until it agrees, or account for each one.
        </p>
        <LineList lines={count.to_find} label="Prisoners to find" testId="to-find" />
      </div>
    );
  if (count.state === 'closed')
    return (
      <div className="flex flex-col gap-2">
        <p role="status" className="rounded-lg bg-slate-100 p-3 font-medium text-slate-800">
          Closed by {count.closed_by}
          {count.accounts.length > 0 ? ': each prisoner not seen is accounted for.' : ' with a note (before each prisoner had to be accounted for).'}
        </p>
        {count.accounts.length > 0 && (
          <ul aria-label="Prisoners out" className="divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white">
            {count.accounts.map((account) => (
              <li key={account.prisoner_id} data-testid="out-line" className="p-3 text-sm">
                <span className="font-medium">{account.name}</span>: {COUNT_OUT_REASON_LABELS[account.reason]}
                {account.note ? ` (${account.note})` : ''}
              </li>
            ))}
          </ul>
        )}
        {count.close_note && <p className="text-sm text-slate-700">Note: {count.close_note}</p>}
      </div>
    );
  return null;
}

function TrackerChecks({ lines }: { lines: CountLine[] }) {
  if (lines.length === 0) return null;
  return (
    <section aria-labelledby="tracker-checks-title" className="flex flex-col gap-2">
      <h3 id="tracker-checks-title" className="font-semibold">
        Trackers to check ({lines.length})
      </h3>
      <p className="text-sm text-slate-600">Seen by the officer, yet placed elsewhere by the tracker: each raised a device check.</p>
      <LineList lines={lines} label="Trackers to check" testId="tracker-mismatch" />
    </section>
  );
}

export function CountSheet({ count }: { count: CountRecord }) {
  const mayWork = useMay('counts.work');
  const counting = mayWork && (count.state === 'open' || count.state === 'discrepancy');
  return (
    <section aria-labelledby="count-sheet-title" data-testid="count-sheet" className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="count-sheet-title" className="text-lg font-semibold">
          {countTitle(count)} count
        </h2>
        <CountStateBadge state={count.state} />
      </div>
      <p className="text-sm text-slate-600">
        Started {formatAlertDateTime(count.started_at)} by {count.started_by}
        {count.submissions.length > 1 ? ` · counted ${count.submissions.length} times, the last decides` : ''}
      </p>
      <RollFigures count={count} />
      <Outcome count={count} />
      {count.note && <p className="text-sm text-slate-700">Note: {count.note}</p>}
      <TrackerChecks lines={count.tracker_mismatches} />
      {mayWork && count.state === 'discrepancy' && count.seen !== null && count.to_find.length > 0 && <AccountForm count={count} />}
      {counting &&
        (count.lines.length === 0 ? (
          <p className="text-sm text-slate-600">No prisoner is assigned to these cells.</p>
        ) : (
          <CellByCell key={count.submissions.length} count={count} recount={count.state === 'discrepancy'} />
        ))}
      {!counting && count.lines.length > 0 && (
        <details className="rounded-lg border border-slate-200 bg-white p-3">
          <summary className="flex min-h-11 cursor-pointer items-center font-medium">The roll ({count.lines.length})</summary>
          <LineList lines={count.lines} label="Count lines" testId="count-line" />
        </details>
      )}
    </section>
  );
}
