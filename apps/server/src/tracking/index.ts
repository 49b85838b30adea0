// The live tracking core: the geofence engine, then the services that feed it and fan out its results.
import type { FastifyInstance } from 'fastify';
import { registerGeofenceEngine } from './engine-plugin';
import type { TrackingPorts } from './ports';
import { registerTrackingServices } from './services-plugin';

export async function registerTracking(app: FastifyInstance, ports: TrackingPorts): Promise<void> {
  await registerGeofenceEngine(app, ports);
  await registerTrackingServices(app, ports);
}
