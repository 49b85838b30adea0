// /escorts: a prisoner in the care of a police officer or guard (issue 12 part 4, decision 035): create, list, end.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponse, escortInput, escortListResponse, escortQuery, escortWriteResponse, intText } from '@prison/shared';
import { auditActor } from '../../plugins/auth';
import { createEscort, endEscort, listEscorts } from './escort-service';

const idParams = z.object({ id: intText() });

const escortRoutes: FastifyPluginAsyncZod = async (app) => {
  /** Open screens (the live map's lines) refetch, and the live monitor re-reads the escorts. */
  const changed = async () => {
    app.realtime.toBrowsers().emit('dataChanged', 'escorts');
    // Committed already: a failed reload is logged, not answered as a failure of the write.
    await app.reloadEscorts().catch((error: unknown) => app.log.error({ err: error }, 'escorts not reloaded'));
  };

  app.get(
    '/escorts',
    {
      schema: {
        tags: ['escorts'],
        summary: 'Escorts, those not ended first; active=true: only those in force now',
        querystring: escortQuery,
        response: { 200: escortListResponse, 400: errorResponse },
      },
    },
    async (request) => ({ data: await listEscorts(app.db, request.query) }),
  );

  app.post(
    '/escorts',
    {
      schema: {
        tags: ['escorts'],
        summary:
          'Put a prisoner in the care of a staff member within max_distance_m (default 50): apart for longer than 30 s ' +
          'raises a Critical alert; a Negative perimeter raises nothing while it holds (409 when already escorted)',
        body: escortInput,
        response: { 200: escortWriteResponse, 400: errorResponse, 409: errorResponse },
      },
    },
    async (request) => {
      const escort = await createEscort(app.db, auditActor(request), request.body);
      await changed();
      return { message: 'Escort created.', escort };
    },
  );

  app.post(
    '/escorts/:id/end',
    {
      schema: {
        tags: ['escorts'],
        summary: 'End an escort now; who and when are recorded (409 when it has already ended)',
        params: idParams,
        response: { 200: escortWriteResponse, 400: errorResponse, 404: errorResponse, 409: errorResponse },
      },
    },
    async (request) => {
      const escort = await endEscort(app.db, auditActor(request), request.params.id);
      await changed();
      return { message: 'Escort ended.', escort };
    },
  );
};

export default escortRoutes;
