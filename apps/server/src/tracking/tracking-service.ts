// The tracking core: stores fixes durably in small batched transactions, feeds the newest ones to the geofence
// engine, raises and stores alerts in the same transaction, then fans positions and alerts out to browsers.
// All writes run one after another on a single lane, so the in-memory device state and the database agree.
import type { FastifyBaseLogger } from 'fastify';
import { and, eq, inArray, isNotNull, lt, notInArray, sql } from 'drizzle-orm';
import type { FixOutcome } from '@prison/shared';
import type { Db, DbOrTx, Tx } from '../db/client';
import type { DatabaseHealth } from '../lib/database-health';
import { devices, type positions } from '../db/schema';
import type { Realtime } from '../plugins/realtime';
import { isDataRefusal } from '../lib/database-errors';
import { RateLimitedLog } from '../lib/rate-limited-log';
import type { Cluster, SharedPosition } from '../cluster';
import type { AlertFeed } from '../cluster/alert-feed';
import { displayName, DeviceRegistry, liveColumns, liveState, type LockedDeviceRow, type TrackedDevice } from './device-registry';
import { geofenceAlertMessage, type EngineTransitionLike, type GeofenceEngineLike } from './engine-access';
import { DEFAULT_MAX_FUTURE_SECONDS, type Fix } from './fix';
import type { PortableDevice, SavedDevice } from './geofence-engine';
import { escortAlertMessage, type EscortEvent, type EscortMonitor, type SavedEscorts } from './escort-monitor';
import { keepApartAlertMessage, type KeepApartMonitor, type SavedKeepApart } from './keep-apart-monitor';
import { LivePositions } from './live-positions';
import { groupAlarms, recordAlarmRepeats, type AlarmGroup } from './alarm-repeats';
import type { AlertStore, AlertWearer, NewAlert, StoredAlert } from './ports';

/** Fixes arriving within this window share one transaction. */
const FLUSH_DELAY_MS = 2;
/** Most fixes per transaction: bounds the latency of the fixes that wait behind a large batch. */
const MAX_FIXES_PER_TRANSACTION = 2000;
export const LOW_BATTERY_PERCENT = 15;
export const BATTERY_REARM_PERCENT = 20;
/** Names and assignments changed outside the devices API (prisoner edits) are picked up this often. */
const REGISTRY_REFRESH_MS = 30_000;

export interface TrackingOptions {
  db: Db;
  realtime: Realtime;
  engine: () => GeofenceEngineLike | null;
  log: FastifyBaseLogger;
  /** Database failures are reported here: logged once per kind per interval, without SQL; an outage is announced. */
  databaseHealth: Pick<DatabaseHealth, 'failed'>;
  offlineSeconds: number;
  /** MAX_FUTURE_SECONDS: how far ahead of the server clock a fix may be dated. */
  maxFutureSeconds?: number;
  /** DEVICE_SECRET_REQUIRED (decision 038): every device sends its secret on every protocol; default true. */
  deviceSecretRequired?: boolean;
  /** Keep-apart pairs on live positions (decision 032); none: no proximity alerts. */
  keepApart?: KeepApartMonitor;
  /** Escorts on live positions (decision 035); none: no unescorted alerts. */
  escorts?: EscortMonitor;
  /** Cluster mode (decision 036): device row locks, shared positions, the leader's offline watcher. */
  cluster?: Pick<Cluster, 'enabled' | 'isLeader' | 'sharePositions' | 'changes' | 'instance' | 'liveInstances'>;
  /** New alerts to every browser of every process, once (decision 039). */
  alerts: Pick<AlertFeed, 'raised'>;
  /** Where alerts are written and ended, and how a stored one is shown (modules/alerts, through composition.ts). */
  alertStore: AlertStore;
}

/** What became of one submitted fix; 'invalid': the database refused its values, so it alone was not stored. */
export type SubmitOutcome = FixOutcome | 'invalid';

interface PendingGroup {
  fixes: Fix[];
  resolve(outcomes: SubmitOutcome[]): void;
  reject(error: unknown): void;
}

/** Cluster mode: the row whose flag decides which process raises an alert about two trackers (decision 036). */
type PairClaim = { keepApartPair: number } | { escort: number };

/** An alert to store, with the name and cell its live toast shows. */
interface AlertDraft {
  alert: NewAlert;
  wearer: AlertWearer;
  claim?: PairClaim;
}

/** Sets the pair's or escort's flag; false when another transaction set it first (its alert is raised already). */
async function claim(tx: Tx, target: PairClaim): Promise<boolean> {
  const result = (
    'keepApartPair' in target
      ? await tx.execute(sql`update keep_apart_pairs set meeting = true where id = ${target.keepApartPair} and not meeting returning id`)
      : await tx.execute(sql`update escorts set unescorted = true where id = ${target.escort} and not unescorted returning id`)
  ) as unknown as { rows: unknown[] };
  return result.rows.length > 0;
}

/** How a keep-apart alert names a prisoner: names are not unique, the id is. */
const keepApartName = (device: TrackedDevice) => `${displayName(device)} (#${device.prisonerId})`;

function sharedPosition(device: TrackedDevice): SharedPosition {
  return {
    id: device.id,
    revision: device.revision,
    lastSeenAt: device.lastSeenAt,
    lastFixAt: device.lastFixAt,
    latitude: device.latitude ?? 0,
    longitude: device.longitude ?? 0,
    battery: device.battery,
    online: device.online,
  };
}

/** Geofence state changes, applied in order after the alerts of the same transaction are stored. */
type GeofenceEvent = { kind: 'start'; deviceId: string; geofenceId: string; at: Date; draft: number } | { kind: 'end'; deviceId: string; geofenceId: string; at: Date };

type PositionRow = typeof positions.$inferInsert & { recordedAt: Date };

/** A batch of fixes run through the state in memory, with what to put back if it is not stored. */
interface BatchPlan {
  fixes: Fix[];
  now: Date;
  before: Map<string, TrackedDevice>;
  engineBefore: Map<string, SavedDevice>;
  keepApartBefore: Map<number, SavedKeepApart>;
  escortsBefore: { restore: () => void }[];
  rows: PositionRow[];
  present: boolean[];
  outcomes: FixOutcome[];
  drafts: AlertDraft[];
  events: GeofenceEvent[];
  moved: Set<TrackedDevice>;
  cameOnline: Set<string>;
  alarms: { index: number; fix: Fix; device: TrackedDevice; at: Date }[];
  rejoined: EscortEvent[];
  /** Keep-apart meetings that ended in this batch. */
  endedPairs: number[];
}

