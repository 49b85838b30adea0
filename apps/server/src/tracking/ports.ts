// The ports the tracking core needs from the feature modules (and the fix sink it offers the protocols); the modules
// implement them and composition.ts passes them in. The fix-rule port is tracking/fix-rules.ts.
import type { SQL } from 'drizzle-orm';
import type { AlertType, NearbyStaffEntry, ShowAlertEvent, StoredGeofence } from '@prison/shared';
import type { DbOrTx, Tx } from '../db/client';
import type { DeviceRegistry } from './device-registry';
import type { EscortRef } from './escort-monitor';
import type { Fix } from './fix';
import type { KeepApartPairRef } from './keep-apart-monitor';
import type { SubmitOutcome } from './pipeline/accept';

export type AlertKind = 'geofence' | 'offline' | 'sos' | 'tamper' | 'battery' | 'manual' | 'keep_apart' | 'unescorted' | 'roll_count' | 'reader_silent' | 'observation' | 'movement' | 'staff_down' | 'duress';

export interface NewAlert {
  alertType: AlertType;
  kind: AlertKind;
  details: string;
  at: Date;
  deviceId: string | null;
  prisonerId: number | null;
  geofenceId?: string | null;
  /** A staff SOS: the nearest other staff trackers at the alarm (decision 072). */
  nearbyStaff?: NearbyStaffEntry[] | null;
  /** Work for the control room, or an event; unset: the alert store decides by kind and level. */
  needsAction?: boolean;
}

/** An alert just stored, with what the live toast needs. */
export interface StoredAlert extends NewAlert {
  id: number;
  /** Folded into an alert already open (a repeat of its rule and person): no new toast, the screens refetch. */
  repeated?: boolean;
}

/** An open alarm alert (SOS, tamper) and when it was last raised or repeated. */
export interface OpenAlarmAlert {
  id: number;
  deviceId: string;
  kind: string;
  last: Date;
}

/** Repeats to add to an alert, the latest at `lastAt`. */
export interface AlertRepeats {
  alertId: number;
  repeats: number;
  lastAt: Date;
}

/** Who wore the alert's device: name and cell, so the toast tells apart two prisoners of one name. */
export interface AlertWearer {
  prisonerName: string | null;
  /** His prison number (decision 101): the toast shows it instead of the id; absent where nobody or not known. */
  prisonNumber?: string | null;
  cellId: string | null;
  /** The block of that cell: whose browsers are shown the alert (decision 051); never sent to them. */
  block: string | null;
}

/**
 * Where the tracking service writes, folds and ends alerts, and how a stored one is shown live (modules/alerts): the
 * one writer of the alerts table, so a repeat of one rule for one person folds in one place.
 */
export interface AlertStore {
  /** Stores alerts, a repeat of an open alert's rule and person folding into it; answers them in input order. */
  insertAlerts(db: DbOrTx, drafts: NewAlert[]): Promise<StoredAlert[]>;
  /**
   * The same as a part of a larger statement's `with` list (decision 080): the drafts in `json` (`alertsJson`) for
   * which `where` holds, ending in `stored_alerts(id, draft, repeated)`.
   */
  storeAlertsSql(json: SQL, where: SQL): SQL;
  alertsJson(drafts: NewAlert[]): string;
  /** A batch statement's part: ends the open offline alerts of the devices `deviceIds` (text array) at `at`. */
  endOfflineAlertsSql(deviceIds: SQL, at: SQL, guard: SQL): SQL;
  /** A batch statement's part: the alerts of the violations ending in the relation `changes` record when. */
  endViolationAlertsSql(devices: SQL, guard: SQL): SQL;
  /** Ends the open alerts of this kind on these devices. */
  endOpenAlerts(db: DbOrTx, deviceIds: string[], kind: AlertKind, at: Date): Promise<void>;
  /** The open alarm alerts of these devices last raised or repeated since `earliest`, locked (decision 038). */
  openAlarmAlerts(tx: Tx, deviceIds: string[], earliest: Date): Promise<OpenAlarmAlert[]>;
  /** Adds repeats to their alerts. */
  recordRepeats(tx: Tx, repeats: AlertRepeats[]): Promise<void>;
  /** Deletes up to `limit` resolved alerts raised and resolved before `cutoff`; answers how many. */
  deleteResolvedAlerts(db: DbOrTx, cutoff: string, limit: number): Promise<number>;
  showAlertEvent(alert: StoredAlert, wearer: AlertWearer): ShowAlertEvent & { alertId: number; block?: string | null };
}

