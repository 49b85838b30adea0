// /movements: controlled movements (issue 24 item 4, decision 064): start one, list today's with each prisoner's state.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponse, movementInput, movementListResponse, movementQuery, movementWriteResponse } from '@prison/shared';
import { caseloadOf } from '../../lib/caseload';
import { auditActor } from '../../plugins/auth';
import { engineOf } from '../../tracking/engine-access';
import { selectMovements } from './movement-repository';
import { startMovement, type OriginOf } from './movement-service';

const movementRoutes: FastifyPluginAsyncZod = async (app) => {
  /** The geofences a prisoner's tracker was last seen inside: his origin (null: no position known yet). */
  const originOf: OriginOf = (deviceId) => {
    const device = deviceId ? app.tracking.registry.get(deviceId) : undefined;
    if (!device || device.latitude === null || device.longitude === null) return null;
    return (engineOf(app)?.containing?.(device.latitude, device.longitude) ?? []).map((g) => g.geofence_id);
  };

  app.get(
    '/movements',
    {
      config: { access: 'live.read' },
      schema: {
        tags: ['movements'],
        summary: "Today's controlled movements, newest first: each with its state (the worst of its prisoners') and each prisoner's; prisoner_id: only his",
        querystring: movementQuery,
        response: { 200: movementListResponse, 400: errorResponse },
      },
    },
    async (request) => ({ data: await selectMovements(app.db, { prisonerId: request.query.prisoner_id, caseload: caseloadOf(request) }) }),
  );

  app.post(
    '/movements',
    {
      // Each prisoner outside the caseload is answered as one that does not exist (checked by the service, decision 051).
      config: { access: 'movements.write' },
      schema: {
        tags: ['movements'],
        summary:
          'Start a controlled movement of prisoners in custody to a destination geofence by due_by: each arrives when a fix ' +
          'falls inside it; entering a geofence that is neither origin nor destination is off route (Warning); due_by passing first is overdue (Warning)',
        body: movementInput,
        response: { 200: movementWriteResponse, 400: errorResponse },
      },
    },
    async (request) => {
      const movement = await startMovement(app.db, auditActor(request), request.body, caseloadOf(request), originOf);
      // Committed already: a failed reload is logged, not answered as a failure of the write.
      await app.cluster.changes.publish('movements').catch((error: unknown) => app.log.error({ err: error }, 'movements not reloaded'));
      return { message: 'Movement started.', movement };
    },
  );
};

export default movementRoutes;
