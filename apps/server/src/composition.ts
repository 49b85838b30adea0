// The composition root: the feature modules' implementations of the ports that the cluster and the tracking core declare.
import type { ClusterPorts } from './cluster';
import type { TrackingPorts } from './tracking/ports';
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
  // The OsmAnd port first (`app.osmandPort()`), then the indoor readers' MQTT subscription (decision 067), then the
  // RTLS's plan positions.
  createFixSources: (app) => [createOsmandFixSource(app), createReaderFixSource(app), createRtlsFixSource(app)],
  createMetrics: createPrisonMetrics,
  // The fix rules of the features (decision 064): controlled movements, staff man-down and falls.
  createFixRules: (app) => [createMovementRule(app), createManDownRule(app)],
};
