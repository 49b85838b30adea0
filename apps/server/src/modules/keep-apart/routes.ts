// /keep-apart: keep-apart pairs (non-associations, issue 12 part 2): create, list (all or one prisoner's), end.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  errorResponse,
  intText,
  keepApartEndInput,
  keepApartInput,
  keepApartListResponse,
  keepApartQuery,
  keepApartWriteResponse,
} from '@prison/shared';
import { auditActor } from '../../plugins/auth';
import { createPair, endPair, listPairs } from './keep-apart-service';

const idParams = z.object({ id: intText() });

const keepApartRoutes: FastifyPluginAsyncZod = async (app) => {
  /** Open screens refetch, and the live monitor re-reads the active pairs. */
  const changed = async () => {
    app.realtime.toBrowsers().emit('dataChanged', 'keep-apart');
    // Committed already: a failed reload is logged, not answered as a failure of the write.
    await app.reloadKeepApart().catch((error: unknown) => app.log.error({ err: error }, 'keep-apart pairs not reloaded'));
  };

  app.get(
    '/keep-apart',
    {
      schema: {
        tags: ['keep-apart'],
        summary: 'Keep-apart pairs: all, or those of one prisoner (prisoner_id); active=true leaves out ended pairs',
        querystring: keepApartQuery,
        response: { 200: keepApartListResponse, 400: errorResponse },
      },
    },
    async (request) => ({ data: await listPairs(app.db, request.query) }),
  );

  app.post(
    '/keep-apart',
    {
      schema: {
        tags: ['keep-apart'],
        summary:
          'Keep two prisoners apart: never one cell, nor one block when scope is block; their trackers meeting raise a ' +
          'Warning (409 when the pair is already active)',
        body: keepApartInput,
        response: { 200: keepApartWriteResponse, 400: errorResponse, 409: errorResponse },
      },
    },
    async (request) => {
      const pair = await createPair(app.db, auditActor(request), request.body);
      await changed();
      return { message: 'Keep-apart pair created.', pair };
    },
  );

  app.post(
    '/keep-apart/:id/end',
    {
      schema: {
        tags: ['keep-apart'],
        summary: 'End a keep-apart pair, with the reason; who and when are recorded (409 when it has already ended)',
        params: idParams,
        body: keepApartEndInput,
        response: { 200: keepApartWriteResponse, 400: errorResponse, 404: errorResponse, 409: errorResponse },
      },
    },
    async (request) => {
      const pair = await endPair(app.db, auditActor(request), request.params.id, request.body.reason);
      await changed();
      return { message: 'Keep-apart pair ended.', pair };
    },
  );
};

export default keepApartRoutes;
