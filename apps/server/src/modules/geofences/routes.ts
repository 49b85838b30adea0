// The geofence API (SPEC.md section 7 plus update and delete, DECISIONS.md item 11). Each write reloads the engine
// and tells every browser to refetch.
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { boundedText, errorResponse, geofence, geofenceInput, geofenceUpdate, messageResponse } from '@prison/shared';
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

  app.get(
    '/geofence/all',
    {
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
      schema: {
        tags: ['geofences'],
        summary: 'Store a drawn geofence (circle, polygon or rectangle)',
        body: geofenceInput,
        response: { 200: geofence, 400: errorResponse, 409: errorResponse },
      },
    },
    async (request) => {
      const created = await createGeofence(app.db, auditActor(request), request.body);
      await changed();
      return created;
    },
  );

  app.put(
    '/geofence/update/:id',
    {
      schema: {
        tags: ['geofences'],
        summary: 'Rename a geofence or change its type, alert type, dwell time, buffer or shape',
        params: idParams,
        body: geofenceUpdate,
        response: { 200: geofence, 400: errorResponse, 404: errorResponse },
      },
    },
    async (request) => {
      const updated = await updateGeofence(app.db, auditActor(request), request.params.id, request.body);
      await changed();
      return updated;
    },
  );

  app.delete(
    '/geofence/delete/:id',
    {
      schema: {
        tags: ['geofences'],
        summary: 'Delete a geofence',
        params: idParams,
        response: { 200: messageResponse, 400: errorResponse, 404: errorResponse },
      },
    },
    async (request) => {
      const deleted = await deleteGeofence(app.db, auditActor(request), request.params.id);
      await changed();
      return { message: `Geofence ${deleted.name} deleted` };
    },
  );
};

export default geofencesRoutes;
