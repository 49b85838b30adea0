// Default-deny authentication: every route needs a live session unless its config says `public: true`.
// Decided from the route that matched (its options), never from the URL text: `/%61pi/v1/...`, `/api/v%31/...` and
// `/api/v1/...` reach the same handler, so they must meet the same check.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AUTH_COOKIE } from '@prison/shared';
import { findSessionAdmin } from '../modules/admin/session-service';
import type { AuthenticatedAdmin } from '../modules/admin/session-service';
import type { Db } from '../db/client';

/** The session token from the auth-cookie, or from `Authorization: Bearer` for API clients. */
export function tokenFromRequest(request: Pick<FastifyRequest, 'headers' | 'cookies'>): string | null {
  const header = request.headers.authorization;
  if (header?.startsWith('Bearer ')) return header.slice(7).trim() || null;
  return request.cookies?.[AUTH_COOKIE] || null;
}

export async function adminFromRequest(db: Db, request: FastifyRequest): Promise<AuthenticatedAdmin | null> {
  const token = tokenFromRequest(request);
  return token ? findSessionAdmin(db, token) : null;
}

export function registerAuth(app: FastifyInstance) {
  app.decorateRequest('admin', null);
  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    // Nothing matched: the not-found handler answers, and it reads no data.
    if (request.is404) return;
    if (request.routeOptions.config?.public) return;
    request.admin = await adminFromRequest(app.db, request);
    if (!request.admin) return reply.status(401).send({ message: 'Authentication required' });
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
