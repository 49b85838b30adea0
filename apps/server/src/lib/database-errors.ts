// Which errors mean "the database cannot be reached right now" (answer 503 and retry), as opposed to a bad
// statement or bad data. Drizzle wraps the driver's error (DrizzleQueryError, whose message holds the SQL and its
// parameters): the driver's error is on `cause`, so the whole chain is searched, and only codes are ever reported.
import { DrizzleQueryError } from 'drizzle-orm';

/** What every client is told while the database is unreachable. */
export const DATABASE_UNAVAILABLE_MESSAGE =
  'The database cannot be reached: data cannot be stored or read right now. Try again shortly.';
/** Seconds a client is asked to wait before retrying (the `Retry-After` header). */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

/** Socket errors of a connection that could not be opened or was lost. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
]);
/** SQLSTATEs of a server that is shutting down, starting up or full (class 08 is matched by its prefix). */
const UNAVAILABLE_SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300']);
/** node-postgres and pg-pool report lost connections and connect timeouts with these messages and no code. */
const CONNECTION_MESSAGES: [RegExp, string][] = [
  [/^Connection terminated due to connection timeout/, 'connection timeout'],
  [/^timeout exceeded when trying to connect/, 'connection timeout'],
  [/^Connection terminated/, 'connection terminated'],
  [/not queryable/, 'connection lost'],
];

interface ErrorLike {
  code?: unknown;
  message?: unknown;
  cause?: unknown;
  errors?: unknown;
}

/** The error and its causes (and an AggregateError's members), nearest first, a bounded number of them. */
function chain(error: unknown): ErrorLike[] {
  const found: ErrorLike[] = [];
  const queue: unknown[] = [error];
  while (queue.length && found.length < 10) {
    const next = queue.shift();
    if (typeof next !== 'object' || next === null || found.includes(next as ErrorLike)) continue;
    const item = next as ErrorLike;
    found.push(item);
    if (item.cause !== undefined) queue.push(item.cause);
    if (Array.isArray(item.errors)) queue.push(...(item.errors as unknown[]));
  }
  return found;
}

/**
 * Why the database is unreachable (a short code such as `ECONNREFUSED`, `57P01` or `connection timeout`), or null
 * when the error is of another kind. Never includes SQL or parameters.
 */
export function databaseUnavailableReason(error: unknown): string | null {
  for (const item of chain(error)) {
    const code = typeof item.code === 'string' ? item.code : '';
    if (NETWORK_CODES.has(code) || UNAVAILABLE_SQLSTATES.has(code) || /^08[0-9A-Z]{3}$/.test(code)) return code;
    const message = typeof item.message === 'string' ? item.message : '';
    for (const [pattern, reason] of CONNECTION_MESSAGES) if (pattern.test(message)) return reason;
  }
  return null;
}

/**
 * The driver's SQLSTATE and message (no SQL, no parameters) when the database server answered with an error. Only
 * an error the server sent carries a severity: Node's `EPIPE` is five capitals too.
 */
export function databaseErrorOf(error: unknown): { code: string; message: string } | null {
  for (const item of chain(error) as (ErrorLike & { severity?: unknown })[]) {
    if (typeof item.code === 'string' && /^[0-9A-Z]{5}$/.test(item.code) && typeof item.severity === 'string') {
      return { code: item.code, message: typeof item.message === 'string' ? item.message : '' };
    }
  }
  return null;
}

/**
 * The database refused these values: a data exception (class 22, e.g. a number out of a column's range) or an
 * integrity constraint (class 23). Another row may well be accepted, unlike a database that cannot be reached.
 */
export function isDataRefusal(error: unknown): boolean {
  const code = databaseErrorOf(error)?.code ?? '';
  return code.startsWith('22') || code.startsWith('23');
}

/** Drizzle's wrapper carries the statement and its parameters in its message and fields: never log it whole. */
export function withoutStatement(error: unknown): unknown {
  return error instanceof DrizzleQueryError ? (error.cause ?? new Error('database query failed')) : error;
}

/**
 * The `err` serializer of every logger the app builds: whatever logs an error, a Drizzle wrapper never puts the
 * statement and its parameters (prisoners' data) in the log.
 */
export function serializeErrorWithoutStatement(error: unknown): { type: string; message: string; stack: string; [key: string]: unknown } {
  const plain = withoutStatement(error);
  if (!(plain instanceof Error)) return { type: typeof plain, message: String(plain), stack: '' };
  const { code } = plain as { code?: unknown };
  return { type: plain.name, message: plain.message, stack: plain.stack ?? '', ...(code !== undefined ? { code } : {}) };
}