/** The alerts stored by a batch, and the drafts they came from (in the same order). */
interface Persisted {
  stored: StoredAlert[];
  drafts: AlertDraft[];
  /** An open alarm alert was updated by a repeat (decision 038): screens refetch, no new toast. */
  repeated?: boolean;
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/**
 * One statement for the fixes and the device state: a multi-row insert of the fixes (a fix already stored, same
 * device and time, is skipped) and an update of the devices they came from. Column arrays keep it to 19 parameters
 * however many fixes. A single statement is atomic, so a batch that raises nothing needs no explicit transaction.
 * Answers the keys (`device|ms`) of the fixes actually inserted.
 */
async function writeFixes(db: DbOrTx, rows: PositionRow[], states: TrackedDevice[]): Promise<Set<string>> {
  if (rows.length === 0) return new Set();
  const fix = <T>(pick: (row: PositionRow) => T) => sql.param(rows.map(pick));
  const device = <T>(pick: (d: TrackedDevice) => T) => sql.param(states.map(pick));
  const result = (await db.execute(sql`
    with inserted as (
      insert into positions (device_id, prisoner_id, recorded_at, received_at, latitude, longitude, accuracy, speed, bearing, altitude, battery)
      select * from unnest(${fix((r) => r.deviceId)}::text[], ${fix((r) => r.prisonerId ?? null)}::int[],
        ${fix((r) => r.recordedAt.toISOString())}::timestamptz[], ${fix((r) => (r.receivedAt as Date).toISOString())}::timestamptz[],
        ${fix((r) => r.latitude)}::float8[], ${fix((r) => r.longitude)}::float8[], ${fix((r) => r.accuracy ?? null)}::real[],
        ${fix((r) => r.speed ?? null)}::real[], ${fix((r) => r.bearing ?? null)}::real[], ${fix((r) => r.altitude ?? null)}::real[],
        ${fix((r) => r.battery ?? null)}::real[])
      on conflict (device_id, recorded_at) do nothing
      returning device_id, floor(extract(epoch from recorded_at) * 1000 + 0.5)::float8 as ms
    ), state as (
      update devices as d set last_seen_at = v.seen, last_fix_at = v.fix, last_latitude = v.lat, last_longitude = v.lng,
        last_battery = v.battery, online = v.online, low_battery_alerted = v.low
      from unnest(${device((d) => d.id)}::text[], ${device((d) => iso(d.lastSeenAt))}::timestamptz[], ${device((d) => iso(d.lastFixAt))}::timestamptz[],
        ${device((d) => d.latitude)}::float8[], ${device((d) => d.longitude)}::float8[], ${device((d) => d.battery)}::real[],
        ${device((d) => d.online)}::boolean[], ${device((d) => d.lowBatteryAlerted)}::boolean[]) as v(id, seen, fix, lat, lng, battery, online, low)
      where d.id = v.id
      returning 1
    )
    select device_id, ms from inserted`)) as unknown as { rows: { device_id: string; ms: number | string }[] };
  return new Set(result.rows.map((r) => `${r.device_id}|${Number(r.ms)}`));
}

interface StateRow {
  deviceId: string;
  geofenceId: string;
  at: Date;
  /** null keeps the alert of the violation that just ended. */
  alertId: number | null;
}

/** Guarded by EXISTS: a geofence deleted a moment ago must not fail the fixes of everyone else. */
async function upsertGeofenceStates(tx: Tx, rows: StateRow[], violating: boolean): Promise<void> {
  if (rows.length === 0) return;
  await tx.execute(sql`
    insert into geofence_states (device_id, geofence_id, violating, since, alert_id)
    select v.d, v.g, ${violating}::boolean, v.s, v.a
    from unnest(${sql.param(rows.map((r) => r.deviceId))}::text[], ${sql.param(rows.map((r) => r.geofenceId))}::text[],
      ${sql.param(rows.map((r) => r.at.toISOString()))}::timestamptz[], ${sql.param(rows.map((r) => r.alertId))}::int[]) as v(d, g, s, a)
    where exists (select 1 from geofences f where f.geofence_id = v.g)
    on conflict (device_id, geofence_id) do update
      set violating = excluded.violating, since = excluded.since, alert_id = coalesce(excluded.alert_id, geofence_states.alert_id)`);
}

/** The alert of each ending violation records when it ended. */
async function endGeofenceAlerts(tx: Tx, rows: { deviceId: string; geofenceId: string; at: Date }[]): Promise<void> {
  if (rows.length === 0) return;
  await tx.execute(sql`
    update alerts as a set ended_at = v.at
    from unnest(${sql.param(rows.map((r) => r.deviceId))}::text[], ${sql.param(rows.map((r) => r.geofenceId))}::text[],
      ${sql.param(rows.map((r) => r.at.toISOString()))}::timestamptz[]) as v(d, g, at)
    join geofence_states s on s.device_id = v.d and s.geofence_id = v.g
    where a.id = s.alert_id and a.ended_at is null`);
}

export class ServiceStopped extends Error {
  constructor() {
    super('The server is shutting down; send the fix again');
  }
}

export class TrackingService {
  readonly registry = new DeviceRegistry();
  readonly live: LivePositions;
  private queue: PendingGroup[] = [];
  private flushTimer: NodeJS.Timeout | null = null;
  private flushQueued = false;
  private lane: Promise<unknown> = Promise.resolve();
  private watcher: NodeJS.Timeout | null = null;
  private refresher: NodeJS.Timeout | null = null;
  private stopped = false;
  private readonly startedAt = Date.now();

  /** A failing engine fails on every fix: one line per interval, not one per fix. */
  private readonly engineFailures: RateLimitedLog;

  constructor(private readonly options: TrackingOptions) {
    this.engineFailures = new RateLimitedLog(options.log);
    this.live = new LivePositions(options.realtime, this.registry);
  }

