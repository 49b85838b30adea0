// Display formats shared by the screens (docs/CLIENT-CONTRACT.md).

/** An ISO date (YYYY-MM-DD, or an instant) as en-GB "day full-month year", e.g. "5 March 2024"; null when absent. */
export function formatLongDate(value: string | null | undefined): string | null {
  if (!value) return null;
  // A bare date is a calendar day, not an instant: read and print it in UTC so no time zone shifts it.
  const date = new Date(/^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value);
  if (Number.isNaN(date.getTime())) return value;
  return date.toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
}

/** An instant as en-US medium date and short time, e.g. "Mar 5, 2024, 2:07 PM" (docs/CLIENT-CONTRACT.md, alert lists). */
export function formatAlertDateTime(value: string | null | undefined): string {
  if (!value) return '';
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return value;
  return date.toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' });
}

/** How long ago, from a duration in ms: "just now", "40 s ago", "12 min ago", "3 h 5 min ago", "4 days ago". */
export function formatAge(ms: number, { justNow = true }: { justNow?: boolean } = {}): string {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  if (justNow && seconds < 10) return 'just now';
  if (seconds < 60) return `${seconds} s ago`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h ${minutes % 60} min ago`;
  return `${Math.floor(hours / 24)} days ago`;
}
