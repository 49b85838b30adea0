// A prisoner's status as a coloured badge (docs/CLIENT-CONTRACT.md): Incarcerated red, Released green, On Trial yellow,
// anything else blue.
import { clsx } from 'clsx';

const tones: Record<string, string> = {
  Incarcerated: 'bg-red-100 text-red-800 ring-red-600/20',
  Released: 'bg-green-100 text-green-800 ring-green-600/20',
  'On Trial': 'bg-yellow-100 text-yellow-800 ring-yellow-600/20',
};
const otherTone = 'bg-blue-100 text-blue-800 ring-blue-600/20';

export function StatusBadge({ status, className }: { status: string | null | undefined; className?: string }) {
  return (
    <span
      data-testid="status-badge"
      className={clsx(
        'inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-medium whitespace-nowrap ring-1 ring-inset',
        (status && tones[status]) || otherTone,
        className,
      )}
    >
      {status || 'Unknown'}
    </span>
  );
}

/** A small count next to a tab label. */
export function CountBadge({ count }: { count: number | undefined }) {
  return (
    <span
      data-testid="count-badge"
      className="ml-2 inline-flex min-w-6 items-center justify-center rounded-full bg-slate-200 px-2 py-0.5 text-xs font-semibold text-slate-700"
    >
      {count ?? '…'}
    </span>
  );
}
