// Which browser pages may call this server with the operator's credentials (decisions 012 and 016). One rule for the
// API's cross-origin write guard, CORS and the Socket.IO handshake.

/** `Origin` as browsers serialise it (`scheme://host[:port]`, default port left out); null for `null` or garbage. */
export function normaliseOrigin(origin: string): string | null {
  try {
    const url = new URL(origin);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    return url.origin;
  } catch {
    return null;
  }
}

/**
 * An ALLOWED_ORIGINS entry: `scheme://host[:port]` with http or https and nothing after it (a path, query or
 * credentials would be silently dropped), normalised as browsers send `Origin`; else null.
 */
export function parseConfiguredOrigin(text: string): string | null {
  const origin = normaliseOrigin(text);
  if (origin === null) return null;
  const url = new URL(text);
  const onlyOrigin = url.pathname === '/' && !url.search && !url.hash && !url.username && !url.password;
  return onlyOrigin && !text.endsWith('#') && !text.endsWith('?') ? origin : null;
}

/** Whether `origin` is exactly one of ALLOWED_ORIGINS: scheme, host and port all equal. */
export function isListedOrigin(origin: string | undefined, allowedOrigins: readonly string[]): boolean {
  if (!origin) return false;
  const normalised = normaliseOrigin(origin);
  return normalised !== null && allowedOrigins.includes(normalised);
}

/**
 * Whether a page of `origin` may use this server with credentials: a page served by this server (its host, compared
 * by host because a TLS proxy in front changes the scheme) or one of ALLOWED_ORIGINS (compared as full origins, so
 * another scheme or port of a listed host stays out).
 */
export function isTrustedOrigin(origin: string, host: string | undefined, allowedOrigins: readonly string[]): boolean {
  if (isListedOrigin(origin, allowedOrigins)) return true;
  const normalised = normaliseOrigin(origin);
  return normalised !== null && host !== undefined && new URL(normalised).host === host.toLowerCase();
}
