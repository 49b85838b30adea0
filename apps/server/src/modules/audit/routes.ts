// The audit trail, read-only: no route changes or deletes an entry (issue 5).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { auditPage, auditQuery, errorResponse } from '@prison/shared';
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
};

export default auditRoutes;
