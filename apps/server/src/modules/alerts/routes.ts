// Alerts: the newest few (home page), the paginated list with counts (alerts screen), and operator alerts.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { alertInput, alertListQuery, alertPage, alertRecord, errorResponse, intText, liveMapAlerts } from '@prison/shared';
import { caseloadOf } from '../../lib/caseload';
import { tooManyRequests } from '../../lib/http-errors';
import { PerKeyQuota } from '../../lib/per-key-quota';
import { auditActor, requireAdmin } from '../../plugins/auth';
import { listLiveMapAlerts, listOpenViolations, listPrisonerAlerts, listRecentAlerts, listStaffInDanger } from './alert-records';
import { showAlertEvent } from './alert-store';
import { createManualAlert } from './manual-alerts';

const alertsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/alert/recent',
    {
      config: { access: 'live.read' },
      schema: {
        tags: ['alerts'],
        summary: 'The newest alerts (10 unless limit says otherwise)',
        querystring: z.object({ limit: intText(1, 100).default(10) }),
        response: { 200: z.object({ data: z.array(alertRecord) }), 400: errorResponse },
      },
    },
    async (request) => ({ data: await listRecentAlerts(app.db, request.query.limit, caseloadOf(request)) }),
  );

  app.get(
    '/alert/prisoneralerts',
    {
      config: { access: 'live.read' },
      schema: {
        tags: ['alerts'],
        summary: 'Alerts newest first, paginated and filtered: the list in data, paging and the count per type beside it',
        querystring: alertListQuery,
        response: { 200: alertPage, 400: errorResponse },
      },
    },
    async (request) => listPrisonerAlerts(app.db, request.query, caseloadOf(request)),
  );

  app.get(
    '/alert/open-violations',
    {
      config: { access: 'live.read' },
      schema: {
        tags: ['alerts'],
        summary: 'Ids of the prisoners in a geofence violation now (not ended, not resolved), for the live map',
        response: { 200: z.object({ data: z.array(z.number().int()) }) },
      },
    },
    async (request) => ({ data: await listOpenViolations(app.db, caseloadOf(request)) }),
  );

  app.get(
    '/alert/live-map',
    {
      config: { access: 'live.read' },
      schema: {
        tags: ['alerts'],
        summary:
          'Per prisoner with an open alert or violation: in violation or not, the worst open (New) level, how many ' +
          'are open and the first few, for the live map\'s marker colours and popups (one grouped query); and the open ' +
          'staff SOS alerts with the nearest staff at the alarm (staff_in_danger, decision 072)',
        response: { 200: liveMapAlerts },
      },
    },
    async (request) => ({
      data: await listLiveMapAlerts(app.db, caseloadOf(request)),
      staff_in_danger: await listStaffInDanger(app.db),
    }),
  );

  // Counted per account, whatever session or browser it posts from (one person with three sessions is still one
  // person), and only for alerts actually stored: the spec's client re-posts every live alert it receives, and those
  // repeats must never be refused however busy the prison is (decisions 019 and 095).
  const newAlertQuota = new PerKeyQuota(app.config.ALERT_POST_RATE_PER_MINUTE);

  app.post(
    '/alert/all',
    {
      // An alert about the tracker of a prisoner outside the caseload: as for an unknown tracker (decision 051).
      config: { access: 'alerts.work', caseload: { record: 'device', field: 'device_id', from: 'body', notFound: 'device_id: device {id} not found' } },
      schema: {
        tags: ['alerts'],
        summary:
          'Record an alert from an operator or an outside system (201), pushed live once. A post repeating an alert ' +
          'stored in the last ALERT_ECHO_WINDOW_SECONDS (same device_id, alert_type and details, as the spec\'s ' +
          'client posts back every showAlert) answers that alert with 200 and stores and pushes nothing',
        body: alertInput,
        response: { 200: alertRecord, 201: alertRecord, 400: errorResponse, 404: errorResponse, 429: errorResponse },
      },
    },
    async (request, reply) => {
      const account = String(requireAdmin(request).id);
      const posted = await createManualAlert(app.db, auditActor(request), request.body, {
        echoWindowSeconds: app.config.ALERT_ECHO_WINDOW_SECONDS,
        beforeStore: () => {
          if (newAlertQuota.take(account)) return;
          reply.header('retry-after', newAlertQuota.secondsUntilReset(account));
          throw tooManyRequests(
            `Too many new alerts from this account: at most ${app.config.ALERT_POST_RATE_PER_MINUTE} a minute`,
          );
        },
      });
      if (!posted.created) return reply.status(200).send(posted.record);
      await app.cluster.alerts.raised([showAlertEvent(posted.alert, posted.wearer)]);
      return reply.status(201).send(posted.record);
    },
  );
};

export default alertsRoutes;
