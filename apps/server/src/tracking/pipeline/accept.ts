// Accept: takes checked fixes in, gathers those arriving within a millisecond into one batch (at most
// MAX_FIXES_PER_TRANSACTION; a full queue into two, decision 080), starts every write of the core one after another on
// a single lane (so the in-memory device state and the database agree; batches of different devices may be committing
// at once, decision 055), and answers each caller once its fixes are committed.
import type { FixOutcome } from '@prison/shared';
import { isDataRefusal } from '../../lib/database-errors';
import type { Fix } from '../fix';

/**
 * Fixes arriving within this window share one batch, on one process and in a cluster alike. 1 ms (2 before decision
 * 080): under load the batches fill while others are in flight, and every sender waits this long again for each fix it
 * sends. A cluster process waited 10 ms until decision 089: its batches were no cheaper for it, and its senders slower.
 */
export const FLUSH_DELAY_MS = 1;
/** Most fixes per transaction: bounds the latency of the fixes that wait behind a large batch. */
const MAX_FIXES_PER_TRANSACTION = 2000;
/**
 * Batches of different devices committing at the same time (decision 055). A commit mostly waits for PostgreSQL's
 * disk flush, during which the thread is idle; with several in flight their flushes are shared. In cluster mode each
 * batch's statement locks only its own devices' rows, so batches of different devices do not wait for each other.
 */
export const MAX_BATCHES_IN_FLIGHT = 3;
/**
 * A batch starts beside others only with at least this many fixes waiting; fewer wait for a commit to end. So a
 * process short of CPU (whose fixes would otherwise go out in many small batches, each paying a statement) keeps
 * the large batches of one at a time, and only a full queue, a commit's wait for the disk, gets the overlap. A queue
 * of twice this many, with room for two batches, goes out as two halves together (decision 080).
 */
export const MIN_FIXES_TO_OVERLAP = 32;

/** What became of one submitted fix; 'invalid': the database refused its values, so it alone was not stored. */
export type SubmitOutcome = FixOutcome | 'invalid';

export class ServiceStopped extends Error {
  constructor() {
    super('The server is shutting down; send the fix again');
  }
}

interface PendingGroup {
  fixes: Fix[];
  resolve(outcomes: SubmitOutcome[]): void;
  reject(error: unknown): void;
}

export interface FixIntakeOptions {
  /** Plans, stores and publishes one batch; throws when nothing of it was stored. */
  writeBatch(fixes: Fix[]): Promise<FixOutcome[]>;
  /** A refused value or a failed batch, reported once per kind per interval. */
  failed(error: unknown, what: string): void;
  /** How long the first fix of a batch waits for others (FLUSH_DELAY_MS unless told). */
  flushDelayMs?: number;
  /** Most batches written at the same time (1 unless told): each must share no device with the others. */
  maxInFlight?: number;
  /**
   * Whether a batch's fixes touch no state shared with other devices (a keep-apart pair, an escort), so that it may be
   * written beside other batches of other devices and put back on its own. A batch that is not runs alone.
   */
  independent?(fixes: Fix[]): boolean;
  /** Fixes that must be waiting before a batch starts beside others (MIN_FIXES_TO_OVERLAP unless told). */
  minFixesToOverlap?: number;
}

export class FixIntake {
  private queue: PendingGroup[] = [];
  private flushTimer: NodeJS.Timeout | null = null;
  private flushQueued = false;
  /** Starts of batches and exclusive jobs, one after another. */
  private lane: Promise<unknown> = Promise.resolve();
  /** Batches being written, with their devices (decision 055): a new batch waits for any that shares a device. */
  private readonly inFlight = new Map<Promise<void>, Set<string>>();
  /** Fixes in the queue, and who waits for enough of them to start a batch beside others. */
  private queuedFixes = 0;
  private enoughQueued: (() => void) | null = null;

  constructor(private readonly options: FixIntakeOptions) {}

  /** Queues fixes for the next batch; resolves once they are committed. */
  submit(fixes: Fix[]): Promise<SubmitOutcome[]> {
    if (fixes.length === 0) return Promise.resolve([]);
    return new Promise((resolve, reject) => {
      this.queue.push({ fixes, resolve, reject });
      this.queuedFixes += fixes.length;
      if (this.enoughQueued && this.queuedFixes >= (this.options.minFixesToOverlap ?? MIN_FIXES_TO_OVERLAP)) this.enoughQueued();
      this.flushTimer ??= setTimeout(() => {
        this.flushTimer = null;
        this.queueFlush();
      }, this.options.flushDelayMs ?? FLUSH_DELAY_MS);
    });
  }

  /** Fixes waiting for their batch (read by monitoring when it scrapes, decision 059). */
  get waitingFixes(): number {
    let count = 0;
    for (const group of this.queue) count += group.fixes.length;
    return count;
  }

