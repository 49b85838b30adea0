// The audit trail, read-only: no route changes or deletes an entry; its CSV export carries the chain's state.
import { Readable } from 'node:stream';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { auditExportQuery, auditPage, auditQuery, errorResponse } from '@prison/shared';
import { auditActor } from '../../plugins/auth';
import { recordAudit } from '../../lib/audit';
import { auditCsvLines, auditExportHead } from './audit-export';
import { listAudit } from './audit-service';

const auditRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/audit',
    {
      config: { access: 'audit.read' },
      schema: {
        tags: ['audit'],
        summary: 'Audit entries, newest first, paged and filtered by entity, action, actor and time',
        querystring: auditQuery,
        response: { 200: auditPage, 400: errorResponse },
      },
    },
    async (request) => listAudit(app.db, request.query),
  );

  app.get(
    '/audit/export',
    {
      config: { access: 'audit.read', heavyQuery: true },
      schema: {
        tags: ['audit'],
        summary:
          'The entries the filters match as a CSV download, in the chain\'s order, each with its place and hash, under ' +
          'the whole chain\'s state verified now (intact, or the first entry changed, removed or inserted)',
        querystring: auditExportQuery,
        response: { 200: z.string().describe('CSV (text/csv) file'), 400: errorResponse, 429: errorResponse },
      },
    },
    async (request, reply) => {
      // Taking the trail away is itself in the trail, before the chain is checked, so the file's check covers it.
      await recordAudit(app.db, auditActor(request), { action: 'audit.export', entity: 'audit_log', after: { filters: request.query } });
      const head = await auditExportHead(app.db, request.query);
      const day = new Date().toISOString().slice(0, 10);
      reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="audit-trail-${day}.csv"`)
        .header('cache-control', 'no-store')
        .header('x-audit-chain', head.report.intact ? 'intact' : 'broken');
      // A stream is sent as it is (not serialised); the 200 schema above documents the file for OpenAPI.
      return reply.send(Readable.from(auditCsvLines(app.db, request.query, head)) as unknown as string);
    },
  );
};

export default auditRoutes;