/**
 * Where a protocol hands its checked fixes (the core's `app.tracking`): the device registry that authenticates the
 * sender, the checks' settings, the counters, and `submit`, which resolves once the fixes are committed.
 */
export interface FixSink {
  readonly registry: Pick<DeviceRegistry, 'get' | 'authenticate'>;
  /** Fixes dated further ahead than this are refused (tracking/fix.ts `checkFix`). */
  readonly maxFutureSeconds: number;
  /** Whether every device must send its secret, on OsmAnd too. */
  readonly deviceSecretRequired: boolean;
  readonly metrics: TrackingMetrics;
  submit(fixes: Fix[]): Promise<SubmitOutcome[]>;
}

/**
 * A source of fixes that a feature opens once the server listens: the OsmAnd port of modules/ingest, the indoor
 * readers' MQTT subscription of modules/readers.
 */
export interface ListeningFixSource {
  /** Opens the source, feeding the tracking service; rejects (naming its port) when it cannot open. */
  open(tracking: FixSink): Promise<void>;
  /** The bound port (null before open, after close, when it could not open, or for a source without one). */
  port(): number | null;
  /** A link to an outside service to show in /readyz (the MQTT broker), or none. */
  link?(): { name: string; state: 'up' | 'down' } | null;
  /** Stops taking fixes (before the server closes). */
  close(): Promise<void>;
  /** Frees what the source holds besides its listener (on close). */
  stop(): void;
}

/**
 * How a fix reached the server: the OsmAnd port or path, a Traccar server's forwarder (decision 106), the Socket.IO
 * device protocol, a gateway's batch, or an indoor reader's sightings over MQTT or HTTP (decision 067).
 */
export type FixProtocol = (typeof FIX_PROTOCOLS)[number];

/**
 * Every way in, as /metrics names it: `mqtt` and `reader` are our own sightings format over MQTT and HTTP, then each
 * gateway format over each transport, and the RTLS's plan positions.
 */
export const FIX_PROTOCOLS = [
  'osmand',
  'traccar',
  'socketio',
  'batch',
  'mqtt',
  'reader',
  'openmqttgateway_mqtt',
  'openmqttgateway_http',
  'minew_mqtt',
  'minew_http',
  'rtls',
] as const;

/**
 * What the core counts for monitoring (modules/metrics, decision 059). Every call only adds to numbers in memory, so
 * the hot path stays cheap; the totals are read when Prometheus scrapes.
 */
export interface TrackingMetrics {
  /** Fixes a protocol handed in (a request that could not be read counts as one). */
  fixesReceived(protocol: FixProtocol, count: number): void;
  /** Fixes answered with a refusal (bad input, unknown device or wrong secret, throttled, a value the database refused). */
  fixesRefused(protocol: FixProtocol, count: number): void;
  /** Fixes committed (repeats of a stored fix not counted). */
  fixesStored(count: number): void;
  /** The same, by the protocol that brought them (counted by the source once its fixes are committed). */
  fixesStoredFrom(protocol: FixProtocol, count: number): void;
  /** Alerts stored and announced by the core (geofence, offline, alarms, battery, keep-apart, escorts). */
  alertsRaised(alerts: readonly Pick<NewAlert, 'alertType'>[]): void;
  /** Seconds from a fix's arrival to the announcement of the alert it raised. */
  fixToAlert(seconds: number): void;
}

/** Counts nothing: a core built without monitoring (tests, benchmarks, METRICS_TOKEN unset). */
export const NO_TRACKING_METRICS: TrackingMetrics = {
  fixesReceived: () => undefined,
  fixesRefused: () => undefined,
  fixesStored: () => undefined,
  fixesStoredFrom: () => undefined,
  alertsRaised: () => undefined,
  fixToAlert: () => undefined,
};

/** What the core reads from the feature modules; composition.ts passes them in. */
export interface TrackingPorts {
  alerts: AlertStore;
  /** Where the geofences come from (modules/geofences). */
  listStoredGeofences(db: DbOrTx): Promise<StoredGeofence[]>;
  /** Where the escorts not ended come from (modules/escorts). */
  listLiveEscorts(db: DbOrTx): Promise<EscortRef[]>;
  /** Where the active keep-apart pairs come from (modules/keep-apart). */
  listActivePairs(db: DbOrTx): Promise<KeepApartPairRef[]>;
}
