// The near answer as a CSV file for the case file. A cell a spreadsheet would run as a formula (=, +, -, @ first)
// is prefixed with ' so it stays text.
import type { NearEntry } from '@prison/shared/investigations';

const cell = (value: string | number | null) => {
  let text = value === null ? '' : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\n\r]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
};

export function nearCsv(rows: readonly NearEntry[]): string {
  const header = ['name', 'prisoner_id', 'staff_id', 'first_at', 'last_at', 'min_distance_m', 'fixes', 'closest_latitude', 'closest_longitude'];
  const lines = rows.map((r) =>
    [r.name, r.prisoner_id, r.staff_id, r.first_at, r.last_at, r.min_distance_m, r.fixes, r.closest.latitude, r.closest.longitude].map(cell).join(','),
  );
  return [header.join(','), ...lines].join('\r\n') + '\r\n';
}

/** Starts a download of the text as a file (the answer is on screen already; no second question is asked). */
export function downloadText(text: string, filename: string, type = 'text/csv'): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
