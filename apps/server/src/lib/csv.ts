// CSV cells a spreadsheet cannot run (OWASP "CSV injection"; decision 043). Every CSV the server writes goes through here.

// A spreadsheet reads a cell starting with one of these as a formula (`-2-3` is evaluated to -5, `=HYPERLINK(...)` runs).
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * One CSV cell: a number as written (a number is not a formula, and `-0.12` must stay a number); text starting with
 * = + - @ tab or carriage return gets a leading single quote, so it is shown as text; quoted when it holds a
 * separator, a quote or a line break.
 */
export function csvCell(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\n\r]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One CSV line (without its line break). */
export function csvLine(values: readonly (string | number | null | undefined)[]): string {
  return values.map(csvCell).join(',');
}