  get offlineMs(): number {
    return this.options.offlineSeconds * 1000;
  }

  /** Fixes dated further ahead than this are refused before they reach the service (tracking/fix.ts `checkFix`). */
  get maxFutureSeconds(): number {
    return this.options.maxFutureSeconds ?? DEFAULT_MAX_FUTURE_SECONDS;
  }

  /** Whether every device must send its secret, on OsmAnd too (decision 038). */
  get deviceSecretRequired(): boolean {
    return this.options.deviceSecretRequired ?? true;
  }

  async start(): Promise<void> {
    await this.registry.load(this.options.db, Date.now());
    // Cluster mode: this process's engine starts empty, so every device's first fix here takes the stored state.
    if (this.options.cluster?.enabled) for (const device of this.registry.all()) device.revision = -1;
    this.live.start();
    // Checked several times per threshold, so an offline device is reported within about a quarter of it late.
    const every = Math.min(5000, Math.max(200, this.offlineMs / 4));
    this.watcher = setInterval(() => void this.checkSilence().catch((error) => this.options.databaseHealth.failed(error, 'offline check')), every);
    this.watcher.unref();
    this.refresher = setInterval(() => void this.registry.refreshAll(this.options.db).catch((error) => this.options.databaseHealth.failed(error, 'device registry refresh')), REGISTRY_REFRESH_MS);
    this.refresher.unref();
  }

  /** Finishes what was acknowledged or queued, then stops the timers. */
  async stop(): Promise<void> {
    if (this.stopped) return;
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = null;
    if (this.queue.length) await this.runOnLane(() => this.flushAll());
    this.stopped = true;
    if (this.watcher) clearInterval(this.watcher);
    if (this.refresher) clearInterval(this.refresher);
    this.live.stop();
    this.engineFailures.stop();
    await this.lane.catch(() => undefined);
  }

  /**
   * Stores authenticated, checked fixes; resolves once they are committed. All fixes of one call share one
   * transaction, unless the database refuses one of them: then it alone answers 'invalid' and the others are stored.
   * A fix already stored answers 'duplicate' and raises nothing.
   */
  submit(fixes: Fix[]): Promise<SubmitOutcome[]> {
    if (this.stopped) return Promise.reject(new ServiceStopped());
    if (fixes.length === 0) return Promise.resolve([]);
    return new Promise((resolve, reject) => {
      this.queue.push({ fixes, resolve, reject });
      this.flushTimer ??= setTimeout(() => {
        this.flushTimer = null;
        this.queueFlush();
      }, FLUSH_DELAY_MS);
    });
  }

  /**
   * After an API change to a device: reload it; a removed device leaves the map and the engine, and a device given
   * to another wearer starts with a clean geofence state. In a cluster every process does the same (decision 036).
   */
  async deviceChanged(id: string, options: { reassigned?: boolean } = {}): Promise<void> {
    if (this.options.cluster?.enabled && options.reassigned) {
      // The stored engine memory belonged to the previous wearer: no process may take it over (decision 036).
      await this.options.db.update(devices).set({ engineState: null, revision: sql`${devices.revision} + 1` }).where(eq(devices.id, id));
    }
    if (this.options.cluster) await this.options.cluster.changes.publish('device', { id, reassigned: !!options.reassigned });
    else await this.applyDeviceChange(id, options, true);
  }

  /** `announce`: this process made the change, so it tells the browsers (of every process) a removed device left. */
  async applyDeviceChange(id: string, options: { reassigned?: boolean }, announce: boolean): Promise<void> {
    const wearer = this.registry.get(id)?.prisonerId ?? null;
    const device = await this.registry.refresh(this.options.db, id);
    if (wearer !== null && (options.reassigned || !device)) this.options.keepApart?.forget(wearer);
    if (options.reassigned) this.options.engine()?.forgetDevice(id);
    if (!device) {
      this.options.engine()?.forgetDevice(id);
      this.live.left(id);
      if (announce) this.options.realtime.toBrowsers().emit('userDisconnected', id);
    } else if (device.online) {
      this.live.moved(device); // the name on the marker may have changed
    }
  }

  /**
   * After a prisoner changed cell (or a cell its block) outside the devices API: re-reads every device's wearer, so
   * the next fix is judged by the geofences of the new block (decision 033). A failure is logged; the periodic
   * refresh catches up.
   */
  async wearersChanged(): Promise<void> {
    if (this.options.cluster) await this.options.cluster.changes.publish('wearers');
    else await this.refreshWearers();
  }

  async refreshWearers(): Promise<void> {
    await this.registry.refreshAll(this.options.db).catch((error) => this.options.databaseHealth.failed(error, 'device registry refresh'));
  }

  /**
   * Cluster mode: positions another process stored. They move this process's markers and feed its keep-apart and
   * escort monitors (whose alerts the other process raised, if any); the device's revision is left as it was, so
   * this process takes the full state from the database before it evaluates the device's next fix itself.
   */
  applySharedPositions(positions: SharedPosition[]): void {
    for (const shared of positions) {
      const device = this.registry.get(shared.id);
      if (!device || (device.lastFixAt !== null && shared.lastFixAt !== null && shared.lastFixAt < device.lastFixAt)) continue;
      Object.assign(device, {
        lastSeenAt: shared.lastSeenAt,
        lastFixAt: shared.lastFixAt,
        latitude: shared.latitude,
        longitude: shared.longitude,
        battery: shared.battery,
        online: shared.online,
      });
      this.live.moved(device);
      if (shared.lastFixAt === null) continue;
      const at = new Date(shared.lastFixAt);
      const position = { deviceId: device.id, name: displayName(device), lat: shared.latitude, lng: shared.longitude, at };
      if (device.prisonerId !== null) {
        this.options.keepApart?.update({ ...position, prisonerId: device.prisonerId, name: keepApartName(device) });
        this.options.escorts?.updatePrisoner(device.prisonerId, position);
      } else if (device.staffId !== null) {
        this.options.escorts?.updateStaff(device.staffId, position);
      }
    }
    // Ends seen here were (or will be) written by the process that took the fixes.
    this.options.keepApart?.takeEnded();
  }

