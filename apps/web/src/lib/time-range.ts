// The range presets of the history screen, computed at the moment they are chosen.
export const RANGE_PRESETS = ['last-hour', 'today', 'last-24-hours', 'custom'] as const;
export type RangePreset = (typeof RANGE_PRESETS)[number];

export const PRESET_LABELS: Record<RangePreset, string> = {
  'last-hour': 'Last hour',
  today: 'Today',
  'last-24-hours': 'Last 24 hours',
  custom: 'Custom',
};

export function presetRange(preset: Exclude<RangePreset, 'custom'>, now = new Date()): { from: string; to: string } {
  const to = now.toISOString();
  if (preset === 'last-hour') return { from: new Date(now.getTime() - 3_600_000).toISOString(), to };
  if (preset === 'last-24-hours') return { from: new Date(now.getTime() - 86_400_000).toISOString(), to };
  const midnight = new Date(now);
  midnight.setHours(0, 0, 0, 0);
  return { from: midnight.toISOString(), to };
}

/** An ISO instant as the value of a datetime-local input (local time, to the minute). */
export function toLocalInput(iso: string): string {
  const date = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

export function formatDuration(seconds: number): string {
  const s = Math.round(seconds);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const rest = s % 60;
  if (h) return `${h} h ${m} min`;
  if (m) return `${m} min ${rest} s`;
  return `${rest} s`;
}

export function formatDistance(metres: number): string {
  return metres >= 1000 ? `${(metres / 1000).toFixed(2)} km` : `${Math.round(metres)} m`;
}

export const formatPlayerTime = (ms: number) =>
  new Date(ms).toLocaleString('en-GB', {
    day: 'numeric',
    month: 'short',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  });
