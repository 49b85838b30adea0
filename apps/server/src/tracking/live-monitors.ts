// The live monitors on positions: keep-apart pairs and escorts, each reloaded from its module's rows in every process
// of a cluster after a write (through the change feed), and the escort's hold on the engine's Negative geofences.
import type { FastifyInstance } from 'fastify';
import type { DeviceRegistry } from './device-registry';
import { engineOf } from './engine-access';
import { EscortMonitor } from './escort-monitor';
import { KeepApartMonitor } from './keep-apart-monitor';
import type { TrackingPorts } from './ports';

declare module 'fastify' {
  interface FastifyInstance {
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

/** What the monitors read of the tracking service, which is built after them (it holds them). */
export interface MonitoredTracking {
  readonly registry: Pick<DeviceRegistry, 'get'>;
  rememberEscortPositions(): void;
}

export interface LiveMonitors {
  keepApart: KeepApartMonitor;
  escorts: EscortMonitor;
  /** Reads the pairs or escorts again, after the last reload asked for (reloads run one after another). */
  loadKeepApart(): Promise<void>;
  loadEscorts(): Promise<void>;
}

/** Reloads run one after another, so the last one always reads the latest committed rows. */
function oneAfterAnother(load: () => Promise<void>): () => Promise<void> {
  let queue: Promise<void> = Promise.resolve();
  return () => {
    const next = queue.then(load);
    queue = next.catch(() => undefined);
    return next;
  };
}

export function registerLiveMonitors(
  app: FastifyInstance,
  ports: Pick<TrackingPorts, 'listActivePairs' | 'listLiveEscorts'>,
  tracking: () => MonitoredTracking,
): LiveMonitors {
  const keepApart = new KeepApartMonitor({
    metres: app.config.KEEP_APART_METRES,
    hysteresisMetres: app.config.KEEP_APART_HYSTERESIS_METRES,
    maxAgeMs: app.config.DEVICE_OFFLINE_SECONDS * 1000,
  });
  const loadKeepApart = oneAfterAnother(async () => keepApart.setPairs(await ports.listActivePairs(app.db)));
  // Every process of a cluster reloads too (decision 036); a single process just reloads.
  const changes = app.cluster.changes;
  changes.on('keep-apart', loadKeepApart);
  app.decorate('keepApartMonitor', keepApart);
  app.decorate('reloadKeepApart', () => changes.publish('keep-apart'));
  // An escort holds only while the officer's tracker is theirs and online (decision 037): one registry lookup.
  const escorts = new EscortMonitor((deviceId, staffId) => {
    const device = tracking().registry.get(deviceId);
    if (!device || device.staffId !== staffId) return 'none';
    return device.online ? 'online' : 'offline';
  });
  const loadEscorts = oneAfterAnother(async () => {
    escorts.setEscorts(await ports.listLiveEscorts(app.db));
    // Whoever reported before (before this escort, or before a restart) is known from their last fix.
    tracking().rememberEscortPositions();
  });
  changes.on('escorts', loadEscorts);
  app.decorate('escortMonitor', escorts);
  app.decorate('reloadEscorts', () => changes.publish('escorts'));
  // An escorted prisoner's Negative geofences wait while the escort holds (decision 035).
  engineOf(app)?.setNegativeSuppression((prisonerId, t) => escorts.holds(prisonerId, t));
  return { keepApart, escorts, loadKeepApart, loadEscorts };
}
