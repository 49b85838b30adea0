// /incident/*: the stored incidents behind the home page's "Recent Incidents" cards; /incidents/* their workflow.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponse, incident, incidentInput, incidentsResponse, recentIncidentsQuery } from '@prison/shared';
import { caseloadOf } from '../../lib/caseload';
import { auditActor } from '../../plugins/auth';
import { createIncident, listRecentIncidents } from './incident-service';
import workflowRoutes from './workflow-routes';

const incidentsRoutes: FastifyPluginAsyncZod = async (app) => {
  await app.register(workflowRoutes);

  app.get(
    '/incident/recent',
    {
      config: { access: 'records.read' },
      schema: {
        tags: ['incidents'],
        summary: 'The most recent incidents, newest first by date and time',
        querystring: recentIncidentsQuery,
        response: { 200: incidentsResponse, 400: errorResponse },
      },
    },
    async (request) => ({ data: await listRecentIncidents(app.db, request.query.limit, caseloadOf(request)) }),
  );

  app.post(
    '/incident/add',
    {
      config: { access: 'incidents.write' },
      schema: {
        tags: ['incidents'],
        summary: 'Record an incident',
        body: incidentInput,
        response: { 200: incident, 400: errorResponse },
      },
    },
    async (request) => {
      const created = await createIncident(app.db, auditActor(request), request.body);
      app.realtime.toBrowsers().emit('dataChanged', 'incidents');
      return created;
    },
  );
};

export default incidentsRoutes;