  /**
   * The escort monitor learns the last known position of everyone it watches, from the registry (the stored last fix
   * after a restart): an officer who reported before a restart or before the escort began is known (decision 037).
   */
  rememberEscortPositions(): void {
    const escorts = this.options.escorts;
    if (!escorts) return;
    for (const device of this.registry.all()) {
      if (device.lastFixAt === null || device.latitude === null || device.longitude === null) continue;
      const position = { deviceId: device.id, name: displayName(device), lat: device.latitude, lng: device.longitude, at: new Date(device.lastFixAt) };
      if (device.prisonerId !== null) escorts.rememberPrisoner(device.prisonerId, position);
      else if (device.staffId !== null) escorts.rememberStaff(device.staffId, position);
    }
  }

  /** Cluster mode: the leader's offline watcher marked these devices offline. */
  applyOffline(ids: string[]): void {
    for (const id of ids) {
      const device = this.registry.get(id);
      if (!device) continue;
      device.online = false;
      if (device.prisonerId !== null) this.options.keepApart?.forget(device.prisonerId);
      this.live.left(id);
    }
  }

  /** Browsers (and the live map's side panel) read this: every online device with a position. */
  snapshot() {
    return this.live.snapshot();
  }

  private runOnLane<T>(job: () => Promise<T>): Promise<T> {
    const run = this.lane.then(job, job);
    this.lane = run.catch(() => undefined);
    return run;
  }

  private queueFlush(): void {
    if (this.flushQueued || this.queue.length === 0) return;
    this.flushQueued = true;
    void this.runOnLane(async () => {
      this.flushQueued = false;
      await this.flushOnce();
      // Fixes that arrived during the transaction go in the next one at once.
      if (this.queue.length) this.queueFlush();
    });
  }

  private async flushAll(): Promise<void> {
    while (this.queue.length) await this.flushOnce();
  }

  private async flushOnce(): Promise<void> {
    const batch: PendingGroup[] = [];
    let size = 0;
    while (this.queue.length && (batch.length === 0 || size + this.queue[0]!.fixes.length <= MAX_FIXES_PER_TRANSACTION)) {
      const group = this.queue.shift()!;
      batch.push(group);
      size += group.fixes.length;
    }
    if (batch.length === 0) return;
    try {
      const outcomes = await this.writeIsolated(batch.flatMap((g) => g.fixes));
      let offset = 0;
      for (const group of batch) {
        group.resolve(outcomes.slice(offset, offset + group.fixes.length));
        offset += group.fixes.length;
      }
    } catch (error) {
      this.options.databaseHealth.failed(error, 'storing fixes');
      for (const group of batch) group.reject(error);
    }
  }

  /**
   * Fixes of many devices share one statement. When the database refuses a value of one of them (class 22 or 23),
   * the batch is written again in halves, so only the fixes it refuses fail and every other one is stored and
   * acknowledged. A database that cannot be reached (any other failure) fails the whole batch at once: trying again
   * piece by piece would only multiply the failures.
   */
  private async writeIsolated(fixes: Fix[]): Promise<SubmitOutcome[]> {
    try {
      return await this.writeBatch(fixes);
    } catch (error) {
      if (!isDataRefusal(error)) throw error;
      if (fixes.length === 1) {
        // Logged once per kind per interval: a device sending bad values all day must not flood the log.
        this.options.databaseHealth.failed(error, 'storing a fix the database refused');
        return ['invalid'];
      }
      const half = Math.ceil(fixes.length / 2);
      const first = await this.writeIsolated(fixes.slice(0, half));
      return [...first, ...(await this.writeIsolated(fixes.slice(half)))];
    }
  }

  private async writeBatch(fixes: Fix[]): Promise<FixOutcome[]> {
    const now = new Date();
    if (this.options.cluster?.enabled) return this.writeBatchLocked(fixes, now);
    const plan = this.plan(fixes, now);
    let result: Persisted = { stored: [], drafts: plan.drafts };
    try {
      if (plan.drafts.length === 0 && plan.events.length === 0 && plan.alarms.length === 0 && plan.cameOnline.size === 0 && plan.rejoined.length === 0) {
        // The common case, nothing to raise: one statement, one round trip.
        this.markStored(plan, await writeFixes(this.options.db, plan.rows, this.touched(plan)));
      } else {
        result = await this.options.db.transaction((tx) => this.persist(tx, plan));
      }
    } catch (error) {
      this.rollback(plan);
      throw error;
    }
    this.afterCommit(plan, result);
    return plan.outcomes;
  }

  /**
   * Cluster mode (decision 036): fixes of one device may reach several processes at once. The transaction first locks
   * the rows of the batch's devices (in id order, so writers never deadlock) and, for each device another process
   * wrote since this one last did (its revision moved), takes over the stored state: position, online, battery and
   * the engine's memory. Only then are the fixes evaluated, so each fix is judged once, in order, against the state
   * left by the fix before it, whichever process took that one; the revision and engine state are written back in
   * the same transaction.
   */
  private async writeBatchLocked(fixes: Fix[], now: Date): Promise<FixOutcome[]> {
    const ids = [...new Set(fixes.map((fix) => fix.deviceId))].filter((id) => this.registry.get(id)).sort();
    let planned: BatchPlan | null = null;
    let result: Persisted;
    try {
      result = await this.options.db.transaction(async (tx) => {
        await this.adoptLockedState(tx, ids, now);
        planned = this.plan(fixes, now);
        return this.persist(tx, planned);
      });
    } catch (error) {
      if (planned) this.rollback(planned);
      throw error;
    }
    const plan = planned as unknown as BatchPlan;
    this.afterCommit(plan, result);
    return plan.outcomes;
  }

  /** Locks the devices' rows; a device another process wrote since takes the stored state (cluster mode). */
  private async adoptLockedState(tx: Tx, ids: string[], now: Date): Promise<void> {
    if (ids.length === 0) return;
    const rows = await tx
      .select({ ...liveColumns, engineState: devices.engineState })
      .from(devices)
      .where(inArray(devices.id, ids))
      .orderBy(devices.id)
      .for('update');
    for (const row of rows) {
      const device = this.registry.get(row.id);
      if (device && device.revision !== row.revision) this.takeOver(device, row, now.getTime());
    }
  }

