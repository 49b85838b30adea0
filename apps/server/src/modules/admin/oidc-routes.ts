// Single sign-on routes (decision 052), all public: whether it is on, the start (to the provider) and the callback
// (back from it, to `/` logged in or to `/login?sso=<why>`). Off without OIDC_ISSUER.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { API_PREFIX, OIDC_CALLBACK_PATH, OIDC_START_PATH, OIDC_STATUS_PATH, errorResponse, oidcStatus } from '@prison/shared';
import { notFound } from '../../lib/http-errors';
import { identityProviderOf } from './oidc-identity-provider';
import { OIDC_ATTEMPT_SECONDS } from './oidc-login-attempts';
import { finishOidcLogin, startOidcLogin } from './oidc-login-service';
import { cookieSecure, setSessionCookie } from './session-cookie';

/** The browser's key of its login in progress; sent only to the callback's path. */
const ATTEMPT_COOKIE = 'oidc-login';
const ATTEMPT_COOKIE_PATH = `${API_PREFIX}/auth/oidc`;

/** The authorization response's parameters (RFC 6749 4.1.2, RFC 9207's `iss`); others are dropped. */
const responseParameter = z.string().max(4096).optional();
const callbackQuery = z.object({
  code: responseParameter,
  state: responseParameter,
  iss: responseParameter,
  session_state: responseParameter,
  error: z.string().max(200).optional(),
  error_description: responseParameter,
  error_uri: responseParameter,
});

const oidcRoutes: FastifyPluginAsyncZod = async (app) => {
  const { config } = app;
  const provider = identityProviderOf(config);
  const requireProvider = () => {
    if (!provider) throw notFound('Single sign-on is not configured (OIDC_ISSUER)');
    return provider;
  };
  // Both ends of the flow count against the login limit per address.
  const loginRoute = {
    public: true,
    rateLimit: { max: config.LOGIN_RATE_LIMIT_PER_MINUTE, timeWindow: '1 minute' },
  } as const;

  app.get(
    OIDC_STATUS_PATH,
    {
      config: { public: true },
      schema: { tags: ['admin'], summary: 'Whether single sign-on (OpenID Connect) is configured', response: { 200: oidcStatus } },
    },
    async () => ({ enabled: provider !== null }),
  );

  app.get(
    OIDC_START_PATH,
    {
      config: loginRoute,
      schema: {
        tags: ['admin'],
        summary:
          'Start a single sign-on: redirects (302) to the identity provider (authorization code flow with PKCE, state ' +
          'and nonce); its return is the callback. 404 when single sign-on is not configured.',
        response: { 404: errorResponse },
      },
    },
    async (request, reply) => {
      const identityProvider = requireProvider();
      const redirectUri = config.OIDC_REDIRECT_URI ?? `${request.protocol}://${request.host}${API_PREFIX}${OIDC_CALLBACK_PATH}`;
      let started: Awaited<ReturnType<typeof startOidcLogin>>;
      try {
        started = await startOidcLogin(app.db, identityProvider, redirectUri);
      } catch (error) {
        request.log.warn({ err: error }, 'single sign-on: the identity provider could not be reached or discovered');
        return reply.redirect('/login?sso=failed', 302);
      }
      reply.setCookie(ATTEMPT_COOKIE, started.attemptKey, {
        path: ATTEMPT_COOKIE_PATH,
        httpOnly: true,
        // Lax: the provider's redirect back is a top-level GET navigation, which carries it.
        sameSite: 'lax',
        secure: cookieSecure(request),
        maxAge: OIDC_ATTEMPT_SECONDS,
      });
      return reply.redirect(started.authorizationUrl.href, 302);
    },
  );

  app.get(
    OIDC_CALLBACK_PATH,
    {
      config: loginRoute,
      schema: {
        tags: ['admin'],
        summary:
          'Return from the identity provider: checks state, nonce and PKCE, exchanges the code once, maps the role and ' +
          'blocks claims, sets the session cookie and redirects (302) to `/`; a refusal redirects to `/login?sso=<reason>`.',
        querystring: callbackQuery,
        response: { 404: errorResponse },
      },
    },
    async (request, reply) => {
      const identityProvider = requireProvider();
      const response = new URLSearchParams();
      for (const [name, value] of Object.entries(request.query)) if (value !== undefined) response.set(name, value);
      const result = await finishOidcLogin(app.db, identityProvider, {
        attemptKey: request.cookies[ATTEMPT_COOKIE],
        response,
        roleClaim: config.OIDC_ROLE_CLAIM,
        blocksClaim: config.OIDC_BLOCKS_CLAIM,
        ip: request.ip,
        userAgent: request.headers['user-agent'],
      });
      reply.clearCookie(ATTEMPT_COOKIE, { path: ATTEMPT_COOKIE_PATH });
      if (result.kind === 'refused') {
        request.log.warn({ refusal: result.refusal, why: result.why }, 'single sign-on refused');
        return reply.redirect(`/login?sso=${result.refusal}`, 302);
      }
      setSessionCookie(request, reply, result.token);
      return reply.redirect('/', 302);
    },
  );
};

export default oidcRoutes;
