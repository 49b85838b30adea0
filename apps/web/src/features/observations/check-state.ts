// How a prisoner's next check stands at a moment: overdue, due within five minutes, on time; "not scheduled" only for
// an answer without a due time (everyone in custody has one, decision 099).
import type { ObservationDueItem } from '@prison/shared/observation';

export type CheckState = 'overdue' | 'due-soon' | 'on-time' | 'unscheduled';

const SOON_MS = 5 * 60_000;

export function checkState(item: Pick<ObservationDueItem, 'due_at'>, now: number): CheckState {
  if (item.due_at === null) return 'unscheduled';
  const due = Date.parse(item.due_at);
  if (due <= now) return 'overdue';
  return due - now <= SOON_MS ? 'due-soon' : 'on-time';
}

/** Overdue first, then the soonest due; the unscheduled last. */
export function byUrgency<T extends Pick<ObservationDueItem, 'due_at'>>(items: readonly T[]): T[] {
  const time = (item: T) => (item.due_at === null ? Number.POSITIVE_INFINITY : Date.parse(item.due_at));
  return [...items].sort((a, b) => time(a) - time(b));
}

export const STATE_TEXT: Record<CheckState, string> = {
  overdue: 'Overdue',
  'due-soon': 'Due soon',
  'on-time': 'On time',
  unscheduled: 'Not scheduled',
};

/** Colour and text together (never colour alone); AA contrast on white. */
export const STATE_CLASS: Record<CheckState, string> = {
  overdue: 'bg-red-700 text-white',
  'due-soon': 'bg-amber-100 text-amber-900 border border-amber-300',
  'on-time': 'bg-green-100 text-green-900 border border-green-300',
  unscheduled: 'bg-slate-100 text-slate-800 border border-slate-300',
};
