// The composition root: the feature modules' implementations of the ports that the cluster and the tracking core
// declare, and the one place that builds the tracking core (its engine, monitors, rules, service and fix sources).
import type { FastifyInstance } from 'fastify';
import type { ClusterPorts } from './cluster';
import { registerGeofenceEngine } from './tracking/engine-plugin';
import { engineOf } from './tracking/engine-access';
import { exemptionOf } from './tracking/fix-rules';
import { registerLiveMonitors } from './tracking/live-monitors';
import type { TrackingPorts } from './tracking/ports';
import { registerTrackingLifecycle } from './tracking/tracking-lifecycle';
import { TrackingService } from './tracking/tracking-service';
import { readShowAlertEvent } from './modules/alerts/alert-records';
import {
  alertsJson,
  deleteResolvedAlerts,
  endOfflineAlertsSql,
  endOpenAlerts,
  endViolationAlertsSql,
  insertAlerts,
  openAlarmAlerts,
  recordRepeats,
  showAlertEvent,
  storeAlertsSql,
} from './modules/alerts/alert-store';
import { listLiveEscorts } from './modules/escorts/escort-service';
import { listStoredGeofences } from './modules/geofences/geofence-service';
import { createOsmandFixSource } from './modules/ingest/osmand-source';
import { listActivePairs } from './modules/keep-apart/keep-apart-service';
import { createReaderFixSource } from './modules/readers/reader-source';
import { createRtlsFixSource } from './modules/rtls/rtls-source';
import { createPrisonMetrics } from './modules/metrics/prison-metrics';
import { createMovementRule } from './modules/movements/movement-wiring';
import { invalidatePrisonerCaches } from './modules/prisoners/prisoner-repository';
import { createManDownRule } from './modules/staff-safety/man-down-wiring';
import { invalidateSessionCache } from './sessions/session-service';

export const clusterPorts: ClusterPorts = {
  // The modules' caches that another process's write makes stale (decision 036).
  cacheInvalidators: [
    { kind: 'prisoners', invalidate: () => invalidatePrisonerCaches() },
    { kind: 'sessions', invalidate: () => invalidateSessionCache() },
  ],
  readShowAlertEvent,
};

export const trackingPorts: TrackingPorts = {
  alerts: {
    insertAlerts,
    storeAlertsSql,
    alertsJson,
    endOfflineAlertsSql,
    endViolationAlertsSql,
    endOpenAlerts,
    openAlarmAlerts,
    recordRepeats,
    deleteResolvedAlerts,
    showAlertEvent,
  },
  listStoredGeofences,
  listLiveEscorts,
  listActivePairs,
};

/**
 * The tracking core, built in the order its parts need each other: the geofence engine, the live monitors, the
 * features' fix rules (controlled movements, staff man-down and falls; decision 064) and what they authorise, the
 * service with its counters, then its life in the app with the fix sources: the OsmAnd port first
 * (`app.osmandPort()`), then the indoor readers' MQTT subscription (decision 067), then the RTLS's plan positions.
 */
export async function composeTracking(app: FastifyInstance): Promise<void> {
  await registerGeofenceEngine(app, trackingPorts);
  const monitors = registerLiveMonitors(app, trackingPorts, () => tracking);
  const fixRules = [createMovementRule(app), createManDownRule(app)];
  // What a feature rule authorises (a movement's destination) waits instead of alarming (decision 099).
  engineOf(app)?.setZoneExemption?.(exemptionOf(fixRules));
  const tracking: TrackingService = new TrackingService({
    keepApart: monitors.keepApart,
    escorts: monitors.escorts,
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
    alertStore: trackingPorts.alerts,
    metrics: createPrisonMetrics(app),
    fixRules,
  });
  registerTrackingLifecycle(app, tracking, monitors, () => [createOsmandFixSource(app), createReaderFixSource(app), createRtlsFixSource(app)]);
}