  /** This process's memory of a device becomes the stored one: live state, revision and the engine's memory. */
  private takeOver(device: TrackedDevice, row: LockedDeviceRow & { engineState: unknown }, now: number): void {
    Object.assign(device, liveState(row, now));
    this.options.engine()?.importDevice(row.id, row.engineState as PortableDevice | null);
  }

  /** Runs the fixes through the devices' state, the engine and the monitors, in memory; nothing is written yet. */
  private plan(fixes: Fix[], now: Date): BatchPlan {
    const engine = this.options.engine();
    const keepApart = this.options.keepApart;
    const escorts = this.options.escorts;
    const savedEscortKeys = new Set<string>();
    const plan: BatchPlan = {
      fixes,
      now,
      before: new Map(),
      engineBefore: new Map(),
      keepApartBefore: new Map(),
      escortsBefore: [],
      rows: [],
      present: [],
      outcomes: [],
      drafts: [],
      events: [],
      moved: new Set(),
      cameOnline: new Set(),
      alarms: [],
      rejoined: [],
      endedPairs: [],
    };
    const { before, engineBefore, keepApartBefore, escortsBefore, rows, present, drafts, events, moved, cameOnline, alarms, rejoined } = plan;

    for (const [index, fix] of fixes.entries()) {
      const device = this.registry.get(fix.deviceId);
      present.push(!!device);
      // Removed between authentication and now: nothing to attach the fix to.
      if (!device) continue;
      if (!before.has(device.id)) before.set(device.id, { ...device });
      rows.push({
        deviceId: device.id,
        prisonerId: device.prisonerId,
        recordedAt: fix.recordedAt,
        receivedAt: now,
        latitude: fix.latitude,
        longitude: fix.longitude,
        accuracy: fix.accuracy ?? null,
        speed: fix.speed ?? null,
        bearing: fix.bearing ?? null,
        altitude: fix.altitude ?? null,
        battery: fix.battery ?? null,
      });
      device.lastSeenAt = now.getTime();
      if (!device.online) {
        device.online = true;
        cameOnline.add(device.id);
      }
      // A device clock slightly ahead (within MAX_FUTURE_SECONDS) counts as the receive time: the history keeps the
      // device's own time, but the newest fix, the engine and the alerts never run ahead of the server, so the next
      // real fix is newer again.
      const effective = fix.recordedAt.getTime() > now.getTime() ? now : fix.recordedAt;
      const at = effective.getTime();
      if (fix.alarm) alarms.push({ index, fix, device, at: effective });
      // Older than the newest (or the same time): history only, no marker move, no engine.
      if (device.lastFixAt !== null && at <= device.lastFixAt) {
        if (cameOnline.has(device.id)) moved.add(device);
        continue;
      }
      device.lastFixAt = at;
      device.latitude = fix.latitude;
      device.longitude = fix.longitude;
      moved.add(device);
      if (fix.battery != null) {
        device.battery = fix.battery;
        if (fix.battery < LOW_BATTERY_PERCENT && !device.lowBatteryAlerted) {
          device.lowBatteryAlerted = true;
          drafts.push(this.draft(device, 'Warning', 'battery', `${displayName(device)}'s tracker battery is low (${Math.round(fix.battery)} %)`, effective));
        } else if (fix.battery > BATTERY_REARM_PERCENT && device.lowBatteryAlerted) {
          device.lowBatteryAlerted = false;
        }
      }
      // Escorts first, so an escort that fails with this fix no longer holds back the perimeter (decision 035).
      if (escorts && escorts.watches(device.prisonerId, device.staffId)) {
        const person = device.prisonerId !== null ? { kind: 'p', id: device.prisonerId } : { kind: 's', id: device.staffId! };
        const key = `${person.kind}${person.id}`;
        if (!savedEscortKeys.has(key)) {
          savedEscortKeys.add(key);
          if (person.kind === 'p') {
            const saved: SavedEscorts = escorts.savePrisoner(person.id);
            escortsBefore.push({ restore: () => escorts.restorePrisoner(person.id, saved) });
          } else {
            const saved: SavedEscorts = escorts.saveStaff(person.id);
            escortsBefore.push({ restore: () => escorts.restoreStaff(person.id, saved) });
          }
        }
        const position = { deviceId: device.id, name: displayName(device), lat: fix.latitude, lng: fix.longitude, at: effective };
        const happened = person.kind === 'p' ? escorts.updatePrisoner(person.id, position) : escorts.updateStaff(person.id, position);
        this.collectEscortEvents(happened, drafts, rejoined);
      }
      // A staff member's tracker (decision 035) is stored and shown, and judged by no geofence and no keep-apart pair.
      if (engine && device.staffId === null) {
        // Copied before the first evaluation, to put back if this batch is not stored.
        if (!engineBefore.has(device.id)) engineBefore.set(device.id, engine.saveDevice(device.id));
        this.collectTransitions(device, this.evaluate(engine, device, fix, effective), drafts, events);
      }
      if (keepApart && device.prisonerId !== null) {
        if (!keepApartBefore.has(device.prisonerId)) keepApartBefore.set(device.prisonerId, keepApart.save(device.prisonerId));
        const meetings = keepApart.update({ prisonerId: device.prisonerId, deviceId: device.id, name: keepApartName(device), lat: fix.latitude, lng: fix.longitude, at: effective });
        for (const meeting of meetings) drafts.push({ ...this.draft(device, 'Warning', 'keep_apart', keepApartAlertMessage(meeting), effective), claim: { keepApartPair: meeting.pairId } });
      }
    }
    plan.endedPairs = keepApart?.takeEnded() ?? [];
    plan.outcomes = present.map((p) => (p ? 'duplicate' : 'refused'));
    return plan;
  }

  /** The batch's devices, sorted, so concurrent writers (the offline watcher) lock device rows in one order. */
  private touched(plan: BatchPlan): TrackedDevice[] {
    return [...plan.before.keys()]
      .sort()
      .map((id) => this.registry.get(id)!)
      .filter(Boolean);
  }

