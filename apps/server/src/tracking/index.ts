// The live tracking core: the geofence engine, then the services that feed it and fan out its results.
import type { FastifyInstance } from 'fastify';
import { registerGeofenceEngine } from './engine-plugin';
import { registerTrackingServices } from './services-plugin';

export async function registerTracking(app: FastifyInstance): Promise<void> {
  await registerGeofenceEngine(app);
  await registerTrackingServices(app);
}
