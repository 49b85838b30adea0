// Investigations (decision 068): GET /location/snapshot, /location/near and /location/contacts. Each
// question is about someone's whereabouts, so each is audited: who asked what, and how many answers came back. Each
// is a heavy question: bounded in time and in how many one account runs at once.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  contactsQuery,
  contactsResponse,
  errorResponse,
  nearQuery,
  nearResponse,
  snapshotQuery,
  snapshotResponse,
} from '@prison/shared';
import { recordAudit } from '../../lib/audit';
import { caseloadOf } from '../../lib/caseload';
import { auditActor } from '../../plugins/auth';
import { contactsOfPair, everyoneAt, nearSubject, whoWasNear } from './investigations-service';

/** A near question about a prisoner: in the account's caseload, else the same 404 as an unknown id (decision 051). */
const subjectPrisoner = { record: 'prisoner', field: 'prisoner_id', from: 'query', notFound: 'No prisoner with id {id}' } as const;

const investigationsRoutes: FastifyPluginAsyncZod = async (app) => {
  const timeoutMs = app.config.HEAVY_QUERY_TIMEOUT_MS;
  app.get(
    '/location/snapshot',
    {
      config: { access: 'live.read', heavyQuery: true },
      schema: {
        tags: ['location'],
        summary: "Everyone at a moment: each tracker's last fix at or before `at`, not older than the offline threshold",
        querystring: snapshotQuery,
        response: { 200: snapshotResponse, 400: errorResponse, 429: errorResponse },
      },
    },
    async (request) => {
      const answer = await everyoneAt(app.database, request.query.at, app.config.DEVICE_OFFLINE_SECONDS, caseloadOf(request), timeoutMs);
      await recordAudit(app.db, auditActor(request), {
        action: 'location.snapshot',
        entity: 'location',
        after: { at: request.query.at, answers: answer.data.length },
      });
      return answer;
    },
  );

  app.get(
    '/location/near',
    {
      config: { access: 'live.read', caseload: subjectPrisoner, heavyQuery: true },
      schema: {
        tags: ['location'],
        summary: 'Who was near a prisoner, a staff member or a place (lat, lng) within radius_m over a window',
        querystring: nearQuery,
        response: { 200: nearResponse, 400: errorResponse, 404: errorResponse, 429: errorResponse },
      },
    },
    async (request) => {
      const query = request.query;
      const answer = await whoWasNear(app.database, query, caseloadOf(request), timeoutMs);
      const person = nearSubject(query);
      await recordAudit(app.db, auditActor(request), {
        action: 'location.near',
        entity: person?.kind ?? 'place',
        entityId: person?.id ?? `${query.lat},${query.lng}`,
        after: { from: query.from, to: query.to, radius_m: query.radius_m, answers: answer.data.length },
      });
      return answer;
    },
  );

  app.get(
    '/location/contacts',
    {
      config: { access: 'live.read', heavyQuery: true },
      schema: {
        tags: ['location'],
        summary: 'Every time two people (prisoner:ID or staff:ID) were within radius_m of each other',
        querystring: contactsQuery,
        response: { 200: contactsResponse, 400: errorResponse, 404: errorResponse, 429: errorResponse },
      },
    },
    async (request) => {
      const query = request.query;
      const answer = await contactsOfPair(app.database, query, caseloadOf(request), timeoutMs);
      await recordAudit(app.db, auditActor(request), {
        action: 'location.contacts',
        entity: query.a.kind,
        entityId: query.a.id,
        after: { b: `${query.b.kind}:${query.b.id}`, from: query.from, to: query.to, radius_m: query.radius_m, answers: answer.data.length },
      });
      return answer;
    },
  );
};

export default investigationsRoutes;
