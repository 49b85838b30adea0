// /movements: controlled movements (decisions 064 and 099): start one, list today's with each
// prisoner's state, end or cancel one in one tap.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponse, intText, movementInput, movementListResponse, movementQuery, movementWriteResponse } from '@prison/shared';
import { caseloadOf } from '../../lib/caseload';
import { auditActor } from '../../plugins/auth';
import { engineOf } from '../../tracking/engine-access';
import { selectMovements } from './movement-repository';
import { endMovement, startMovement, type OriginOf } from './movement-service';

const idParams = z.object({ id: intText() });

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
          'falls inside it; entering a geofence that is neither origin, destination nor named on the way (via_geofence_ids) is ' +
          'off route (Warning); due_by passing first is overdue (Warning). Until it ends, the destination and the zones on the ' +
          'way do not alarm for its prisoners. The destination must be a Positive zone that is not Informational; one closed ' +
          'at due_by (its alarm in force then) needs a reason (409 naming reason without one)',
        body: movementInput,
        response: { 200: movementWriteResponse, 400: errorResponse, 409: errorResponse },
      },
    },
    async (request) => {
      const movement = await startMovement(app.db, auditActor(request), request.body, caseloadOf(request), originOf, app.config.TZ);
      // Committed already: a failed reload is logged, not answered as a failure of the write.
      await app.cluster.changes.publish('movements').catch((error: unknown) => app.log.error({ err: error }, 'movements not reloaded'));
      return { message: 'Movement started.', movement };
    },
  );

  for (const [action, cancel, done] of [
    ['end', false, 'Movement ended.'],
    ['cancel', true, 'Movement cancelled.'],
  ] as const) {
    app.post(
      `/movements/:id/${action}`,
      {
        // A movement none of whose prisoners is the caseload's is answered as one that does not exist (the service).
        config: { access: 'movements.write' },
        schema: {
          tags: ['movements'],
          summary: cancel
            ? 'Cancel a movement: it is no longer in force, so its zones alarm for its prisoners again'
            : 'End a movement (the prisoners are back): it is no longer in force, so its zones alarm for its prisoners again',
          params: idParams,
          response: { 200: movementWriteResponse, 400: errorResponse, 404: errorResponse, 409: errorResponse },
        },
      },
      async (request) => {
        const movement = await endMovement(app.db, auditActor(request), request.params.id, cancel, caseloadOf(request));
        await app.cluster.changes.publish('movements').catch((error: unknown) => app.log.error({ err: error }, 'movements not reloaded'));
        return { message: done, movement };
      },
    );
  }
};

export default movementRoutes;
