// The tracking core's coordinator (`app.tracking`): wires the pipeline steps in tracking/pipeline/ (decision 046) —
// accept (the batching lane), plan, evaluate, persist, publish, takeover (cluster), silence (offline and timers),
// outside changes — behind one public API, and owns the timers. Each step is in a file named after it.
import type { FixOutcome } from '@prison/shared';
import { eq, sql } from 'drizzle-orm';
import { devices } from '../db/schema';
import { RateLimitedLog } from '../lib/rate-limited-log';
import type { SharedPosition } from '../cluster';
import { DeviceRegistry } from './device-registry';
import { DEFAULT_MAX_FUTURE_SECONDS, type Fix } from './fix';
import { LivePositions } from './live-positions';
import { NO_TRACKING_METRICS, type AlertStore, type TrackingMetrics } from './ports';
import { FixIntake, MAX_BATCHES_IN_FLIGHT, ServiceStopped, type SubmitOutcome } from './pipeline/accept';
import type { TrackingContext, TrackingOptions } from './pipeline/context';
import { countBatch } from './batch-metrics';
import { applyDeviceChange, applyOffline, applySharedPositions, rememberEscortPositions } from './pipeline/outside-changes';
import { persistInOneStatement, persistPlan, storedInOneStatement, writeAtRevision, type Persisted } from './pipeline/persist';
import { planBatch, rollbackPlan, type BatchPlan } from './pipeline/plan';
import { publishBatch, ruleOutcomesCommitted } from './pipeline/publish';
import { markSilentDevices } from './pipeline/silence';
import { adoptStoredState, importStoredEngines, lockDevices } from './pipeline/takeover';

export { ServiceStopped, type SubmitOutcome } from './pipeline/accept';
export type { TrackingOptions } from './pipeline/context';
export { BATTERY_REARM_PERCENT, LOW_BATTERY_PERCENT } from './pipeline/plan';

/** Names and assignments changed outside the devices API (prisoner edits) are picked up this often. */
const REGISTRY_REFRESH_MS = 30_000;

export class TrackingService {
  readonly registry = new DeviceRegistry();
  readonly live: LivePositions;
  private readonly context: TrackingContext;
  private readonly intake: FixIntake;
  private watcher: NodeJS.Timeout | null = null;
  private refresher: NodeJS.Timeout | null = null;
  private stopped = false;

  constructor(private readonly options: TrackingOptions) {
    this.live = new LivePositions(options.realtime, this.registry);
    this.context = {
      options,
      registry: this.registry,
      live: this.live,
      engineFailures: new RateLimitedLog(options.log),
      offlineMs: options.offlineSeconds * 1000,
      offlineGraceMs: (options.offlineGraceSeconds ?? 0) * 1000,
      offlineAlertsDue: new Map(),
      startedAt: Date.now(),
    };
    this.intake = new FixIntake({
      writeBatch: (fixes) => this.writeBatch(fixes),
      failed: (error, what) => options.databaseHealth.failed(error, what),
      maxInFlight: MAX_BATCHES_IN_FLIGHT,
      independent: (fixes) => this.independent(fixes),
    });
  }

  get offlineMs(): number {
    return this.context.offlineMs;
  }

  /** Where alerts are written (modules/alerts): the retention job deletes resolved ones through it. */
  get alertStore(): AlertStore {
    return this.options.alertStore;
  }

  /** Fixes dated further ahead than this are refused before they reach the service (tracking/fix.ts `checkFix`). */
  get maxFutureSeconds(): number {
    return this.options.maxFutureSeconds ?? DEFAULT_MAX_FUTURE_SECONDS;
  }

  /** What the protocols count (fixes received and refused); counts nothing without monitoring (decision 059). */
  get metrics(): TrackingMetrics {
    return this.options.metrics ?? NO_TRACKING_METRICS;
  }

  /** Fixes queued for the write lane now (monitoring). */
  get waitingFixes(): number {
    return this.intake.waitingFixes;
  }

  /** Whether every device must send its secret, on OsmAnd too (decision 038). */
  get deviceSecretRequired(): boolean {
    return this.options.deviceSecretRequired ?? true;
  }

  async start(): Promise<void> {
    await this.registry.load(this.options.db, Date.now());
    // Cluster mode: the engine starts from the stored memory of every device, at the revision just read (decision 047).
    if (this.options.cluster?.enabled) await importStoredEngines(this.context);
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
    await this.intake.drain();
    this.stopped = true;
    if (this.watcher) clearInterval(this.watcher);
    if (this.refresher) clearInterval(this.refresher);
    this.live.stop();
    this.context.engineFailures.stop();
    await this.intake.idle();
  }

