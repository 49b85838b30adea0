// Display formats shared by the screens (SPEC.md section 9).

/** An ISO date (YYYY-MM-DD, or an instant) as en-GB "day full-month year", e.g. "5 March 2024"; null when absent. */
export function formatLongDate(value: string | null | undefined): string | null {
  if (!value) return null;
  // A bare date is a calendar day, not an instant: read and print it in UTC so no time zone shifts it.
  const date = new Date(/^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value);
  if (Number.isNaN(date.getTime())) return value;
  return date.toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
}

/** An instant as en-US medium date and short time, e.g. "Mar 5, 2024, 2:07 PM" (SPEC.md section 9, alert lists). */
export function formatAlertDateTime(value: string | null | undefined): string {
  if (!value) return '';
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return value;
  return date.toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' });
}
