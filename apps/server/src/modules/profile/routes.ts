// Profile (/profile): the admin's own account and sessions, and the admins list.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  adminAccount,
  adminAccountPending,
  adminCreateRequest,
  adminList,
  adminUpdateRequest,
  criticalSoundRequest,
  criticalSoundSetting,
  errorResponse,
  idText,
  intText,
  messageResponse,
  passwordChangeRequest,
  profile,
  sessionList,
  totpConfirmRequest,
  totpDisableRequest,
  totpRecoveryCodes,
  totpSetup,
  totpStatus,
} from '@prison/shared';
import { auditActor, requireAdmin } from '../../plugins/auth';
import { addAdmin, disableAdmin, enableAdmin, listAdmins, unlockAdmin, updateAdmin } from './admins-service';
import { changePassword, getCriticalSound, getProfile, listSessions, revokeOwnSession, setCriticalSound } from './profile-service';
import { confirmTotpEnrolment, disableTotp, getTotpStatus, startTotpEnrolment } from '../admin/totp-service';

/** Guessing a 6-digit code from a stolen session is slowed down like a login. */
const codeRateLimit = { max: 10, timeWindow: '1 minute' };

const adminIdParams = z.object({ id: intText() });

const profileRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/profile',
    {
      config: { access: 'self', accountSetup: true },
      schema: { tags: ['profile'], summary: "The signed-in admin's account", response: { 200: profile } },
    },
    async (request) => getProfile(app.db, requireAdmin(request).id),
  );

  app.get(
    '/profile/critical-sound',
    {
      config: { access: 'self' },
      schema: {
        tags: ['profile'],
        summary: "Whether this account hears the Critical alert sound: its own choice, or its role's default",
        response: { 200: criticalSoundSetting },
      },
    },
    async (request) => getCriticalSound(app.db, requireAdmin(request).id),
  );

  app.put(
    '/profile/critical-sound',
    {
      config: { access: 'self' },
      schema: {
        tags: ['profile'],
        summary: 'Turn the Critical alert sound on or off for this account (each account sets its own)',
        body: criticalSoundRequest,
        response: { 200: criticalSoundSetting, 400: errorResponse },
      },
    },
    async (request) => setCriticalSound(app.db, requireAdmin(request).id, request.body.on, auditActor(request)),
  );

  app.post(
    '/profile/password',
    {
      config: { access: 'self', accountSetup: true },
      schema: {
        tags: ['profile'],
        summary: 'Change the password (the current one is required); every other session of this admin ends',
        body: passwordChangeRequest,
        response: { 200: messageResponse, 400: errorResponse },
      },
    },
    async (request) => {
      const ended = await changePassword(app.db, requireAdmin(request), request.body, auditActor(request));
      for (const sessionId of ended) app.realtime.endSession(sessionId, 'password_changed');
      return { message: 'Password changed' };
    },
  );

  app.get(
    '/profile/totp',
    {
      config: { access: 'self', accountSetup: true },
      schema: {
        tags: ['profile'],
        summary: 'Whether two-factor login is on, and recovery codes left',
        response: { 200: totpStatus },
      },
    },
    async (request) => getTotpStatus(app.db, requireAdmin(request).id, app.config.REQUIRE_TOTP),
  );

  app.post(
    '/profile/totp/setup',
    {
      config: { access: 'self', accountSetup: true },
      schema: {
        tags: ['profile'],
        summary: 'Start two-factor enrolment: a new secret as a QR code and as text, waiting for its first code',
        response: { 200: totpSetup, 409: errorResponse },
      },
    },
    async (request) => startTotpEnrolment(app.db, app.secretBox, requireAdmin(request)),
  );

  app.post(
    '/profile/totp/confirm',
    {
      config: { access: 'self', accountSetup: true, rateLimit: codeRateLimit },
      schema: {
        tags: ['profile'],
        summary:
          'Confirm enrolment with the current password and the first code; every other session of this admin ends; ' +
          'answers the ten single-use recovery codes, shown this once',
        body: totpConfirmRequest,
        response: { 200: totpRecoveryCodes, 400: errorResponse, 409: errorResponse, 429: errorResponse },
      },
    },
    async (request) => {
      const enabled = await confirmTotpEnrolment(
        app.db,
        app.secretBox,
        requireAdmin(request),
        request.body,
        auditActor(request),
      );
      for (const sessionId of enabled.endedSessionIds) app.realtime.endSession(sessionId, 'two_factor_enabled');
      return { recovery_codes: enabled.recoveryCodes };
    },
  );

  app.post(
    '/profile/totp/disable',
    {
      config: { access: 'self', accountSetup: true, rateLimit: codeRateLimit },
      schema: {
        tags: ['profile'],
        summary: 'Turn two-factor login off with a current code or a recovery code',
        body: totpDisableRequest,
        response: { 200: messageResponse, 400: errorResponse, 429: errorResponse },
      },
    },
    async (request) => {
      await disableTotp(app.db, app.secretBox, requireAdmin(request), request.body.code, auditActor(request));
      return { message: 'Two-factor login is off' };
    },
  );

  app.get(
    '/profile/sessions',
    { config: { access: 'self' }, schema: { tags: ['profile'], summary: "The signed-in admin's active sessions", response: { 200: sessionList } } },
    async (request) => ({ sessions: await listSessions(app.db, requireAdmin(request)) }),
  );

  app.delete(
    '/profile/sessions/:id',
    {
      config: { access: 'self' },
      schema: {
        tags: ['profile'],
        summary: 'Revoke one of my sessions: its browser is logged out at once',
        params: z.object({ id: idText(100).min(1, 'id is required') }),
        response: { 200: messageResponse, 404: errorResponse },
      },
    },
    async (request) => {
      await revokeOwnSession(app.db, requireAdmin(request), request.params.id, auditActor(request));
      app.realtime.endSession(request.params.id, 'revoked');
      return { message: 'Session revoked' };
    },
  );

  app.get(
    '/admins',
    { config: { access: 'accounts.manage' }, schema: { tags: ['admins'], summary: 'Every admin account', response: { 200: adminList } } },
    async () => ({
      admins: await listAdmins(app.db),
    }),
  );

  app.post(
    '/admins',
    {
      config: { access: 'accounts.manage' },
      schema: {
        tags: ['admins'],
        summary:
          'Create an account with a role (absent: administrator) and a caseload (`blocks`: block names, each existing; absent or empty: every block). ' +
          'An administrator answers 202: the account is disabled until a second, existing administrator approves it',
        body: adminCreateRequest,
        response: { 200: adminAccount, 202: adminAccountPending, 400: errorResponse, 409: errorResponse },
      },
    },
    async (request, reply) => {
      const { account, pending } = await addAdmin(app.db, request.body, auditActor(request));
      if (!pending) return account;
      app.realtime.toBrowsers().emit('dataChanged', 'pending-changes');
      return reply.code(202).send({ ...account, pending });
    },
  );

  app.put(
    '/admins/:id',
    {
      config: { access: 'accounts.manage' },
      schema: {
        tags: ['admins'],
        summary:
          "Change an account's name, role or caseload (blocks); its sessions follow within 2 s. The last active administrator cannot be demoted (409). " +
          'Raising an account to administrator answers 202: the whole change waits for a second, existing administrator',
        params: adminIdParams,
        body: adminUpdateRequest,
        response: { 200: adminAccount, 202: adminAccountPending, 400: errorResponse, 404: errorResponse, 409: errorResponse },
      },
    },
    async (request, reply) => {
      const { account, pending } = await updateAdmin(app.db, request.params.id, request.body, auditActor(request));
      if (pending) {
        app.realtime.toBrowsers().emit('dataChanged', 'pending-changes');
        return reply.code(202).send({ ...account, pending });
      }
      // Open screens of accounts (the profile's list, and the account itself) refetch.
      app.realtime.toBrowsers().emit('dataChanged', 'admins');
      return account;
    },
  );

  app.post(
    '/admins/:id/disable',
    {
      config: { access: 'accounts.manage' },
      schema: {
        tags: ['admins'],
        summary: 'Disable an admin: their sessions end at once (409 for the last active administrator)',
        params: adminIdParams,
        response: { 200: adminAccount, 400: errorResponse, 404: errorResponse, 409: errorResponse },
      },
    },
    async (request) => {
      const { account, endedSessions } = await disableAdmin(
        app.db,
        request.params.id,
        requireAdmin(request).id,
        auditActor(request),
      );
      for (const sessionId of endedSessions) app.realtime.endSession(sessionId, 'disabled');
      return account;
    },
  );

  app.post(
    '/admins/:id/enable',
    {
      config: { access: 'accounts.manage' },
      schema: {
        tags: ['admins'],
        summary: 'Enable a disabled admin (409 for a new administrator that waits for, or was refused, approval)',
        params: adminIdParams,
        response: { 200: adminAccount, 404: errorResponse, 409: errorResponse },
      },
    },
    async (request) => enableAdmin(app.db, request.params.id, auditActor(request)),
  );

  app.post(
    '/admins/:id/unlock',
    {
      config: { access: 'accounts.manage' },
      schema: {
        tags: ['admins'],
        summary: 'Lift the failed-login lockout of an admin',
        params: adminIdParams,
        response: { 200: adminAccount, 404: errorResponse },
      },
    },
    async (request) => unlockAdmin(app.db, request.params.id, auditActor(request)),
  );
};

export default profileRoutes;
