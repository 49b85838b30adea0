// The alert workflow routes (issue 5): acknowledge, resolve, in bulk, and the per-day chart.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  alertBulkRequest,
  alertBulkResponse,
  alertDailyStats,
  alertDailyStatsQuery,
  alertRecord,
  alertStepRequest,
  errorResponse,
} from '@prison/shared';
import { auditActor, requireAdmin } from '../../plugins/auth';
import { dailyAlertCounts, stepAlert, stepAlerts } from './workflow-service';

const alertIdParams = z.object({
  id: z.coerce.number({ message: 'id must be a number' }).int().positive('id must be a positive id'),
});
const stepResponses = { 200: alertRecord, 400: errorResponse, 404: errorResponse, 409: errorResponse };

const alertWorkflowRoutes: FastifyPluginAsyncZod = async (app) => {
  const changed = () => app.realtime.toBrowsers().emit('dataChanged', 'alerts');

  app.post(
    '/alert/:id/acknowledge',
    {
      schema: {
        tags: ['alerts'],
        summary: 'Acknowledge a New alert, with an optional note',
        params: alertIdParams,
        body: alertStepRequest.nullish(),
        response: stepResponses,
      },
    },
    async (request) => {
      const admin = requireAdmin(request);
      const record = await stepAlert(
        app.db,
        request.params.id,
        { action: 'acknowledge', note: request.body?.note, adminId: admin.id },
        auditActor(request),
      );
      changed();
      return record;
    },
  );

  app.post(
    '/alert/:id/resolve',
    {
      schema: {
        tags: ['alerts'],
        summary: 'Resolve an alert, with an optional note',
        params: alertIdParams,
        body: alertStepRequest.nullish(),
        response: stepResponses,
      },
    },
    async (request) => {
      const admin = requireAdmin(request);
      const record = await stepAlert(
        app.db,
        request.params.id,
        { action: 'resolve', note: request.body?.note, adminId: admin.id },
        auditActor(request),
      );
      changed();
      return record;
    },
  );

  app.post(
    '/alert/bulk',
    {
      schema: {
        tags: ['alerts'],
        summary: 'Acknowledge or resolve many alerts at once (all or nothing)',
        body: alertBulkRequest,
        response: { 200: alertBulkResponse, 400: errorResponse, 404: errorResponse },
      },
    },
    async (request) => {
      const { ids, action, note } = request.body;
      const result = await stepAlerts(
        app.db,
        ids,
        { action, note, adminId: requireAdmin(request).id },
        auditActor(request),
      );
      if (result.updated.length) changed();
      return result;
    },
  );

  app.get(
    '/alert/stats/daily',
    {
      schema: {
        tags: ['alerts'],
        summary: 'Alerts per UTC day and type over the last `days` days (default 30)',
        querystring: alertDailyStatsQuery,
        response: { 200: alertDailyStats, 400: errorResponse },
      },
    },
    async (request) => ({ days: await dailyAlertCounts(app.db, request.query.days) }),
  );
};

export default alertWorkflowRoutes;
