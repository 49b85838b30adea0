// Escalation of unacknowledged Critical alerts (decision 060): the delivery log and the test send for administrators.
// This plugin also runs the sweep that sends them.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  deliveryPage,
  deliveryQuery,
  errorResponse,
  ESCALATION_NOT_CONFIGURED,
  escalationSettings,
  escalationTestRequest,
  escalationTestResult,
} from '@prison/shared';
import { recordAudit } from '../../lib/audit';
import { conflict } from '../../lib/http-errors';
import { PerKeyQuota } from '../../lib/per-key-quota';
import { auditActor, requireAdmin } from '../../plugins/auth';
import { listDeliveries } from './delivery-repository';
import { createEscalation } from './escalation-service';

/** Test messages one account may send per minute: each one reaches a real mailbox or system. */
const TESTS_PER_MINUTE = 5;

const escalationRoutes: FastifyPluginAsyncZod = async (app) => {
  const escalation = createEscalation(app);
  const testQuota = new PerKeyQuota(TESTS_PER_MINUTE);
  app.addHook('onReady', async () => escalation.start());
  app.addHook('onClose', async () => escalation.stop());

  app.get(
    '/escalation/deliveries',
    {
      // 'audit.read' holds every role of 'settings.write' too (roles.ts): administrators, supervisors, auditors.
      config: { access: 'audit.read' },
      schema: {
        tags: ['escalation'],
        summary: 'The escalation delivery log, newest first: sent, retrying, failed, cancelled; with the settings in force',
        querystring: deliveryQuery,
        response: { 200: deliveryPage, 400: errorResponse },
      },
    },
    async (request) => ({
      ...(await listDeliveries(app.db, request.query)),
      settings: { escalateAfterSeconds: app.config.ESCALATE_AFTER_SECONDS, channels: escalation.channels.configured },
    }),
  );

  app.get(
    '/escalation/settings',
    {
      // Every screen's Critical bar says when nobody outside the control room is told (decision 105).
      config: { access: 'live.read' },
      schema: {
        tags: ['escalation'],
        summary: 'Whether unacknowledged Critical alerts are escalated (the channels configured) and after how long',
        response: { 200: escalationSettings },
      },
    },
    async () => ({ escalateAfterSeconds: app.config.ESCALATE_AFTER_SECONDS, channels: escalation.channels.configured }),
  );

  app.post(
    '/escalation/test',
    {
      config: { access: 'settings.write' },
      schema: {
        tags: ['escalation'],
        summary: 'Sends a test message through every configured channel (or the one named) now, once, and logs it',
        body: escalationTestRequest,
        response: { 200: escalationTestResult, 400: errorResponse, 409: errorResponse, 429: errorResponse },
      },
    },
    async (request, reply) => {
      const { channel } = request.body;
      const configured = escalation.channels.configured;
      if (configured.length === 0) throw conflict(ESCALATION_NOT_CONFIGURED);
      if (channel && !configured.includes(channel)) throw conflict(`channel: ${channel} is not configured on this server`);
      const admin = requireAdmin(request);
      if (!testQuota.take(String(admin.id))) {
        reply.header('retry-after', String(testQuota.secondsUntilReset(String(admin.id))));
        return reply.code(429).send({ message: `At most ${TESTS_PER_MINUTE} test messages a minute` });
      }
      const deliveries = await escalation.sendTest(channel);
      await recordAudit(app.db, auditActor(request), {
        action: 'escalation.test',
        entity: 'escalation',
        after: deliveries.map((d) => ({ channel: d.channel, status: d.status, error: d.last_error })),
      });
      return { deliveries };
    },
  );
};

export default escalationRoutes;
