// A weakening ends (decision 091): approved weakenings of Critical and Warning zones are reverted by themselves at
// their end time. Only the cluster's leader runs the job; each revert takes its pending change's row lock and marks
// it reverted, so a second process passing at once reverts nothing twice. The clock is injected for the tests.
import type { PendingChange } from '@prison/shared';
import type { DbOrTx } from '../../db/client';
import { revertEndedWeakenings, type ChangeReverter } from './pending-change-service';

export const WEAKENING_ENDS_TICK_MS = 10_000;

export interface WeakeningEndsOptions {
  db: DbOrTx;
  revert: ChangeReverter;
  isLeader: () => boolean;
  /** After a pass that reverted something: reload the engine, tell the browsers. */
  reverted: (changes: PendingChange[]) => Promise<void>;
  /** Called with a pass's failure (the next pass tries again). */
  failed: (error: unknown) => void;
  now?: () => Date;
}

export class WeakeningEnds {
  private readonly now: () => Date;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<PendingChange[]> | null = null;

  constructor(private readonly options: WeakeningEndsOptions) {
    this.now = options.now ?? (() => new Date());
  }

  start(everyMs = WEAKENING_ENDS_TICK_MS): void {
    this.timer = setInterval(() => void this.tick(), everyMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }

  /** One pass: every weakening whose end time has come is reverted. Never two passes at once. */
  tick(): Promise<PendingChange[]> {
    this.running ??= this.pass()
      .catch((error: unknown) => {
        this.options.failed(error);
        return [];
      })
      .finally(() => (this.running = null));
    return this.running;
  }

  private async pass(): Promise<PendingChange[]> {
    if (!this.options.isLeader()) return [];
    const reverted = await revertEndedWeakenings(this.options.db, this.options.revert, this.now());
    if (reverted.length > 0) await this.options.reverted(reverted);
    return reverted;
  }
}
