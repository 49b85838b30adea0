// Input bounds shared by every route schema and the web forms (findings 7 and 8; decision 010).
// Messages do not repeat the field: the server's error handler puts the field's name in front ("first_name: ...").
// A required field that is missing or null says "is required" (not "must be text"), so the answer names what to do.
import { z } from 'zod';

/** The largest value of a PostgreSQL `integer` / `serial` column. */
export const INT32_MAX = 2_147_483_647;

/** Dates and instants outside these years are typing mistakes or probes, never data of a prison. */
export const MIN_YEAR = 1900;
export const MAX_YEAR = 2100;

const DAY_MS = 86_400_000;

/** The message of a required field that is missing, null or empty. */
export const REQUIRED = 'is required';

// C0 controls, DEL and C1 controls. Multi-line free text may hold tab, line feed and carriage return.
/* eslint-disable no-control-regex -- matching control characters is the point of these two */
const CONTROL_CHARACTERS = /[\u0000-\u001F\u007F-\u009F]/;
const CONTROL_CHARACTERS_BUT_LINES = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;
/* eslint-enable no-control-regex */
// Half of a UTF-16 pair on its own: not a character at all; PostgreSQL would store U+FFFD instead.
const LONE_SURROGATE = /\p{Cs}/u;
// Bidi embeddings, overrides and isolates (U+202A-U+202E, U+2066-U+2069): they reorder how the rest of a line is shown,
// so "\u202Eevila" reads "alive" (decision 043). Marks (LRM, RLM, ALM) stay allowed in free text: they change no order.
const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069]/;
// Every invisible format character (Unicode category Cf): zero-width space, (non-)joiner, word joiner, byte-order mark,
// left-to-right/right-to-left/Arabic letter marks, bidi embeddings, overrides and isolates, soft hyphen, tags. In a name
// or an id they make two values look alike or reorder how one is shown (decisions 010, 043).
const INVISIBLE_IN_NAMES = /\p{Cf}/u;
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;

export interface TextOptions {
  /** Free text of several lines (notes, records): tab, line feed and carriage return are allowed. */
  multiline?: boolean;
}

/** Characters a kind of text refuses beyond control characters, and the message that says so. */
interface Refused {
  pattern: RegExp;
  message: string;
}

const DIRECTION_OVERRIDES: Refused = {
  pattern: BIDI_CONTROLS,
  message: 'must not contain text-direction override characters',
};
const INVISIBLE: Refused = { pattern: INVISIBLE_IN_NAMES, message: 'must not contain invisible or text-direction characters' };

function checkedText(max: number, multiline: boolean, refused: Refused) {
  const control = multiline ? CONTROL_CHARACTERS_BUT_LINES : CONTROL_CHARACTERS;
  return z
    .string({ error: (issue) => (issue.input == null ? REQUIRED : 'must be text') })
    .trim()
    .normalize('NFC')
    .refine((value) => !LONE_SURROGATE.test(value), {
      message: 'must not contain lone surrogate characters',
      abort: true,
    })
    .refine((value) => !control.test(value), { message: 'must not contain control characters', abort: true })
    .refine((value) => !refused.pattern.test(value), { message: refused.message, abort: true })
    .max(max, `must be at most ${max} characters`);
}

/**
 * Text as people type it: trimmed, normalised to Unicode NFC (so one name is stored one way), at most `max`
 * characters, without NUL or other control characters, lone surrogates or bidi embeddings, overrides and isolates
 * (decision 043). A required field adds `.min(1, 'field is required')`, which then applies to the trimmed text.
 */
export function boundedText(max: number, { multiline = false }: TextOptions = {}) {
  return checkedText(max, multiline, DIRECTION_OVERRIDES);
}

/**
 * A person's or a place's name: `boundedText`, and no invisible or direction-changing characters (category Cf), and
 * at least one letter or digit when not empty (a name made only of marks or punctuation is nobody's name).
 */
export function nameText(max: number) {
  return checkedText(max, false, INVISIBLE).refine(
    (value) => value === '' || LETTER_OR_DIGIT.test(value),
    'must contain a letter or a digit',
  );
}

/**
 * An identifier typed or sent as text (device, tracking, cell and session ids): `boundedText`, and no invisible or
 * direction-changing character (category Cf), so `demo-perimeter\u200b` is not a second `demo-perimeter`.
 */
export function idText(max: number) {
  return checkedText(max, false, INVISIBLE);
}

/** The fewest characters of a reason (an override, an approval, a resolve note). */
export const REASON_MIN_LENGTH = 10;
// A word: two letters or more. Scripts written without spaces (Chinese, Japanese, Thai) count four letters as words.
const WORD = /\p{L}{2,}/gu;
const UNSPACED_LETTER = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}]/gu;

/** Whether a reason says something in words: two words of two letters or more, or four letters of an unspaced script. */
export function hasWords(value: string): boolean {
  return (value.match(WORD)?.length ?? 0) >= 2 || (value.match(UNSPACED_LETTER)?.length ?? 0) >= 4;
}

/**
 * Why someone did something out of the ordinary (a cell rule overridden, a change approved or refused, an alert
 * resolved): free text of at least `REASON_MIN_LENGTH` characters that holds at least two words, so ten dots or
 * "xxxxxxxxxx" are not a reason (decision 043). Required: chain `.nullable().optional()` where a reason may be absent.
 */
