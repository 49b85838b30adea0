import type { FastifyInstance } from 'fastify';

/** Loads the geofences into the engine and decorates `app.geofenceEngine` (geofence engine feature fills this). */
export async function registerGeofenceEngine(_app: FastifyInstance): Promise<void> {}
