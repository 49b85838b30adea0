// /escorts: a prisoner in the care of a police officer or guard (decision 035): create, list, end.
import { caseloadOf } from '../../lib/caseload';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponse, escortInput, escortListResponse, escortQuery, escortWriteResponse, intText, type Escort } from '@prison/shared';
import { auditActor } from '../../plugins/auth';
import { createEscort, endEscort, listEscorts, type EscortRecord } from './escort-service';

const idParams = z.object({ id: intText() });

const escortRoutes: FastifyPluginAsyncZod = async (app) => {
  /** Open screens (the live map's lines) refetch, and the live monitor re-reads the escorts. */
  const changed = async () => {
    app.realtime.toBrowsers().emit('dataChanged', 'escorts');
    // Committed already: a failed reload is logged, not answered as a failure of the write.
    await app.reloadEscorts().catch((error: unknown) => app.log.error({ err: error }, 'escorts not reloaded'));
  };
  /** Whether each escort is escorting now, and why not: only the live monitor knows (decision 037). */
  const withStatus = (escort: EscortRecord): Escort => {
    const { escorting, reason } = app.escortMonitor.status(escort.id, Date.now());
    return { ...escort, escorting, not_escorting_reason: reason };
  };

  app.get(
    '/escorts',
    {
      config: { access: 'records.read' },
      schema: {
        tags: ['escorts'],
        summary: 'Escorts, those not ended first; active=true: only those in force now. Each says whether it is escorting now and why not',
        querystring: escortQuery,
        response: { 200: escortListResponse, 400: errorResponse },
      },
    },
    async (request) => ({ data: (await listEscorts(app.db, request.query, caseloadOf(request))).map(withStatus) }),
  );

  app.post(
    '/escorts',
    {
      // A prisoner outside the caseload is answered as one that does not exist (decision 051).
      config: { access: 'escorts.write', caseload: { record: 'prisoner', field: 'prisoner_id', from: 'body', status: 400, notFound: 'prisoner_id: prisoner {id} does not exist' } },
      schema: {
        tags: ['escorts'],
        summary:
          'Put a prisoner in custody in the care of a staff member within max_distance_m (default 50): apart for longer ' +
          "than 30 s raises a Critical alert; a Negative perimeter raises nothing while the escort is proven (the officer's " +
          'tracker online with a known position, not separated). An officer without a tracker needs unmonitored: true, ' +
          'and then the escort exempts nothing (409 when already escorted)',
        body: escortInput,
        response: { 200: escortWriteResponse, 400: errorResponse, 409: errorResponse },
      },
    },
    async (request) => {
      const escort = await createEscort(app.db, auditActor(request), request.body);
      await changed();
      return { message: 'Escort created.', escort: withStatus(escort) };
    },
  );

  app.post(
    '/escorts/:id/end',
    {
      config: { access: 'escorts.write', caseload: { record: 'escort', field: 'id', from: 'params', notFound: 'Escort {id} not found' } },
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
      return { message: 'Escort ended.', escort: withStatus(escort) };
    },
  );
};

export default escortRoutes;