  /**
   * Stores authenticated, checked fixes; resolves once they are committed. All fixes of one call share one
   * transaction, unless the database refuses one of them: then it alone answers 'invalid' and the others are stored.
   * A fix already stored answers 'duplicate' and raises nothing.
   */
  submit(fixes: Fix[]): Promise<SubmitOutcome[]> {
    if (this.stopped) return Promise.reject(new ServiceStopped());
    return this.intake.submit(fixes);
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
  applyDeviceChange(id: string, options: { reassigned?: boolean }, announce: boolean): Promise<void> {
    return applyDeviceChange(this.context, id, options, announce);
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

  /** Cluster mode: positions another process stored (pipeline/outside-changes.ts). */
  applySharedPositions(positions: SharedPosition[]): void {
    applySharedPositions(this.context, positions);
  }

  /** The escort monitor learns everyone's last known position from the registry (decision 037). */
  rememberEscortPositions(): void {
    rememberEscortPositions(this.context);
  }

  /** Cluster mode: the leader's offline watcher marked these devices offline. */
  applyOffline(ids: string[]): void {
    applyOffline(this.context, ids);
  }

  /** Browsers (and the live map's side panel) read this: every online device with a position. */
  snapshot() {
    return this.live.snapshot();
  }

  /**
   * Silence is an alarm: a device silent longer than DEVICE_OFFLINE_SECONDS goes offline with a Warning alert and
   * `userDisconnected`. Also runs the engine's dwell timers.
   */
  checkSilence(now = new Date()): Promise<void> {
    if (this.stopped) return Promise.resolve();
    return this.intake.runOnLane(() => markSilentDevices(this.context, now));
  }

  /**
   * Whether no fix of the batch reaches state shared between devices (a keep-apart pair, an escort): then its plan
   * touches only its own devices' state, which it alone puts back if it fails, so it may be written beside batches of
   * other devices (decision 055).
   */
  private independent(fixes: Fix[]): boolean {
    const { keepApart, escorts } = this.options;
    if (!keepApart?.size && !escorts) return true;
    for (const fix of fixes) {
      const device = this.registry.get(fix.deviceId);
      if (!device) continue;
      if (device.prisonerId !== null && keepApart?.watches(device.prisonerId)) return false;
      if (escorts?.watches(device.prisonerId, device.staffId)) return false;
    }
    return true;
  }

  /** One batch: plan in memory, persist, and publish after commit; nothing stored puts the memory back. */
  private async writeBatch(fixes: Fix[]): Promise<FixOutcome[]> {
    const now = new Date();
    if (this.options.cluster?.enabled) return this.writeBatchLocked(fixes, now);
    const plan = planBatch(this.context, fixes, now);
    let result: Persisted;
    try {
      result = storedInOneStatement(plan) ? await persistInOneStatement(this.context, plan) : await this.options.db.transaction((tx) => persistPlan(this.context, tx, plan));
    } catch (error) {
      rollbackPlan(this.context, plan);
      throw error;
    }
    publishBatch(this.context, plan.moved, result);
    ruleOutcomesCommitted(plan.ruleOutcomes);
    countBatch(this.options.metrics, fixes, plan.outcomes, result.stored);
    return plan.outcomes;
  }

  /**
   * Cluster mode (decisions 036, 047): fixes of one device may reach several processes at once, and each fix must be
   * judged once, in order, against the state the fix before it left, whichever process took that one. The batch is
   * planned against this process's memory, then stored by a statement that locks the devices' rows and checks that no
   * other process wrote them since (their revisions): alone when the batch raises nothing or only its own alerts and
   * geofence changes (decision 080), else as the first statement of its transaction. When a revision moved nothing was written: the plan goes back, the stale devices take the
   * stored state under the locks (pipeline/takeover.ts), and the batch is planned again and stored in the transaction.
   */
  private async writeBatchLocked(fixes: Fix[], now: Date): Promise<FixOutcome[]> {
    let planned: BatchPlan | null = planBatch(this.context, fixes, now);
    if (storedInOneStatement(planned)) {
      const plan = planned;
      const stored = await this.persistOrRollback(plan, () => writeAtRevision(this.context, this.options.db, plan, true));
      if (stored) {
        publishBatch(this.context, plan.moved, { stored, drafts: plan.drafts });
        ruleOutcomesCommitted(plan.ruleOutcomes);
        countBatch(this.options.metrics, fixes, plan.outcomes, stored);
        return plan.outcomes;
      }
      rollbackPlan(this.context, plan);
      planned = null;
    }
    const ids = [...new Set(fixes.map((fix) => fix.deviceId))].filter((id) => this.registry.get(id)).sort();
    let result: Persisted;
    try {
      result = await this.options.db.transaction(async (tx) => {
        if (planned && (await writeAtRevision(this.context, tx, planned))) return persistPlan(this.context, tx, planned, true);
        if (planned) rollbackPlan(this.context, planned); // planned on a state another process has moved on from
        planned = null;
        await adoptStoredState(this.context, tx, await lockDevices(this.context, tx, ids), now);
        planned = planBatch(this.context, fixes, now);
        return persistPlan(this.context, tx, planned);
      });
    } catch (error) {
      if (planned) rollbackPlan(this.context, planned);
      throw error;
    }
    const stored = planned as unknown as BatchPlan;
    publishBatch(this.context, stored.moved, result);
    ruleOutcomesCommitted(stored.ruleOutcomes);
    countBatch(this.options.metrics, fixes, stored.outcomes, result.stored);
    return stored.outcomes;
  }

  /** Runs a write; if it throws, the plan goes back before the error goes on. */
  private async persistOrRollback<T>(plan: BatchPlan, write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (error) {
      rollbackPlan(this.context, plan);
      throw error;
    }
  }
}