  private markStored(plan: BatchPlan, fresh: Set<string>): void {
    for (const [index, fix] of plan.fixes.entries()) {
      // The first copy of a fix in this batch is the stored one; later copies are duplicates.
      if (plan.present[index] && fresh.delete(`${fix.deviceId}|${fix.recordedAt.getTime()}`)) plan.outcomes[index] = 'stored';
    }
  }

  /** Stores the fixes, the device state, the alerts and the geofence states of a planned batch in one transaction. */
  private async persist(tx: Tx, plan: BatchPlan): Promise<Persisted> {
    const states = this.touched(plan);
    this.markStored(plan, await writeFixes(tx, plan.rows, states));
    // A fix stored before raises nothing; an alarm repeated within a minute updates its open alert (decision 038).
    const alarms = plan.alarms.filter((a) => plan.outcomes[a.index] === 'stored').map((a) => ({ ...a, deviceId: a.device.id, kind: a.fix.alarm! }));
    const alarmGroups = await groupAlarms(tx, alarms);
    const alarmDrafts = new Map<AlarmGroup<(typeof alarms)[number]>, AlertDraft>();
    for (const group of alarmGroups) {
      if (!group.raises) continue;
      const { device, kind, at } = group.raises;
      const text = kind === 'sos' ? `SOS from ${displayName(device)}'s tracker` : `${displayName(device)}'s tracker reports tampering`;
      alarmDrafts.set(group, this.draft(device, 'Critical', kind, text, at));
      plan.drafts.push(alarmDrafts.get(group)!);
    }
    const clustered = !!this.options.cluster?.enabled;
    // Ends before starts: a pair that parted and met again within this batch alerts again, as on one process.
    if (clustered) await this.releasePairs(tx, plan.endedPairs, plan.rejoined);
    const { drafts, events } = clustered ? await this.claimPairAlerts(tx, plan.drafts, plan.events) : plan;
    const saved = await this.options.alertStore.insertAlerts(tx, drafts.map((d) => d.alert));
    const repeats = alarmGroups.filter((g) => g.repeats > 0);
    await recordAlarmRepeats(tx, repeats.map((g) => ({ ...g, alertId: g.alertId ?? saved[drafts.indexOf(alarmDrafts.get(g)!)]!.id })));
    await this.applyGeofenceEvents(tx, events, saved);
    await this.options.alertStore.endOpenAlerts(tx, [...plan.cameOnline], 'offline', plan.now);
    await this.endUnescorted(tx, plan.rejoined);
    if (clustered) await this.writeRevisions(tx, states);
    return { stored: saved, drafts, repeated: repeats.length > 0 };
  }

  /** Nothing was stored: the devices go back as they were (in the engine and monitors too), so a retry is new. */
  private rollback(plan: BatchPlan): void {
    for (const [id, state] of plan.before) {
      const device = this.registry.get(id);
      if (device) Object.assign(device, state);
    }
    const engine = this.options.engine();
    if (engine) for (const [id, saved] of plan.engineBefore) engine.restoreDevice(id, saved);
    // Latest first, so a pair touched by both its prisoners ends as it was before the first of them.
    const keepApart = this.options.keepApart;
    if (keepApart) for (const [id, saved] of [...plan.keepApartBefore].reverse()) keepApart.restore(id, saved);
    for (const saved of plan.escortsBefore.reverse()) saved.restore();
  }

  private afterCommit(plan: BatchPlan, result: Persisted): void {
    for (const device of plan.moved) this.live.moved(device);
    this.announce(result.stored, result.drafts);
    if (result.repeated && result.stored.length === 0) this.options.realtime.toBrowsers().emit('dataChanged', 'alerts');
    if (this.options.cluster?.enabled) this.options.cluster.sharePositions([...plan.moved].map(sharedPosition));
  }

  /**
   * Cluster mode: a keep-apart meeting or a failed escort concerns two trackers that may report to two processes, so
   * both may see it start. The pair's (or escort's) row decides: the first transaction to set its flag raises the
   * alert; the other's draft is dropped. Geofence events keep pointing at their drafts.
   */
  private async claimPairAlerts(tx: Tx, drafts: AlertDraft[], events: GeofenceEvent[]): Promise<{ drafts: AlertDraft[]; events: GeofenceEvent[] }> {
    if (!drafts.some((d) => d.claim)) return { drafts, events };
    // Claimed in one order (pairs, then escorts, by id), so two batches claiming the same rows cannot deadlock.
    const keyOf = (target: PairClaim) => ('keepApartPair' in target ? `a${String(target.keepApartPair).padStart(10, '0')}` : `e${String(target.escort).padStart(10, '0')}`);
    const targets = new Map<string, PairClaim>();
    for (const draft of drafts) if (draft.claim) targets.set(keyOf(draft.claim), draft.claim);
    const won = new Set<string>();
    for (const key of [...targets.keys()].sort()) if (await claim(tx, targets.get(key)!)) won.add(key);
    const kept: AlertDraft[] = [];
    const moved = new Map<number, number>();
    for (const [index, draft] of drafts.entries()) {
      if (draft.claim) {
        const key = keyOf(draft.claim);
        // One alert per pair and batch: a second draft of the same pair in this batch is dropped too.
        if (!won.delete(key)) continue;
      }
      moved.set(index, kept.length);
      kept.push(draft);
    }
    return { drafts: kept, events: events.map((e) => (e.kind === 'start' ? { ...e, draft: moved.get(e.draft)! } : e)) };
  }

  /** Meetings that ended and escorts together again may alert again next time (cluster mode's flags). */
  private async releasePairs(tx: Tx, endedPairs: number[], rejoined: EscortEvent[]): Promise<void> {
    if (endedPairs.length) await tx.execute(sql`update keep_apart_pairs set meeting = false where meeting and id = any(${sql.param(endedPairs)}::int[])`);
    const escortIds = rejoined.map((e) => e.escortId);
    if (escortIds.length) await tx.execute(sql`update escorts set unescorted = false where unescorted and id = any(${sql.param(escortIds)}::int[])`);
  }

