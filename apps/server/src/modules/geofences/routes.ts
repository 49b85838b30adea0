// The geofence API (docs/CLIENT-CONTRACT.md plus update and delete). Each write reloads the engine
// and tells every browser to refetch. A write that weakens the alarm answers 202 with the unchanged geofence and the
// pending change, which waits for a second administrator (decision 041).
import { z } from 'zod';
import { caseloadOf } from '../../lib/caseload';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  boundedText,
  deleteWithReason,
  errorResponse,
  geofence,
  geofenceInput,
  geofenceUpdate,
  messageResponse,
  pendingChange,
} from '@prison/shared';
import { auditActor } from '../../plugins/auth';
import { createGeofence, deleteGeofence, listGeofences, updateGeofence } from './geofence-service';

const idParams = z.object({ id: boundedText(100).min(1, 'id is required') });

const geofencesRoutes: FastifyPluginAsyncZod = async (app) => {
  const changed = async () => {
    // The write is committed: a failed reload is logged, not reported as a failed write (the next reload catches up).
    await app
      .reloadGeofences()
      .catch((error: unknown) => app.databaseHealth.failed(error, 'geofence engine reload'));
    app.realtime.toBrowsers().emit('dataChanged', 'geofences');
    // A delete, a type change or a new shape ends the zone's open alerts: the map's "in violation" and alert lists
    // refetch too.
    await app.cluster.alerts.changed();
  };

  /** A change now waiting for approval: browsers show it on the geofence and in the approvals list. */
  const requested = () => app.realtime.toBrowsers().emit('dataChanged', 'pending-changes');

  app.get(
    '/geofence/all',
    {
      config: { access: 'live.read' },
      schema: {
        tags: ['geofences'],
        summary: 'Every geofence, in the order they were drawn',
        response: { 200: z.array(geofence) },
      },
    },
    async () => listGeofences(app.db),
  );

  app.post(
    '/geofence/add',
    {
      config: { access: 'geofences.write' },
      schema: {
        tags: ['geofences'],
        summary: 'Store a drawn geofence (circle, polygon or rectangle)',
        body: geofenceInput,
        response: { 200: geofence, 400: errorResponse, 409: errorResponse },
      },
    },
    async (request) => {
      const created = await createGeofence(app.db, auditActor(request), request.body, caseloadOf(request));
      await changed();
      return created;
    },
  );

  app.put(
    '/geofence/update/:id',
    {
      config: { access: 'geofences.write' },
      schema: {
        tags: ['geofences'],
        summary:
          'Rename a geofence or change its type, alert type, dwell time, buffer, scope, times or shape; a change that ' +
          'weakens the alarm needs a reason and answers 202: the geofence unchanged, with the change pending approval; ' +
          "a Critical or Warning zone's weakening is reverted by itself at `until` (default 8 hours, at most 7 days)",
        params: idParams,
        body: geofenceUpdate,
        response: {
          200: geofence,
          202: geofence.extend({ pending: pendingChange }),
          400: errorResponse,
          404: errorResponse,
          409: errorResponse,
        },
      },
    },
    async (request, reply) => {
      const { geofence: answer, pending } = await updateGeofence(app.db, auditActor(request), request.params.id, request.body, caseloadOf(request));
      if (pending) {
        requested();
        return reply.code(202).send({ ...answer, pending });
      }
      await changed();
      return answer;
    },
  );

  app.delete(
    '/geofence/delete/:id',
    {
      config: { access: 'geofences.write' },
      schema: {
        tags: ['geofences'],
        summary:
          "Ask to delete a geofence, with a reason: 202, the delete waits for a second administrator's approval; a " +
          'Critical or Warning zone comes back by itself at `until` (default 8 hours, at most 7 days)',
        params: idParams,
        body: deleteWithReason,
        response: {
          202: messageResponse.extend({ pending: pendingChange }),
          400: errorResponse,
          404: errorResponse,
          409: errorResponse,
        },
      },
    },
    async (request, reply) => {
      const { geofence: kept, pending } = await deleteGeofence(
        app.db,
        auditActor(request),
        request.params.id,
        request.body?.reason,
        request.body?.until,
      );
      requested();
      return reply.code(202).send({ message: `Deleting ${kept.name} waits for another administrator's approval`, pending: pending! });
    },
  );
};

export default geofencesRoutes;
