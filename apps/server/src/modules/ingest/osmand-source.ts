// The OsmAnd port as the tracking core's listening fix source, with the device credential throttle it shares with the ingest route.
import type { FastifyInstance } from 'fastify';
import type { ListeningFixSource } from '../../tracking/ports';
import { listenNamed } from '../../lib/listen-failure';
import { DeviceAuthThrottle } from './device-auth-throttle';
import { startOsmandPort, type OsmandPortServer } from './osmand-port';

declare module 'fastify' {
  interface FastifyInstance {
    /** Device credential failures per address on the OsmAnd port and path (decision 038). */
    deviceAuthThrottle: DeviceAuthThrottle;
  }
}

/** Creates the throttle (as `app.deviceAuthThrottle`) and the OsmAnd port that opens once the server listens. */
export function createOsmandFixSource(app: FastifyInstance): ListeningFixSource {
  let osmand: OsmandPortServer | null = null;
  const deviceAuthThrottle = new DeviceAuthThrottle(app.config.DEVICE_AUTH_FAILURES_PER_MINUTE, app.log.child({ module: 'ingest' }));
  app.decorate('deviceAuthThrottle', deviceAuthThrottle);
  return {
    open: async (tracking) => {
      // A port that cannot be bound fails the start naming it (decision 056): devices configured for it would be lost.
      osmand = await listenNamed('OSMAND_PORT', app.config.OSMAND_PORT, 'the OsmAnd device port', () =>
        startOsmandPort(tracking, app.config.OSMAND_PORT, app.config.HOST, app.databaseHealth, deviceAuthThrottle),
      );
      app.log.info(`OsmAnd device protocol on port ${osmand.port}`);
    },
    port: () => osmand?.port ?? null,
    close: async () => {
      await osmand?.close();
      osmand = null;
    },
    stop: () => deviceAuthThrottle.stop(),
  };
}
