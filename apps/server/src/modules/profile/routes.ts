// Profile (/profile): the admin's own account and sessions, and the admins list (issue 5).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  adminAccount,
  adminCreateRequest,
  adminList,
  errorResponse,
  messageResponse,
  passwordChangeRequest,
  profile,
  sessionList,
} from '@prison/shared';
import { auditActor, requireAdmin } from '../../plugins/auth';
import { addAdmin, disableAdmin, enableAdmin, listAdmins, unlockAdmin } from './admins-service';
import { changePassword, getProfile, listSessions, revokeOwnSession } from './profile-service';

const adminIdParams = z.object({
  id: z.coerce.number({ message: 'id must be a number' }).int().positive('id must be a positive id'),
});

const profileRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/profile',
    { schema: { tags: ['profile'], summary: "The signed-in admin's account", response: { 200: profile } } },
    async (request) => getProfile(app.db, requireAdmin(request).id),
  );

  app.post(
    '/profile/password',
    {
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
    '/profile/sessions',
    { schema: { tags: ['profile'], summary: "The signed-in admin's active sessions", response: { 200: sessionList } } },
    async (request) => ({ sessions: await listSessions(app.db, requireAdmin(request)) }),
  );

  app.delete(
    '/profile/sessions/:id',
    {
      schema: {
        tags: ['profile'],
        summary: 'Revoke one of my sessions: its browser is logged out at once',
        params: z.object({ id: z.string().min(1) }),
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
    { schema: { tags: ['admins'], summary: 'Every admin account', response: { 200: adminList } } },
    async () => ({
      admins: await listAdmins(app.db),
    }),
  );

  app.post(
    '/admins',
    {
      schema: {
        tags: ['admins'],
        summary: 'Create an admin',
        body: adminCreateRequest,
        response: { 200: adminAccount, 400: errorResponse, 409: errorResponse },
      },
    },
    async (request) => addAdmin(app.db, request.body, auditActor(request)),
  );

  app.post(
    '/admins/:id/disable',
    {
      schema: {
        tags: ['admins'],
        summary: 'Disable an admin: their sessions end at once',
        params: adminIdParams,
        response: { 200: adminAccount, 400: errorResponse, 404: errorResponse },
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
      schema: {
        tags: ['admins'],
        summary: 'Enable a disabled admin',
        params: adminIdParams,
        response: { 200: adminAccount, 404: errorResponse },
      },
    },
    async (request) => enableAdmin(app.db, request.params.id, auditActor(request)),
  );

  app.post(
    '/admins/:id/unlock',
    {
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
