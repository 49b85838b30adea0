// The session cookie as every login sets it (password or single sign-on): httpOnly `auth-token`, SameSite Lax, 1 day.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AUTH_COOKIE, SESSION_TTL_SECONDS } from '@prison/shared';

/** Secure when COOKIE_SECURE says so, else when the request came over HTTPS. */
export function cookieSecure(request: FastifyRequest): boolean {
  return request.server.config.COOKIE_SECURE ?? request.protocol === 'https';
}

export function setSessionCookie(request: FastifyRequest, reply: FastifyReply, token: string): void {
  reply.setCookie(AUTH_COOKIE, token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: cookieSecure(request),
    maxAge: SESSION_TTL_SECONDS,
  });
}
