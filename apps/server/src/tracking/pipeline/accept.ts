// Accept: takes checked fixes in, gathers those arriving within a couple of milliseconds into one batch (at most
// MAX_FIXES_PER_TRANSACTION), runs every write of the core one after another on a single lane (so the in-memory
// device state and the database agree), and answers each caller once its fixes are committed.
import type { FixOutcome } from '@prison/shared';
import { isDataRefusal } from '../../lib/database-errors';
import type { Fix } from '../fix';

/** Fixes arriving within this window share one transaction. */
export const FLUSH_DELAY_MS = 2;
/**
 * In cluster mode a batch costs more (the revision check, the engine memory written) and each process sees only its
 * share of the devices, so fixes wait a little longer for company (decision 047): a few ms of acknowledgement.
 */
export const CLUSTER_FLUSH_DELAY_MS = 10;
/** Most fixes per transaction: bounds the latency of the fixes that wait behind a large batch. */
const MAX_FIXES_PER_TRANSACTION = 2000;

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
}

export class FixIntake {
  private queue: PendingGroup[] = [];
  private flushTimer: NodeJS.Timeout | null = null;
  private flushQueued = false;
  private lane: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: FixIntakeOptions) {}

  /** Queues fixes for the next batch; resolves once they are committed. */
  submit(fixes: Fix[]): Promise<SubmitOutcome[]> {
    if (fixes.length === 0) return Promise.resolve([]);
    return new Promise((resolve, reject) => {
      this.queue.push({ fixes, resolve, reject });
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

  /** Runs a job on the single write lane, after every job queued before it. */
  runOnLane<T>(job: () => Promise<T>): Promise<T> {
    const run = this.lane.then(job, job);
    this.lane = run.catch(() => undefined);
    return run;
  }

  /** Writes everything queued now, then waits for the lane to drain. */
  async drain(): Promise<void> {
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = null;
    if (this.queue.length) await this.runOnLane(() => this.flushAll());
  }

  /** Resolves when the jobs on the lane now have finished. */
  async idle(): Promise<void> {
    await this.lane.catch(() => undefined);
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
