// /incidents/*: incidents with a workflow. The spec's /incident/recent and /incident/add are unchanged
// (routes.ts); these add the list, the page, opening one with a window and links, status steps, more links and taking
// one back.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  errorResponse,
  incidentDetail,
  incidentIdParams,
  incidentLinkParams,
  incidentLinksInput,
  incidentListQuery,
  incidentListResponse,
  incidentOpenInput,
  incidentStatusInput,
} from '@prison/shared';
import { caseloadOf } from '../../lib/caseload';
import { auditActor, requireAdmin } from '../../plugins/auth';
import { alertAudiences } from '../alerts/alert-records';
import { changeIncidentStatus, getIncident, linkToIncident, listIncidents, openIncident, unlinkFromIncident } from './incident-workflow-service';

/** An incident the caseload does not see answers as an unknown one (decision 093). */
const incidentNamed = { record: 'incident', field: 'id', from: 'params', notFound: 'No incident with id {id}' } as const;

const workflowRoutes: FastifyPluginAsyncZod = async (app) => {
  const changed = () => app.realtime.toBrowsers().emit('dataChanged', 'incidents');

  app.get(
    '/incidents',
    {
      config: { access: 'records.read' },
      schema: {
        tags: ['incidents'],
        summary: 'Incidents newest first, optionally of one status',
        querystring: incidentListQuery,
        response: { 200: incidentListResponse, 400: errorResponse },
      },
    },
    async (request) => ({ data: await listIncidents(app.db, request.query.status, request.query.limit, caseloadOf(request)) }),
  );

  app.get(
    '/incidents/:id',
    {
      config: { access: 'records.read', caseload: incidentNamed },
      schema: {
        tags: ['incidents'],
        summary: 'An incident with its status steps (who and when), linked alerts and people, and its time window',
        params: incidentIdParams,
        response: { 200: incidentDetail, 400: errorResponse, 404: errorResponse },
      },
    },
    async (request) => getIncident(app.db, request.params.id, caseloadOf(request)),
  );

  app.post(
    '/incidents',
    {
      config: { access: 'incidents.write' },
      schema: {
        tags: ['incidents'],
        summary:
          'Open an incident (reported) with a time window and linked alerts and people; a linked open Critical alert is ' +
          'acknowledged with the incident as its note',
        body: incidentOpenInput,
        response: { 200: incidentDetail, 400: errorResponse },
      },
    },
    async (request) => {
      const who = { ...auditActor(request), name: requireAdmin(request).name || requireAdmin(request).username };
      const { incident, acknowledged } = await openIncident(app.db, who, request.body, caseloadOf(request));
      changed();
      // The Criticals it acknowledged leave the Critical bar and their toasts go, in every browser (decision 105).
      if (acknowledged.length) await app.cluster.alerts.changed({ status: 'Acknowledged', groups: await alertAudiences(app.db, acknowledged) });
      return incident;
    },
  );

  app.patch(
    '/incidents/:id/status',
    {
      config: { access: 'incidents.write', caseload: incidentNamed },
      schema: {
        tags: ['incidents'],
        summary: 'Move an incident to its next status: reported -> investigating -> closed (a closed one reopened)',
        params: incidentIdParams,
        body: incidentStatusInput,
        response: { 200: incidentDetail, 400: errorResponse, 404: errorResponse, 409: errorResponse },
      },
    },
    async (request) => {
      const updated = await changeIncidentStatus(app.db, auditActor(request), request.params.id, request.body, caseloadOf(request));
      changed();
      return updated;
    },
  );

  app.post(
    '/incidents/:id/links',
    {
      config: { access: 'incidents.write', caseload: incidentNamed },
      schema: {
        tags: ['incidents'],
        summary: 'Link more alerts, prisoners or staff to an incident',
        params: incidentIdParams,
        body: incidentLinksInput,
        response: { 200: incidentDetail, 400: errorResponse, 404: errorResponse },
      },
    },
    async (request) => {
      const updated = await linkToIncident(app.db, auditActor(request), request.params.id, request.body, caseloadOf(request));
      changed();
      return updated;
    },
  );

  app.delete(
    '/incidents/:id/links/:kind/:target_id',
    {
      config: { access: 'incidents.write', caseload: incidentNamed },
      schema: {
        tags: ['incidents'],
        summary: 'Take back one link made by mistake (an alert, a prisoner or a staff member); 409 while the incident is closed',
        params: incidentLinkParams,
        response: { 200: incidentDetail, 400: errorResponse, 404: errorResponse, 409: errorResponse },
      },
    },
    async (request) => {
      const { id, kind, target_id: targetId } = request.params;
      const updated = await unlinkFromIncident(app.db, auditActor(request), id, kind, targetId, caseloadOf(request));
      changed();
      return updated;
    },
  );
};

export default workflowRoutes;
