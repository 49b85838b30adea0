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
  intText,
} from '@prison/shared';
import { auditActor, requireAdmin } from '../../plugins/auth';
import { dailyAlertCounts, stepAlert, stepAlerts } from './workflow-service';

const alertIdParams = z.object({ id: intText() });
const stepResponses = { 200: alertRecord, 400: errorResponse, 404: errorResponse, 409: errorResponse };

const alertWorkflowRoutes: FastifyPluginAsyncZod = async (app) => {
  // Every browser of every process, through the change feed (decision 039).
  const changed = () => app.cluster.alerts.changed();

  // One route per workflow step; both take an optional note and answer the updated alert.
  const steps = [
    { action: 'acknowledge', summary: 'Acknowledge a New alert, with an optional note' },
    { action: 'resolve', summary: 'Resolve an alert, with an optional note' },
  ] as const;
  for (const step of steps) {
    app.post(
      `/alert/:id/${step.action}`,
      {
        schema: {
          tags: ['alerts'],
          summary: step.summary,
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
          { action: step.action, note: request.body?.note, adminId: admin.id },
          auditActor(request),
        );
        await changed();
        return record;
      },
    );
  }

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
      if (result.updated.length) await changed();
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
