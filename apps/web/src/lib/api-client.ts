// fetch for /api/v1: JSON in and out, the session cookie sent, errors carrying the server's message. A 401 where a
// session was expected means it ended: the browser goes to /login and says why (decision 012).
import { API_PREFIX } from '@prison/shared/constants';
import { BACKGROUND_REQUEST_HEADER } from '@prison/shared/session-end-reasons';
import { leaveForLogin, rememberSessionEnd, SESSION_ENDED_FALLBACK } from './session-end';
import { activitySent, isBackgroundRequest } from './user-activity';
import { reportApiStatus } from './service-status';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** The answer's JSON, for the fields beside `message` (the login's `totpRequired`). */
    readonly body?: unknown,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

type Query = Record<string, string | number | boolean | undefined | null>;

export function withQuery(path: string, query?: Query): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== '') params.set(key, String(value));
  }
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}

/** `signal`: a load TanStack Query cancels (a newer refetch, the screen left) is aborted, not left on the wire. */
export async function apiRequest<T>(method: string, path: string, body?: unknown, query?: Query, signal?: AbortSignal): Promise<T> {
  const headers: Record<string, string> = {};
  // A FormData body (a file upload) sets its own multipart content type with its boundary.
  const form = body instanceof FormData;
  if (body !== undefined && !form) headers['content-type'] = 'application/json';
  // Not the user's doing (a refetch after a live event, polling): it must not keep an idle session alive.
  if (isBackgroundRequest()) headers[BACKGROUND_REQUEST_HEADER] = '1';
  else activitySent();
  let response: Response;
  try {
    response = await fetch(`${API_PREFIX}${withQuery(path, query)}`, {
      method,
      credentials: 'same-origin',
      headers,
      body: body === undefined ? undefined : form ? body : JSON.stringify(body),
      signal,
    });
  } catch (error) {
    // Cancelled on purpose: no outage to report (TanStack Query ignores what a cancelled load throws).
    if (signal?.aborted) throw error;
    throw new ApiError(0, 'The server cannot be reached. Check the connection and try again.');
  }
  // A 503 shows the outage banner on every screen (and a later success hides it).
  reportApiStatus(response.status);
  const text = await response.text();
  const data = text ? safeJson(text) : undefined;
  if (!response.ok) {
    const { message = `Request failed (${response.status})`, reason } = (data ?? {}) as { message?: string; reason?: string };
    if (response.status === 401) sessionRefused(path, message, reason !== undefined);
    throw new ApiError(response.status, message, data);
  }
  return data as T;
}

/** A 401: on a wrong password nothing; on the session check remember why (the guards go to /login); else leave. */
function sessionRefused(path: string, message: string, ended: boolean) {
  if (path === '/admin/login') return;
  if (path === '/admin/verify-token') {
    if (ended) rememberSessionEnd(message);
    return;
  }
  leaveForLogin(ended ? message : SESSION_ENDED_FALLBACK);
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return { message: text };
  }
}

export const api = {
  /** Pass a queryFn's `signal`, so that a cancelled load is aborted. */
  get: <T>(path: string, query?: Query, signal?: AbortSignal) => apiRequest<T>('GET', path, undefined, query, signal),
  post: <T>(path: string, body?: unknown) => apiRequest<T>('POST', path, body ?? {}),
  put: <T>(path: string, body?: unknown) => apiRequest<T>('PUT', path, body ?? {}),
  patch: <T>(path: string, body?: unknown) => apiRequest<T>('PATCH', path, body ?? {}),
  /** A body only when given one (a delete that needs a reason, decision 041). */
  delete: <T>(path: string, body?: unknown) => apiRequest<T>('DELETE', path, body),
};

export function errorMessage(error: unknown, fallback: string): string {
  return error instanceof ApiError && error.message ? error.message : fallback;
}
