// Loads the geofences and the running violations into the geofence engine and keeps it in step with the table.
// `app.geofenceEngine` exists from registration on (empty), so the tracking services can hold it; it is filled
// in place on `onReady`, before the server takes fixes.
import type { FastifyInstance } from 'fastify';
import { eq } from 'drizzle-orm';
import { geofenceStates } from '../db/schema';
import { GeofenceEngine, type StoredGeofenceState } from './geofence-engine';
import type { TrackingPorts } from './ports';

declare module 'fastify' {
  interface FastifyInstance {
    geofenceEngine: GeofenceEngine;
    /** Re-reads the geofences table into the engine (after every geofence write). */
    reloadGeofences(): Promise<void>;
  }
}

export async function registerGeofenceEngine(app: FastifyInstance, ports: Pick<TrackingPorts, 'listStoredGeofences'>): Promise<void> {
  const engine = new GeofenceEngine([], [], { timeZone: app.config.TZ });
  // Reloads run one after another, so the last one always reads the latest committed geofences.
  let queue: Promise<void> = Promise.resolve();
  const reload = () => {
    const next = queue.then(async () => engine.setGeofences(await ports.listStoredGeofences(app.db), new Date()));
    queue = next.catch(() => undefined);
    return next;
  };
  // A geofence written through any process of a cluster is in every process's engine within a second (decision 036).
  app.cluster.changes.on('geofences', reload);
  app.cluster.changes.onResync(reload);

  app.decorate('geofenceEngine', engine);
  app.decorate('reloadGeofences', () => app.cluster.changes.publish('geofences'));
  app.addHook('onReady', async () => {
    await reload();
    const rows = await app.db.select().from(geofenceStates).where(eq(geofenceStates.violating, true));
    const states: StoredGeofenceState[] = rows.map((row) => ({
      deviceId: row.deviceId,
      geofenceId: row.geofenceId,
      violating: row.violating,
      since: row.since,
    }));
    engine.restoreStates(states);
    app.log.info({ geofences: engine.geofences().length, runningViolations: states.length }, 'geofence engine loaded');
  });
}
