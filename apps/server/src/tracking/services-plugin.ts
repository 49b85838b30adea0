// Position ingestion, alert raising, fan-out to browsers and the offline watcher, with their lifecycle:
// started on onReady (after the geofence engine has loaded), the OsmAnd port on listen, all stopped on close.
import type { FastifyInstance } from 'fastify';
import { startOsmandPort, type OsmandPortServer } from '../modules/ingest/osmand-port';
import { deviceSocketHandler } from './device-socket';
import { engineOf } from './engine-access';
import { TrackingService } from './tracking-service';

declare module 'fastify' {
  interface FastifyInstance {
    tracking: TrackingService;
    /** The OsmAnd device port once listening (null before `listen`, or when OSMAND_PORT cannot be bound). */
    osmandPort: () => number | null;
  }
}

export async function registerTrackingServices(app: FastifyInstance): Promise<void> {
  const tracking = new TrackingService({
    db: app.db,
    realtime: app.realtime,
    engine: () => engineOf(app),
    log: app.log.child({ module: 'tracking' }),
    databaseHealth: app.databaseHealth,
    offlineSeconds: app.config.DEVICE_OFFLINE_SECONDS,
    maxFutureSeconds: app.config.MAX_FUTURE_SECONDS,
  });
  let osmand: OsmandPortServer | null = null;
  app.decorate('tracking', tracking);
  app.decorate('osmandPort', () => osmand?.port ?? null);

  app.realtime.setDeviceHandler(deviceSocketHandler(tracking));
  app.realtime.onBrowserConnect((socket) => {
    // Every browser starts from the complete set; then deltas or repeated complete sets (tracking/live-positions.ts).
    socket.emit('locationUpdate', tracking.snapshot());
    // After a reconnect, or whenever it doubts its state, a browser asks for the whole picture again.
    socket.on('requestSnapshot', () => socket.emit('locationUpdate', tracking.snapshot()));
  });

  app.addHook('onReady', async () => {
    await tracking.start();
  });
  // Only a listening server opens the device port: tests that never listen build many apps side by side.
  app.addHook('onListen', async () => {
    try {
      osmand = await startOsmandPort(tracking, app.config.OSMAND_PORT, app.config.HOST, app.databaseHealth);
      app.log.info(`OsmAnd device protocol on port ${osmand.port}`);
    } catch (error) {
      app.log.error({ err: error }, `OsmAnd port ${app.config.OSMAND_PORT} could not be opened; devices can still use /api/v1/ingest/osmand`);
    }
  });
  app.addHook('preClose', async () => {
    await osmand?.close();
    osmand = null;
  });
  app.addHook('onClose', async () => {
    await tracking.stop();
  });
}
