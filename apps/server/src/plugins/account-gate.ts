// Before anything else, an admin whose password broke the rule changes it, and with REQUIRE_TOTP an admin without
// two-factor login enrols. Until then only the routes that do this (config `accountSetup: true`) answer; the others
// say 403 why. Decided from the matched route, after the auth hook found the session.
import type { FastifyInstance } from 'fastify';
import { PASSWORD_CHANGE_REQUIRED_MESSAGE, TOTP_ENROLMENT_REQUIRED_MESSAGE } from '@prison/shared';
import type { AuthenticatedAdmin } from '../sessions/session-service';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Reachable while the admin must still change the password or enrol two-factor login. */
    accountSetup?: boolean;
  }
}

export interface AccountActions {
  passwordChangeRequired: boolean;
  totpEnrolmentRequired: boolean;
}

export function accountActions(
  admin: Pick<AuthenticatedAdmin, 'passwordChangeRequired' | 'totpEnabled'> & { sso?: boolean },
  requireTotp: boolean,
): AccountActions {
  return {
    passwordChangeRequired: admin.passwordChangeRequired,
    // A single sign-on account has no password to enrol with; its provider owns the second factor (decision 052).
    totpEnrolmentRequired: requireTotp && !admin.totpEnabled && !admin.sso,
  };
}

export function registerAccountGate(app: FastifyInstance) {
  app.addHook('onRequest', async (request, reply) => {
    if (!request.admin || request.routeOptions.config?.accountSetup) return;
    const pending = accountActions(request.admin, app.config.REQUIRE_TOTP);
    if (pending.passwordChangeRequired) return reply.status(403).send({ message: PASSWORD_CHANGE_REQUIRED_MESSAGE });
    if (pending.totpEnrolmentRequired) return reply.status(403).send({ message: TOTP_ENROLMENT_REQUIRED_MESSAGE });
  });
}
