// Reads the SQLSTATE of a database error (PostgreSQL and PGlite alike, also when Drizzle wraps it in `cause`).

interface WithCode {
  code?: unknown;
  severity?: unknown;
  cause?: unknown;
}

/** The five-character SQLSTATE the server sent, or null (a network error, a driver error, not a database error). */
export function sqlStateOf(error: unknown): string | null {
  for (let e = error as WithCode | undefined, depth = 0; e && typeof e === 'object' && depth < 5; e = e.cause as WithCode, depth++) {
    // Only an error the server answered carries a severity; Node's EPIPE is five letters too.
    if (typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code) && typeof e.severity === 'string') return e.code;
  }
  return null;
}

/**
 * The database refused these values: a data exception (class 22, e.g. a number out of a column's range) or an
 * integrity constraint (class 23). Another row may well be accepted, unlike a database that cannot be reached.
 */
export function isDataRefusal(error: unknown): boolean {
  const state = sqlStateOf(error);
  return state !== null && (state.startsWith('22') || state.startsWith('23'));
}
