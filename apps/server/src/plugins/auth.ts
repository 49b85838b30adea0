// Default-deny authentication: every route needs a live session unless its config says `public: true`.
// Decided from the route that matched (its options), never from the URL text: `/%61pi/v1/...`, `/api/v%31/...` and
// `/api/v1/...` reach the same handler, so they must meet the same check.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AUTH_COOKIE, BACKGROUND_REQUEST_HEADER, sessionEndedMessage, type SessionEndReason } from '@prison/shared';
import { checkSession, type AuthenticatedAdmin, type SessionCheck } from '../sessions/session-service';

/**
 * The session token from the session cookie (`auth-token`), or from `Authorization: Bearer` for API clients. A cookie
 * named `auth-cookie` is the spec's client's own marker and is never read (decision 016).
 */
export function tokenFromRequest(request: Pick<FastifyRequest, 'headers' | 'cookies'>): string | null {
  const header = request.headers.authorization;
  if (header?.startsWith('Bearer ')) return header.slice(7).trim() || null;
  return request.cookies?.[AUTH_COOKIE] || null;
}

/**
 * Whether the request is the user's activity for the idle timeout (decision 012): every request of an API client
 * (Bearer), and every browser request the web app does not mark as background (refetches after live events).
 */
export function isUserActivity(request: Pick<FastifyRequest, 'headers'>): boolean {
  if (request.headers.authorization?.startsWith('Bearer ')) return true;
  return request.headers[BACKGROUND_REQUEST_HEADER] !== '1';
}

/** The session behind the request's token: its admin, or why there is none. */
export async function sessionFromRequest(request: FastifyRequest): Promise<SessionCheck> {
  const token = tokenFromRequest(request);
  if (!token) return { admin: null, ended: null };
  return checkSession(request.server.db, token, {
    idleMinutes: request.server.config.SESSION_IDLE_MINUTES,
    activity: isUserActivity(request),
  });
}

/**
 * Answers 401. For a session that ended it says why (the browser shows it on /login) and drops the dead cookie;
 * otherwise only that a session is needed.
 */
export function refuseWithoutSession(reply: FastifyReply, ended: SessionEndReason | null, message = 'Authentication required') {
  if (!ended) return reply.status(401).send({ message });
  reply.clearCookie(AUTH_COOKIE, { path: '/' });
  const idleMinutes = reply.server.config.SESSION_IDLE_MINUTES;
  return reply.status(401).send({ message: sessionEndedMessage(ended, idleMinutes), reason: ended });
}

export function registerAuth(app: FastifyInstance) {
  app.decorateRequest('admin', null);
  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    // Nothing matched: the not-found handler answers, and it reads no data.
    if (request.is404) return;
    if (request.routeOptions.config?.public) return;
    const session = await sessionFromRequest(request);
    request.admin = session.admin;
    if (!request.admin) return refuseWithoutSession(reply, session.ended);
  });
}

/** The admin of an authenticated route (the hook guarantees one). */
export function requireAdmin(request: FastifyRequest): AuthenticatedAdmin {
  if (!request.admin) throw new Error('requireAdmin used on a public route');
  return request.admin;
}

/** Who did it, for the audit trail. */
export function auditActor(request: FastifyRequest) {
  const admin = request.admin;
  return { adminId: admin?.id ?? null, actor: admin?.username ?? 'anonymous', ip: request.ip };
}
