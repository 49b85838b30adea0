// The tracking core's public API (`app.tracking`) and its timers: fixes go to the pipeline (tracking/pipeline/index.ts
// says the order of its steps); silence (offline and timers) and the changes made outside reach memory through the
// pipeline folder's files of those names.
import { eq, sql } from 'drizzle-orm';
import { devices } from '../db/schema';
import { RateLimitedLog } from '../lib/rate-limited-log';
import type { SharedPosition } from '../cluster';
import { DeviceRegistry } from './device-registry';
import { DEFAULT_MAX_FUTURE_SECONDS, type Fix } from './fix';
import { LivePositions } from './live-positions';
import { NO_TRACKING_METRICS, type AlertStore, type FixSink, type TrackingMetrics } from './ports';
import { acceptFixes } from './pipeline';
import { ServiceStopped, type FixIntake, type SubmitOutcome } from './pipeline/accept';
import type { TrackingContext, TrackingOptions } from './pipeline/context';
import { applyDeviceChange, applyOffline, applySharedPositions, rememberEscortPositions } from './pipeline/outside-changes';
import { markSilentDevices } from './pipeline/silence';
import { importStoredEngines } from './pipeline/takeover';

export { ServiceStopped, type SubmitOutcome } from './pipeline/accept';
export type { TrackingOptions } from './pipeline/context';
export { BATTERY_REARM_PERCENT, LOW_BATTERY_PERCENT } from './pipeline/plan';

/** Names and assignments changed outside the devices API (prisoner edits) are picked up this often. */
const REGISTRY_REFRESH_MS = 30_000;

export class TrackingService implements FixSink {
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
    this.intake = acceptFixes(this.context);
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
}
