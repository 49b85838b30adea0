// Alerts: the newest few (home page), the paginated list with counts (alerts screen), and operator alerts.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { alertInput, alertListQuery, alertPage, alertRecord, errorResponse, intText } from '@prison/shared';
import { auditActor } from '../../plugins/auth';
import {
  createManualAlert,
  listOpenViolations,
  listPrisonerAlerts,
  listRecentAlerts,
  showAlertEvent,
} from './alert-service';

const alertsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/alert/recent',
    {
      schema: {
        tags: ['alerts'],
        summary: 'The newest alerts (10 unless limit says otherwise)',
        querystring: z.object({ limit: intText(1, 100).default(10) }),
        response: { 200: z.object({ data: z.array(alertRecord) }), 400: errorResponse },
      },
    },
    async (request) => ({ data: await listRecentAlerts(app.db, request.query.limit) }),
  );

  app.get(
    '/alert/prisoneralerts',
    {
      schema: {
        tags: ['alerts'],
        summary: 'Alerts newest first, paginated and filtered: the list in data, paging and the count per type beside it',
        querystring: alertListQuery,
        response: { 200: alertPage, 400: errorResponse },
      },
    },
    async (request) => listPrisonerAlerts(app.db, request.query),
  );

  app.get(
    '/alert/open-violations',
    {
      schema: {
        tags: ['alerts'],
        summary: 'Ids of the prisoners in a geofence violation now (not ended, not resolved), for the live map',
        response: { 200: z.object({ data: z.array(z.number().int()) }) },
      },
    },
    async () => ({ data: await listOpenViolations(app.db) }),
  );

  app.post(
    '/alert/all',
    {
      schema: {
        tags: ['alerts'],
        summary: 'Record an alert from an operator or an outside system; it is pushed live to every browser',
        body: alertInput,
        response: { 201: alertRecord, 400: errorResponse, 404: errorResponse },
      },
    },
    async (request, reply) => {
      const { alert, record, prisonerName } = await createManualAlert(app.db, auditActor(request), request.body);
      const browsers = app.realtime.toBrowsers();
      browsers.emit('showAlert', showAlertEvent(alert, prisonerName));
      browsers.emit('dataChanged', 'alerts');
      return reply.status(201).send(record);
    },
  );
};

export default alertsRoutes;