  /** Cluster mode: the devices' new revision and engine memory, for the next process that takes one of their fixes. */
  private async writeRevisions(tx: Tx, states: TrackedDevice[]): Promise<void> {
    if (states.length === 0) return;
    const engine = this.options.engine();
    for (const device of states) device.revision += 1;
    const portable = states.map((d) => {
      const exported = engine?.exportDevice(d.id) ?? null;
      return exported ? JSON.stringify(exported) : null;
    });
    await tx.execute(sql`
      update devices as d set revision = v.rev, engine_state = v.state::jsonb, engine_node = ${this.options.cluster?.instance ?? null}
      from unnest(${sql.param(states.map((d) => d.id))}::text[], ${sql.param(states.map((d) => d.revision))}::int[], ${sql.param(portable)}::text[]) as v(id, rev, state)
      where d.id = v.id`);
  }

  /** A failing engine must not cost the fix: it is stored and shown, only its geofence check is lost (and logged). */
  private evaluate(engine: GeofenceEngineLike, device: TrackedDevice, fix: Fix, at: Date): EngineTransitionLike[] {
    try {
      return engine.evaluate(device.id, fix.latitude, fix.longitude, at, { prisonerId: device.prisonerId, block: device.block });
    } catch (error) {
      this.logEngineFailure(error);
      return [];
    }
  }

  private logEngineFailure(error: unknown): void {
    this.engineFailures.error('geofence engine failed; fixes are stored without geofence checks', { err: error });
  }

  private draft(device: TrackedDevice, alertType: NewAlert['alertType'], kind: NewAlert['kind'], details: string, at: Date, geofenceId?: string): AlertDraft {
    return {
      alert: { alertType, kind, details, at, deviceId: device.id, prisonerId: device.prisonerId, geofenceId: geofenceId ?? null },
      wearer: { prisonerName: device.prisonerName, cellId: device.cellId, block: device.block },
    };
  }

  /** An unescorted prisoner: a Critical alert on their tracker; back together: the open one ends. */
  private collectEscortEvents(happened: EscortEvent[], drafts: AlertDraft[], rejoined: EscortEvent[]): void {
    for (const event of happened) {
      if (event.kind === 'rejoined') {
        rejoined.push(event);
        continue;
      }
      const device = this.registry.get(event.prisoner.deviceId);
      if (device) drafts.push({ ...this.draft(device, 'Critical', 'unescorted', escortAlertMessage(event), event.at), claim: { escort: event.escortId } });
    }
  }

  private async endUnescorted(tx: Tx, rejoined: EscortEvent[]): Promise<void> {
    for (const event of rejoined) await this.options.alertStore.endOpenAlerts(tx, [event.prisoner.deviceId], 'unescorted', event.at);
  }

  private collectTransitions(device: TrackedDevice, transitions: EngineTransitionLike[], drafts: AlertDraft[], events: GeofenceEvent[]): void {
    for (const t of transitions) {
      const geofenceId = t.geofence.geofence_id;
      if (t.kind === 'end') {
        events.push({ kind: 'end', deviceId: device.id, geofenceId, at: t.at });
        continue;
      }
      drafts.push(this.draft(device, t.geofence.alert_type, 'geofence', geofenceAlertMessage(displayName(device), t.geofence), t.at, geofenceId));
      events.push({ kind: 'start', deviceId: device.id, geofenceId, at: t.at, draft: drafts.length - 1 });
    }
  }

  /**
   * Keeps geofence_states (so a restart does not re-raise a running violation) and closes ended alerts. Pairs of
   * device and geofence with one event in the batch (nearly all) are written in three statements whatever their
   * number; a pair with several events (in and out within one batch) is applied event by event, in order.
   */
  private async applyGeofenceEvents(tx: Tx, events: GeofenceEvent[], saved: StoredAlert[]): Promise<void> {
    if (events.length === 0) return;
    const pair = (e: GeofenceEvent) => `${e.deviceId}|${e.geofenceId}`;
    const perPair = new Map<string, number>();
    for (const e of events) perPair.set(pair(e), (perPair.get(pair(e)) ?? 0) + 1);
    const single = events.filter((e) => perPair.get(pair(e)) === 1);
    const starts = single.filter((e) => e.kind === 'start');
    const ends = single.filter((e) => e.kind === 'end');
    await upsertGeofenceStates(tx, starts.map((e) => ({ ...e, alertId: e.kind === 'start' ? saved[e.draft]!.id : null })), true);
    await endGeofenceAlerts(tx, ends);
    await upsertGeofenceStates(tx, ends.map((e) => ({ ...e, alertId: null })), false);
    for (const e of events) {
      if (perPair.get(pair(e)) === 1) continue;
      if (e.kind === 'start') await upsertGeofenceStates(tx, [{ ...e, alertId: saved[e.draft]!.id }], true);
      else {
        await endGeofenceAlerts(tx, [e]);
        await upsertGeofenceStates(tx, [{ ...e, alertId: null }], false);
      }
    }
  }

  /** After commit: every stored alert reaches every browser. */
  private announce(stored: StoredAlert[], drafts: AlertDraft[]): void {
    if (stored.length === 0) return;
    void this.options.alerts.raised(stored.map((alert, i) => this.options.alertStore.showAlertEvent(alert, drafts[i]!.wearer)));
  }

  /**
   * Silence is an alarm: a device silent longer than DEVICE_OFFLINE_SECONDS goes offline with a Warning alert and
   * `userDisconnected`. Also runs the engine's dwell timers.
   */
  checkSilence(now = new Date()): Promise<void> {
    if (this.stopped) return Promise.resolve();
    return this.runOnLane(() => this.markSilentDevices(now));
  }

