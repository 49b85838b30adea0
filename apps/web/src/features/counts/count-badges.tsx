// The state of a count line and of a count as badges: colour and text together (never colour alone), AA contrast.
import { clsx } from 'clsx';
import type { CountLine } from '@prison/shared/roll-count';
import { COUNT_LINE_LABELS, type CountLineState, type CountState } from '@prison/shared/roll-count-labels';

const badgeClass = 'inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-medium whitespace-nowrap ring-1 ring-inset';

const LINE_TONES: Record<CountLineState, string> = {
  in_block: 'bg-green-100 text-green-800 ring-green-600/20',
  elsewhere: 'bg-amber-100 text-amber-900 ring-amber-600/20',
  offline: 'bg-slate-200 text-slate-800 ring-slate-600/20',
  untracked: 'bg-blue-100 text-blue-800 ring-blue-600/20',
};

export function LineStateBadge({ state }: { state: CountLineState }) {
  return (
    <span data-testid="line-state" className={clsx(badgeClass, LINE_TONES[state])}>
      {COUNT_LINE_LABELS[state]}
    </span>
  );
}

/** What a prisoner's tracker advises (never what decides): its state, where when elsewhere. */
export function TrackerAdvice({ line }: { line: CountLine }) {
  return (
    <p className="flex flex-wrap items-center gap-1 text-xs text-slate-600">
      <span>Tracker:</span>
      <LineStateBadge state={line.state} />
      {line.state === 'elsewhere' && line.where && <span>{line.where}</span>}
    </p>
  );
}

const COUNT_LABELS: Record<CountState, string> = {
  open: 'In progress',
  clear: 'Clear',
  discrepancy: 'Discrepancy',
  closed: 'Closed',
};
const COUNT_TONES: Record<CountState, string> = {
  open: 'bg-blue-100 text-blue-800 ring-blue-600/20',
  clear: 'bg-green-100 text-green-800 ring-green-600/20',
  discrepancy: 'bg-red-100 text-red-800 ring-red-600/20',
  closed: 'bg-slate-200 text-slate-800 ring-slate-600/20',
};

export function CountStateBadge({ state }: { state: CountState }) {
  return (
    <span data-testid="count-state" className={clsx(badgeClass, COUNT_TONES[state])}>
      {COUNT_LABELS[state]}
    </span>
  );
}