export function reasonText(max: number, { multiline = false }: TextOptions = {}) {
  return boundedText(max, { multiline })
    .min(REASON_MIN_LENGTH, `must be at least ${REASON_MIN_LENGTH} characters`)
    .refine(hasWords, 'must say why in words (at least two words)');
}

/**
 * A whole number sent as text (path parameters, query strings): plain decimal digits only (no `0x33`, `1e5`,
 * `Infinity` or empty text, which `Number()` would accept), within `[min, max]`; by default a positive id of an
 * `integer` column.
 */
export function intText(min = 1, max = INT32_MAX) {
  return z
    .string({ message: 'must be a whole number' })
    .regex(/^[+-]?\d{1,16}$/, 'must be a whole number in decimal digits')
    .transform(Number)
    .pipe(z.number().int().min(min, `must be ${min} or more`).max(max, `must be at most ${max}`));
}

/** A whole number of an `integer` column in a JSON body: by default a positive id. */
export function int32(min = 1, max = INT32_MAX) {
  return z
    .number({ message: 'must be a number' })
    .int('must be a whole number')
    .min(min, `must be ${min} or more`)
    .max(max, `must be at most ${max}`);
}

/** YYYY-MM-DD of a UTC instant. */
function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** The calendar fields as written exist: no 2026-02-30 (which `new Date` would roll over to 2026-03-02). */
function isRealDate(year: number, month: number, day: number): boolean {
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** An ISO calendar date, YYYY-MM-DD, that exists, in the years 1900 to 2100. */
export const isoDate = z
  .string({ error: (issue) => (issue.input == null ? REQUIRED : 'must be a date as YYYY-MM-DD') })
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date as YYYY-MM-DD')
  .refine((value) => {
    const [year, month, day] = value.split('-').map(Number) as [number, number, number];
    return isRealDate(year, month, day);
  }, 'must be a real calendar date')
  .refine((value) => {
    const year = Number(value.slice(0, 4));
    return year >= MIN_YEAR && year <= MAX_YEAR;
  }, `must be a date between ${MIN_YEAR} and ${MAX_YEAR}`);

/**
 * A date that has happened (birth, incident): not after today. "Today" is today anywhere on Earth (UTC+14), so a
 * clerk east of Greenwich can enter today's date before UTC midnight.
 */
export const pastDate = isoDate.refine(
  (value) => value <= utcDay(Date.now() + 14 * 3_600_000),
  'must not be in the future',
);

/** The day before which a date of birth must lie: today in UTC, the rule the server also applies to stored records. */
export function todayUtc(): string {
  return utcDay(Date.now());
}

/** A date of birth: a real date strictly before today (UTC). */
export const birthDate = isoDate.refine((value) => value < todayUtc(), 'must be in the past');

/** A date within a day of today (yesterday, today or tomorrow in UTC), as an alert's day. */
export const recentDate = isoDate.refine((value) => {
  const now = Date.now();
  return value >= utcDay(now - DAY_MS) && value <= utcDay(now + DAY_MS);
}, 'must be within a day of today');

const TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?(Z|[+-]\d{2}:?\d{2})?$/;

/**
 * "YYYY-MM-DD HH:MM:SS" (read as UTC), or an ISO instant with a fraction and an offset, checked field by field;
 * null when the text is not such a timestamp or names a day or time that does not exist.
 */
export function parseTimestamp(value: string): Date | null {
  const match = TIMESTAMP.exec(value);
  if (!match) return null;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number) as number[] as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  if (!isRealDate(year, month, day) || hour > 23 || minute > 59 || second > 59) return null;
  const zone = match[8] ?? 'Z';
  let offsetMinutes = 0;
  if (zone !== 'Z') {
    const hours = Number(zone.slice(1, 3));
    const minutes = Number(zone.slice(-2));
    if (hours > 23 || minutes > 59) return null;
    offsetMinutes = (zone.startsWith('-') ? -1 : 1) * (hours * 60 + minutes);
  }
  const fraction = match[7] ? Math.floor(Number(`0${match[7]}`) * 1000) : 0;
  return new Date(Date.UTC(year, month - 1, day, hour, minute, second, fraction) - offsetMinutes * 60_000);
}

/** An alert's time: a real timestamp (see `parseTimestamp`) within a day of now. */
export const recentTimestamp = z
  .string({ message: 'must be a timestamp as YYYY-MM-DD HH:MM:SS' })
  .max(40, 'must be a timestamp as YYYY-MM-DD HH:MM:SS')
  .refine((value) => parseTimestamp(value) !== null, {
    message: 'must be a real timestamp as YYYY-MM-DD HH:MM:SS',
    abort: true,
  })
  .refine((value) => Math.abs(parseTimestamp(value)!.getTime() - Date.now()) <= DAY_MS, 'must be within a day of now');

/** An ISO instant with an offset (query ranges), in the years 1900 to 2100. */
export function isoInstant(message = 'must be an ISO instant, e.g. 2026-01-31T08:00:00Z') {
  return z
    .string({ message })
    .datetime({ offset: true, message })
    .refine((value) => {
      const year = new Date(value).getUTCFullYear();
      return year >= MIN_YEAR && year <= MAX_YEAR;
    }, `must be between ${MIN_YEAR} and ${MAX_YEAR}`);
}