  private async markSilentDevices(now: Date): Promise<void> {
    if (this.options.cluster?.enabled) return this.tickClustered(now);
    const silent: TrackedDevice[] = [];
    for (const device of this.registry.all()) {
      if (device.online && device.lastSeenAt !== null && now.getTime() - device.lastSeenAt > this.offlineMs) silent.push(device);
    }
    const drafts: AlertDraft[] = silent.map((d) => this.draft(d, 'Warning', 'offline', `${displayName(d)}'s tracker is offline`, now));
    const events: GeofenceEvent[] = [];
    // Escorts before the engine: a separation that fails now lets a held-back perimeter violation start in this tick.
    const escortEvents = this.options.escorts?.tick(now) ?? [];
    this.collectEscortEvents(escortEvents, drafts, []);
    let ticked: ReturnType<GeofenceEngineLike['tick']> = [];
    try {
      ticked = this.options.engine()?.tick(now) ?? [];
    } catch (error) {
      this.logEngineFailure(error);
    }
    for (const { deviceId, transitions } of ticked) {
      const device = this.registry.get(deviceId);
      if (device) this.collectTransitions(device, transitions, drafts, events);
    }
    if (drafts.length === 0 && events.length === 0) return;
    const stored = await this.options.db.transaction(async (tx) => {
      if (silent.length) {
        await tx
          .update(devices)
          .set({ online: false })
          .where(inArray(devices.id, silent.map((d) => d.id)));
      }
      const saved = await this.options.alertStore.insertAlerts(tx, drafts.map((d) => d.alert));
      await this.applyGeofenceEvents(tx, events, saved);
      return saved;
    });
    for (const device of silent) {
      device.online = false;
      if (device.prisonerId !== null) this.options.keepApart?.forget(device.prisonerId);
      this.live.left(device.id);
      this.options.realtime.toBrowsers().emit('userDisconnected', device.id);
    }
    this.announce(stored, drafts);
  }

  /**
   * Cluster mode (decision 036): the offline watcher runs on the leader only, from the database (where every process
   * writes when it last heard each device). Dwell and schedule timers and escort separations run on every process,
   * for the devices whose state it holds: a device's transition is taken only under its row lock and only if no other
   * process has written the device since (its revision); an alert about two trackers goes through the pair's flag.
   */
  private async tickClustered(now: Date): Promise<void> {
    if (this.options.cluster!.isLeader()) {
      if (now.getTime() - this.startedAt > this.offlineMs) await this.markOfflineAsLeader(now);
      await this.adoptOrphans();
    }
    const drafts: AlertDraft[] = [];
    this.collectEscortEvents(this.options.escorts?.tick(now) ?? [], drafts, []);
    let ticked: ReturnType<GeofenceEngineLike['tick']> = [];
    try {
      ticked = this.options.engine()?.tick(now) ?? [];
    } catch (error) {
      this.logEngineFailure(error);
    }
    if (drafts.length === 0 && ticked.length === 0) return;
    const result = await this.options.db.transaction(async (tx) => {
      const ids = ticked.map((t) => t.deviceId).filter((id) => this.registry.get(id)).sort();
      const rows = ids.length ? await tx.select({ id: devices.id, revision: devices.revision }).from(devices).where(inArray(devices.id, ids)).orderBy(devices.id).for('update') : [];
      const current = rows.filter((row) => this.registry.get(row.id)?.revision === row.revision).map((row) => this.registry.get(row.id)!);
      const currentById = new Map(current.map((device) => [device.id, device]));
      const events: GeofenceEvent[] = [];
      for (const { deviceId, transitions } of ticked) {
        const device = currentById.get(deviceId);
        if (device) this.collectTransitions(device, transitions, drafts, events);
      }
      const claimed = await this.claimPairAlerts(tx, drafts, events);
      const saved = await this.options.alertStore.insertAlerts(tx, claimed.drafts.map((d) => d.alert));
      await this.applyGeofenceEvents(tx, claimed.events, saved);
      await this.writeRevisions(tx, current);
      return { stored: saved, drafts: claimed.drafts };
    });
    this.announce(result.stored, result.drafts);
  }

  /**
   * The leader: devices whose state was last written by a process instance that is gone (killed, or restarted as a new
   * instance) are taken over here, so their timers (a dwell running out, a schedule window closing) still fire, within
   * one tick of the loss. Under the row lock and only at the revision read, so a device another process has just
   * written stays with it.
   */
  private async adoptOrphans(): Promise<void> {
    const cluster = this.options.cluster!;
    const alive = await cluster.liveInstances();
    if (!alive.includes(cluster.instance)) return; // this process's own marker connection is down: judge nothing
    const now = Date.now();
    await this.options.db.transaction(async (tx) => {
      const rows = await tx
        .select({ ...liveColumns, engineState: devices.engineState })
        .from(devices)
        .where(and(isNotNull(devices.engineNode), notInArray(devices.engineNode, alive)))
        .orderBy(devices.id)
        .for('update', { skipLocked: true });
      if (rows.length === 0) return;
      const adopted: string[] = [];
      for (const row of rows) {
        const device = this.registry.get(row.id);
        if (!device) continue;
        this.takeOver(device, row, now);
        adopted.push(row.id);
      }
      if (adopted.length) await tx.update(devices).set({ engineNode: cluster.instance }).where(inArray(devices.id, adopted));
      this.options.log.info({ devices: adopted.length }, 'adopted the devices of a process instance that is gone');
    });
  }

  /** The leader: devices silent longer than DEVICE_OFFLINE_SECONDS by the database's record go offline, once. */
  private async markOfflineAsLeader(now: Date): Promise<void> {
    const cutoff = new Date(now.getTime() - this.offlineMs);
    const result = await this.options.db.transaction(async (tx) => {
      const rows = await tx
        .select({ id: devices.id })
        .from(devices)
        .where(and(eq(devices.online, true), lt(devices.lastSeenAt, cutoff)))
        .orderBy(devices.id)
        .for('update');
      if (rows.length === 0) return null;
      const ids = rows.map((row) => row.id);
      // The revision moves: the process that takes the device's next fix reads it as offline and ends the alert.
      await tx
        .update(devices)
        .set({ online: false, revision: sql`${devices.revision} + 1` })
        .where(inArray(devices.id, ids));
      const silent = ids.map((id) => this.registry.get(id)).filter((d): d is TrackedDevice => !!d);
      const drafts = silent.map((d) => this.draft(d, 'Warning', 'offline', `${displayName(d)}'s tracker is offline`, now));
      return { ids, drafts, stored: await this.options.alertStore.insertAlerts(tx, drafts.map((d) => d.alert)) };
    });
    if (!result) return;
    await this.options.cluster!.changes.publish('devices-offline', { ids: result.ids });
    for (const id of result.ids) this.options.realtime.toBrowsers().emit('userDisconnected', id);
    this.announce(result.stored, result.drafts);
  }
}
