// Occupants against capacity as a bar: green under 75 %, amber under 100 %, red when full.
import { clsx } from 'clsx';

export function occupancyTone(occupants: number, capacity: number): 'green' | 'amber' | 'red' {
  const ratio = capacity > 0 ? occupants / capacity : 1;
  return ratio >= 1 ? 'red' : ratio >= 0.75 ? 'amber' : 'green';
}

const fill = { green: 'bg-green-500', amber: 'bg-amber-500', red: 'bg-red-600' } as const;

export function OccupancyBar({ occupants, capacity, label }: { occupants: number; capacity: number; label: string }) {
  const tone = occupancyTone(occupants, capacity);
  const percent = capacity > 0 ? Math.min(100, Math.round((occupants / capacity) * 100)) : 100;
  return (
    <div className="flex items-center gap-2">
      <div
        role="meter"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={capacity}
        aria-valuenow={occupants}
        aria-valuetext={`${occupants} of ${capacity}`}
        data-tone={tone}
        className="h-2.5 flex-1 overflow-hidden rounded-full bg-slate-200"
      >
        <div className={clsx('h-full rounded-full', fill[tone])} style={{ width: `${percent}%` }} />
      </div>
      <span className="text-sm text-slate-700 tabular-nums">
        {occupants}/{capacity}
      </span>
    </div>
  );
}
