// The session's routes (docs/CLIENT-CONTRACT.md): log in (password, then two-factor when enrolled), verify the token,
// report activity so an idle session does not end, and log out.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AUTH_COOKIE,
  errorResponse,
  loginRefusal,
  loginRequest,
  loginResponse,
  logoutResponse,
  messageResponse,
  unauthorizedResponse,
  verifyTokenResponse,
} from '@prison/shared';
import { accountActions } from '../../plugins/account-gate';
import { auditActor, refuseWithoutSession, requireAdmin, sessionFromRequest } from '../../plugins/auth';
import { recordAudit } from '../../lib/audit';
import { login } from './login-service';
import { revokeSession, sessionIdToken } from '../../sessions/session-service';
import { identityProviderOf } from './oidc-identity-provider';
import { setSessionCookie } from './session-cookie';

const adminRoutes: FastifyPluginAsyncZod = async (app) => {
  // Logout after a single sign-on login sends the browser to the provider's own logout (decision 104).
  const identityProvider = identityProviderOf(app.config);
  app.post(
    '/admin/login',
    {
      config: { public: true, rateLimit: { max: app.config.LOGIN_RATE_LIMIT_PER_MINUTE, timeWindow: '1 minute' } },
      schema: {
        tags: ['admin'],
        summary:
          'Log in with username and password (and `totp`, the code or a recovery code, once two-factor login is on); ' +
          'sets the httpOnly session cookie `auth-token` for 1 day. A right password without its code answers 401 with `totpRequired: true`.',
        body: loginRequest,
        response: { 200: loginResponse, 400: errorResponse, 401: loginRefusal, 429: errorResponse },
      },
    },
    async (request, reply) => {
      const result = await login(app.db, {
        ...request.body,
        ip: request.ip,
        userAgent: request.headers['user-agent'],
      }, app.secretBox, app.serverMetrics.loginRefused);
      if (result.kind === 'totpRequired') return reply.status(401).send({ message: result.message, totpRequired: true });
      setSessionCookie(request, reply, result.token);
      return {
        token: result.token,
        isAuthenticated: true as const,
        name: result.admin.name,
        username: result.admin.username,
        adminId: result.admin.id,
        ...accountActions(result, app.config.REQUIRE_TOTP),
        role: result.admin.role,
        blocks: result.admin.blocks,
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
      return {
        isAuthenticated: true as const,
        name: admin.name,
        username: admin.username,
        adminId: admin.id,
        ...accountActions(admin, app.config.REQUIRE_TOTP),
        role: admin.role,
        blocks: admin.blocks,
      };
    },
  );

  app.post(
    '/admin/activity',
    {
      // Typing a new password on /profile is activity too.
      config: { access: 'self', accountSetup: true },
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
      config: { access: 'self', accountSetup: true },
      schema: {
        tags: ['admin'],
        summary:
          'Revoke this session and clear the cookie; after a single sign-on login, `end_session_url` is where the ' +
          "browser goes to end its session at the provider too (when the provider offers one)",
        response: { 200: logoutResponse },
      },
    },
    async (request, reply) => {
      const admin = requireAdmin(request);
      const idToken = identityProvider ? await sessionIdToken(app.db, admin.sessionId) : null;
      await revokeSession(app.db, admin.sessionId, 'logout');
      // The session's other tabs learn it at once.
      app.realtime.endSession(admin.sessionId, 'logout');
      await recordAudit(app.db, auditActor(request), { action: 'logout', entity: 'session', entityId: admin.sessionId });
      reply.clearCookie(AUTH_COOKIE, { path: '/' });
      // The session here is over whatever the provider answers; a provider that does not answer only costs its logout.
      const endSession = idToken
        ? await identityProvider!.endSessionUrl(idToken).catch((error: unknown) => {
            request.log.warn({ err: error }, 'single sign-on: the provider could not be asked where its logout is');
            return null;
          })
        : null;
      return endSession ? { message: 'Logged out', end_session_url: endSession.href } : { message: 'Logged out' };
    },
  );
};

export default adminRoutes;