  /** Runs a job alone on the write lane: after every job and batch started before it, with none beside it. */
  runOnLane<T>(job: () => Promise<T>): Promise<T> {
    return this.enqueue(async () => {
      await this.settled();
      return job();
    });
  }

  /** Writes everything queued now, then waits for the lane to drain. */
  async drain(): Promise<void> {
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = null;
    if (this.queue.length) await this.runOnLane(() => this.flushAll());
  }

  /** Resolves when the jobs on the lane and the batches being written now have finished. */
  async idle(): Promise<void> {
    await this.lane.catch(() => undefined);
    await this.settled();
  }

  private enqueue<T>(job: () => Promise<T>): Promise<T> {
    const run = this.lane.then(job, job);
    this.lane = run.catch(() => undefined);
    return run;
  }

  private settled(): Promise<unknown> {
    return Promise.all(this.inFlight.keys());
  }

  /**
   * Starts the next batch on the lane once there is room for it. While its commit is on its way the lane is free to
   * plan and send the next batch of other devices (a commit waits for the disk; two overlap), so a device's fixes are
   * still planned and stored in order, and each batch can be put back alone if it fails.
   */
  private queueFlush(): void {
    if (this.flushQueued || this.queue.length === 0) return;
    this.flushQueued = true;
    void this.enqueue(async () => {
      const most = this.options.maxInFlight ?? 1;
      const least = this.options.minFixesToOverlap ?? MIN_FIXES_TO_OVERLAP;
      while (this.inFlight.size >= most || (this.inFlight.size > 0 && this.queuedFixes < least)) {
        const enough = new Promise<void>((resolve) => (this.enoughQueued = resolve));
        await Promise.race([...this.inFlight.keys(), enough]);
        this.enoughQueued = null;
      }
      this.flushQueued = false;
      // A queue that fills two batches goes out as two in flight together (decision 080): with every sender waiting
      // for its answer, one batch at a time leaves the database and this process taking turns.
      const room = most - this.inFlight.size;
      const batch = this.takeBatch(room >= 2 && this.queuedFixes >= 2 * least ? Math.ceil(this.queuedFixes / 2) : MAX_FIXES_PER_TRANSACTION);
      if (batch.length === 0) return;
      const fixes = batch.flatMap((g) => g.fixes);
      const alone = most === 1 || !(this.options.independent?.(fixes) ?? false);
      const devices = new Set(fixes.map((fix) => fix.deviceId));
      for (;;) {
        const blocking = [...this.inFlight].filter(([, other]) => alone || [...devices].some((id) => other.has(id))).map(([write]) => write);
        if (blocking.length === 0) break;
        await Promise.race(blocking);
      }
      const write: Promise<void> = this.writeGroups(batch, fixes).finally(() => {
        this.inFlight.delete(write);
        // Fixes that arrived during the transaction go in the next one at once.
        if (this.queue.length) this.queueFlush();
      });
      this.inFlight.set(write, devices);
      if (alone) await write;
      else if (this.queue.length) this.queueFlush();
    });
  }

  /** The queue's first groups up to `most` fixes (at least one group, and never more than MAX_FIXES_PER_TRANSACTION). */
  private takeBatch(most = MAX_FIXES_PER_TRANSACTION): PendingGroup[] {
    const batch: PendingGroup[] = [];
    let size = 0;
    const limit = Math.min(most, MAX_FIXES_PER_TRANSACTION);
    while (this.queue.length && (batch.length === 0 || size + this.queue[0]!.fixes.length <= limit)) {
      const group = this.queue.shift()!;
      this.queuedFixes -= group.fixes.length;
      batch.push(group);
      size += group.fixes.length;
    }
    return batch;
  }

  private async flushAll(): Promise<void> {
    while (this.queue.length) await this.flushOnce();
  }

  private async flushOnce(): Promise<void> {
    const batch = this.takeBatch();
    if (batch.length) await this.writeGroups(batch, batch.flatMap((g) => g.fixes));
  }

  /** Writes one batch and answers each of its callers; never throws (a failure rejects the callers). */
  private async writeGroups(batch: PendingGroup[], fixes: Fix[]): Promise<void> {
    try {
      const outcomes = await this.writeIsolated(fixes);
      let offset = 0;
      for (const group of batch) {
        group.resolve(outcomes.slice(offset, offset + group.fixes.length));
        offset += group.fixes.length;
      }
    } catch (error) {
      this.options.failed(error, 'storing fixes');
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
      return await this.options.writeBatch(fixes);
    } catch (error) {
      if (!isDataRefusal(error)) throw error;
      if (fixes.length === 1) {
        // Logged once per kind per interval: a device sending bad values all day must not flood the log.
        this.options.failed(error, 'storing a fix the database refused');
        return ['invalid'];
      }
      const half = Math.ceil(fixes.length / 2);
      const first = await this.writeIsolated(fixes.slice(0, half));
      return [...first, ...(await this.writeIsolated(fixes.slice(half)))];
    }
  }
}
