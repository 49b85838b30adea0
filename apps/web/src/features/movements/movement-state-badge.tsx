// A movement's (or a prisoner's) state as a badge with its word and colour (never colour alone; AA contrast).
import { clsx } from 'clsx';
import { MOVEMENT_STATE_LABELS, type MovementState } from '@prison/shared/movement';

const tones: Record<MovementState, string> = {
  underway: 'bg-blue-100 text-blue-800 ring-blue-600/20',
  arrived: 'bg-green-100 text-green-800 ring-green-600/20',
  overdue: 'bg-red-100 text-red-800 ring-red-600/20',
  off_route: 'bg-amber-100 text-amber-900 ring-amber-600/20',
};

export function MovementStateBadge({ state }: { state: MovementState }) {
  return (
    <span
      data-testid="movement-state"
      data-state={state}
      className={clsx('inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-medium whitespace-nowrap ring-1 ring-inset', tones[state])}
    >
      {MOVEMENT_STATE_LABELS[state]}
    </span>
  );
}
