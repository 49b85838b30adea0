import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AUTH_COOKIE,
  SESSION_TTL_SECONDS,
  errorResponse,
  loginRequest,
  loginResponse,
  messageResponse,
  unauthorizedResponse,
  verifyTokenResponse,
} from '@prison/shared';
import { auditActor, refuseWithoutSession, requireAdmin, sessionFromRequest } from '../../plugins/auth';
import { recordAudit } from '../../lib/audit';
import { login } from './login-service';
import { revokeSession } from './session-service';

const adminRoutes: FastifyPluginAsyncZod = async (app) => {
  const secureCookie = (protocol: string) => app.config.COOKIE_SECURE ?? protocol === 'https';

  app.post(
    '/admin/login',
    {
      config: { public: true, rateLimit: { max: app.config.LOGIN_RATE_LIMIT_PER_MINUTE, timeWindow: '1 minute' } },
      schema: {
        tags: ['admin'],
        summary: 'Log in with username and password; sets the auth-cookie for 1 day',
        body: loginRequest,
        response: { 200: loginResponse, 400: errorResponse, 401: errorResponse, 429: errorResponse },
      },
    },
    async (request, reply) => {
      const result = await login(app.db, {
        ...request.body,
        ip: request.ip,
        userAgent: request.headers['user-agent'],
      });
      reply.setCookie(AUTH_COOKIE, result.token, {
        path: '/',
        httpOnly: true,
        sameSite: 'lax',
        secure: secureCookie(request.protocol),
        maxAge: SESSION_TTL_SECONDS,
      });
      return {
        token: result.token,
        isAuthenticated: true as const,
        name: result.admin.name,
        username: result.admin.username,
        adminId: result.admin.id,
      };
    },
  );

  app.get(
    '/admin/verify-token',
    {
      config: { public: true },
      schema: {
        tags: ['admin'],
        summary: 'Tell whether the cookie or bearer token is a live session',
        response: { 200: verifyTokenResponse, 401: unauthorizedResponse },
      },
    },
    async (request, reply) => {
      const { admin, ended } = await sessionFromRequest(request);
      if (!admin) return refuseWithoutSession(reply, ended, 'Not authenticated');
      return { isAuthenticated: true as const, name: admin.name, username: admin.username, adminId: admin.id };
    },
  );

  app.post(
    '/admin/activity',
    {
      schema: {
        tags: ['admin'],
        summary: 'Tell the server the user is active (mouse or keyboard) so the session does not end as idle',
        response: { 200: messageResponse },
      },
    },
    // The auth hook has recorded the activity: this request is not marked as background.
    async () => ({ message: 'Activity recorded' }),
  );

  app.post(
    '/admin/logout',
    {
      schema: { tags: ['admin'], summary: 'Revoke this session and clear the cookie', response: { 200: messageResponse } },
    },
    async (request, reply) => {
      const admin = requireAdmin(request);
      await revokeSession(app.db, admin.sessionId, 'logout');
      // The session's other tabs learn it at once.
      app.realtime.endSession(admin.sessionId, 'logout');
      await recordAudit(app.db, auditActor(request), { action: 'logout', entity: 'session', entityId: admin.sessionId });
      reply.clearCookie(AUTH_COOKIE, { path: '/' });
      return { message: 'Logged out' };
    },
  );
};

export default adminRoutes;
