// Puts a built tracking service (composition.ts builds it) into the app's life: the changes other processes or the API
// announce, the device ports and the device sockets, the browsers' snapshots, started on onReady (after the geofence
// engine has loaded), the device ports on listen, all stopped on close.
import type { FastifyInstance } from 'fastify';
import { deviceSocketHandler } from './device-socket';
import type { LiveMonitors } from './live-monitors';
import type { ListeningFixSource } from './ports';
import type { TrackingService } from './tracking-service';

declare module 'fastify' {
  interface FastifyInstance {
    tracking: TrackingService;
    /** The OsmAnd device port once listening (null before it is opened, or when OSMAND_PORT cannot be bound). */
    osmandPort: () => number | null;
    /** The fix sources' links to outside services for /readyz (the MQTT broker of the indoor readers). */
    fixSourceLinks: () => { name: string; state: 'up' | 'down' }[];
    /**
     * Opens the device ports (once; later calls answer the same promise). The server process calls it before the
     * HTTP listen, so a port that cannot be bound fails the start (decision 056); otherwise `listen` opens them.
     */
    openDevicePorts(): Promise<void>;
  }
}

/**
 * Attaches the built service and its monitors' reloads. `createFixSources` runs once, after the change handlers;
 * its first source is the device port that `app.osmandPort()` names.
 */
export function registerTrackingLifecycle(
  app: FastifyInstance,
  tracking: TrackingService,
  monitors: Pick<LiveMonitors, 'loadKeepApart' | 'loadEscorts'>,
  createFixSources: () => ListeningFixSource[],
): void {
  const { loadKeepApart, loadEscorts } = monitors;
  const changes = app.cluster.changes;
  changes.on('device', async (data, local) => {
    const { id, reassigned } = data as { id: string; reassigned: boolean };
    await tracking.applyDeviceChange(id, { reassigned }, local);
    // An officer's tracker may have changed hands: the escorts re-read who wears which (decision 037).
    await loadEscorts();
  });
  changes.on('wearers', () => tracking.refreshWearers());
  changes.on('devices-offline', (data) => tracking.applyOffline((data as { ids: string[] }).ids));
  app.cluster.onSharedPositions((positions) => tracking.applySharedPositions(positions));
  // After a lost change feed: what changed meanwhile is read again.
  changes.onResync(async () => {
    await loadKeepApart();
    await loadEscorts();
    await tracking.refreshWearers();
  });
  const fixSources = createFixSources();
  app.decorate('tracking', tracking);
  app.decorate('osmandPort', () => fixSources[0]?.port() ?? null);
  app.decorate('fixSourceLinks', () => fixSources.flatMap((source) => source.link?.() ?? []));
  let devicePorts: Promise<void> | null = null;
  const openDevicePorts = () => (devicePorts ??= Promise.all(fixSources.map((source) => source.open(tracking))).then(() => undefined));
  app.decorate('openDevicePorts', openDevicePorts);

  app.realtime.setDeviceHandler(deviceSocketHandler(tracking));
  app.realtime.onBrowserConnect((socket, admin) => {
    // Every browser starts from the complete set (of its caseload, decision 051); then deltas or repeated complete
    // sets (tracking/live-positions.ts).
    socket.emit('locationUpdate', tracking.live.snapshot(admin.blocks));
  });
  // After a reconnect, or whenever it doubts its state, a browser asks for the whole picture again.
  app.realtime.onCaseloadChange((socket, caseload) => socket.emit('locationUpdate', tracking.live.snapshot(caseload)));
  app.realtime.onBrowserEvent('requestSnapshot', (socket, admin) => socket.emit('locationUpdate', tracking.live.snapshot(admin.blocks)));

  app.addHook('onReady', async () => {
    await loadKeepApart();
    await loadEscorts();
    await tracking.start();
    // Officer positions survive a restart: the stored last fixes, now in the registry (decision 037).
    tracking.rememberEscortPositions();
  });
  // Only a listening server opens the device port: tests that never listen build many apps side by side. A test app
  // whose port cannot be bound goes on without it; the server process opened it before listening, or stopped.
  app.addHook('onListen', async () => {
    await openDevicePorts().catch((error: unknown) => app.log.error({ err: error }, (error as Error).message));
  });
  app.addHook('preClose', async () => {
    await Promise.all(fixSources.map((source) => source.close()));
  });
  app.addHook('onClose', async () => {
    for (const source of fixSources) source.stop();
    await tracking.stop();
  });
}
