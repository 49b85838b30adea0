// Position ingestion, alert raising, fan-out to browsers and the offline watcher, with their lifecycle:
// started on onReady (after the geofence engine has loaded), the OsmAnd port on listen, all stopped on close.
import type { FastifyInstance } from 'fastify';
import { deviceSocketHandler } from './device-socket';
import { engineOf } from './engine-access';
import { exemptionOf } from './fix-rules';
import { EscortMonitor } from './escort-monitor';
import { KeepApartMonitor } from './keep-apart-monitor';
import type { TrackingPorts } from './ports';
import { TrackingService } from './tracking-service';

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
    /** Keep-apart pairs on live positions (decision 032). */
    keepApartMonitor: KeepApartMonitor;
    /** Re-reads the active keep-apart pairs into the monitor (after every keep-apart write). */
    reloadKeepApart(): Promise<void>;
    /** Escorts on live positions (decision 035). */
    escortMonitor: EscortMonitor;
    /** Re-reads the escorts not ended into the monitor (after every escort write). */
    reloadEscorts(): Promise<void>;
  }
}

export async function registerTrackingServices(app: FastifyInstance, ports: TrackingPorts): Promise<void> {
  const keepApart = new KeepApartMonitor({
    metres: app.config.KEEP_APART_METRES,
    hysteresisMetres: app.config.KEEP_APART_HYSTERESIS_METRES,
    maxAgeMs: app.config.DEVICE_OFFLINE_SECONDS * 1000,
  });
  // Reloads run one after another, so the last one always reads the latest committed pairs.
  let pairsQueue: Promise<void> = Promise.resolve();
  const loadKeepApart = () => {
    const next = pairsQueue.then(async () => keepApart.setPairs(await ports.listActivePairs(app.db)));
    pairsQueue = next.catch(() => undefined);
    return next;
  };
  // Every process of a cluster reloads too (decision 036); a single process just reloads.
  const changes = app.cluster.changes;
  changes.on('keep-apart', loadKeepApart);
  const reloadKeepApart = () => changes.publish('keep-apart');
  app.decorate('keepApartMonitor', keepApart);
  app.decorate('reloadKeepApart', reloadKeepApart);
  // An escort holds only while the officer's tracker is theirs and online (decision 037): one registry lookup.
  const escorts: EscortMonitor = new EscortMonitor((deviceId, staffId) => {
    const device = tracking.registry.get(deviceId);
    if (!device || device.staffId !== staffId) return 'none';
    return device.online ? 'online' : 'offline';
  });
  let escortsQueue: Promise<void> = Promise.resolve();
  const loadEscorts = () => {
    const next = escortsQueue.then(async () => {
      escorts.setEscorts(await ports.listLiveEscorts(app.db));
      // Whoever reported before (before this escort, or before a restart) is known from their last fix.
      tracking.rememberEscortPositions();
    });
    escortsQueue = next.catch(() => undefined);
    return next;
  };
  changes.on('escorts', loadEscorts);
  const reloadEscorts = () => changes.publish('escorts');
  app.decorate('escortMonitor', escorts);
  app.decorate('reloadEscorts', reloadEscorts);
  // An escorted prisoner's Negative geofences wait while the escort holds (decision 035).
  engineOf(app)?.setNegativeSuppression((prisonerId, t) => escorts.holds(prisonerId, t));
  const fixRules = ports.createFixRules?.(app) ?? [];
  // What a feature rule authorises (a movement's destination) waits instead of alarming (decision 099).
  engineOf(app)?.setZoneExemption?.(exemptionOf(fixRules));
  const tracking: TrackingService = new TrackingService({
    keepApart,
    escorts,
    db: app.db,
    realtime: app.realtime,
    engine: () => engineOf(app),
    log: app.log.child({ module: 'tracking' }),
    databaseHealth: app.databaseHealth,
    offlineSeconds: app.config.DEVICE_OFFLINE_SECONDS,
    offlineGraceSeconds: app.config.OFFLINE_GRACE_SECONDS,
    zoneEntriesNeedAction: app.config.ZONE_ENTRIES_NEED_ACTION,
    maxFutureSeconds: app.config.MAX_FUTURE_SECONDS,
    deviceSecretRequired: app.config.DEVICE_SECRET_REQUIRED,
    cluster: app.cluster,
    alerts: app.cluster.alerts,
    alertStore: ports.alerts,
    metrics: ports.createMetrics?.(app),
    fixRules,
  });
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
  // The OsmAnd port (modules/ingest), with its device credential throttle, and the indoor readers (modules/readers).
  const fixSources = ports.createFixSources(app);
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
