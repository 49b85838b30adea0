// The alert workflow routes: acknowledge, resolve, in bulk, "Responding" (decision 100), and the per-day chart.
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
  type AlertStatus,
  intText,
} from '@prison/shared';
import { caseloadOf } from '../../lib/caseload';
import { auditActor, requireAdmin } from '../../plugins/auth';
import { alertAudiences } from './alert-records';
import { respondToAlert } from './staff-alarms';
import { dailyAlertCounts, stepAlert, stepAlerts } from './workflow-service';

const alertIdParams = z.object({ id: intText() });
const stepResponses = { 200: alertRecord, 400: errorResponse, 404: errorResponse, 409: errorResponse };

const alertWorkflowRoutes: FastifyPluginAsyncZod = async (app) => {
  // Lists refetch and a toast still showing one of the alerts goes, in every browser of every process that may see the
  // alert, through the change feed (decisions 039, 040 and 093).
  const changed = async (ids: number[], status: AlertStatus) => app.cluster.alerts.changed({ status, groups: await alertAudiences(app.db, ids) });

  // One route per workflow step; both take a note (required for some levels) and answer the updated alert.
  const steps = [
    {
      action: 'acknowledge',
      summary: 'Acknowledge a New alert. A Critical alert needs a note in words (400); for the others the note is optional',
    },
    {
      action: 'resolve',
      summary:
        'Resolve an alert. A Critical or Warning alert must be acknowledged first (409) and needs a note in words (400); ' +
        'an Informational one may be resolved from New, the note optional',
    },
  ] as const;
  for (const step of steps) {
    app.post(
      `/alert/:id/${step.action}`,
      {
        // An alert of a prisoner outside the caseload answers as an unknown one (decision 051).
        config: { access: 'alerts.work', caseload: { record: 'alert', field: 'id', from: 'params', notFound: 'Alert {id} not found' } },
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
        await changed([record.id], record.status);
        return record;
      },
    );
  }

  app.post(
    '/alert/:id/respond',
    {
      config: { access: 'alerts.work', caseload: { record: 'alert', field: 'id', from: 'params', notFound: 'Alert {id} not found' } },
      schema: {
        tags: ['alerts'],
        summary:
          'Say "Responding": the account is on its way (decision 100). Kept once per account with when, shown to everyone ' +
          'who sees the alert; the status does not change. A resolved alert (409), or a duress by its own raiser (409), takes nobody',
        params: alertIdParams,
        response: stepResponses,
      },
    },
    async (request) => {
      const admin = requireAdmin(request);
      const { record, added } = await respondToAlert(
        app.db,
        request.params.id,
        { adminId: admin.id, name: admin.name || admin.username },
        caseloadOf(request),
        auditActor(request),
      );
      // Every browser refetches its alerts through its own caseload (the alert feed's dataChanged).
      if (added) await app.cluster.alerts.changed();
      return record;
    },
  );

  app.post(
    '/alert/bulk',
    {
      config: { access: 'alerts.work' },
      schema: {
        tags: ['alerts'],
        summary:
          'Acknowledge or resolve many alerts at once (all or nothing). A Critical alert is taken only when its id is ' +
          'also in confirm_critical_ids (chosen one by one), otherwise 409; each step follows its single route\'s rules (a ' +
          'Critical acknowledged needs a note)',
        body: alertBulkRequest,
        response: { 200: alertBulkResponse, 400: errorResponse, 404: errorResponse, 409: errorResponse },
      },
    },
    async (request) => {
      const { ids, action, note, confirm_critical_ids: confirmedCriticals } = request.body;
      const result = await stepAlerts(
        app.db,
        ids,
        { action, note, adminId: requireAdmin(request).id, confirmedCriticals, caseload: caseloadOf(request) },
        auditActor(request),
      );
      if (result.updated.length) await changed(result.updated, action === 'resolve' ? 'Resolved' : 'Acknowledged');
      return result;
    },
  );

  app.get(
    '/alert/stats/daily',
    {
      config: { access: 'live.read' },
      schema: {
        tags: ['alerts'],
        summary: 'Alerts per UTC day and type over the last `days` days (default 30)',
        querystring: alertDailyStatsQuery,
        response: { 200: alertDailyStats, 400: errorResponse },
      },
    },
    async (request) => ({ days: await dailyAlertCounts(app.db, request.query.days, new Date(), caseloadOf(request)) }),
  );
};

export default alertWorkflowRoutes;
