// The scheduled counts (decision 062): at each COUNT_TIMES time the officers of every block are
// reminded (a live event to the block's room), and a block with no count submitted 15 minutes after that time gets one
// Warning alert. Only the cluster's leader runs the job; the count_warnings row (block, time) is the proof a Warning
// was raised, so a second process or a second pass cannot raise it again. The clock is injected for the tests.
import { COUNT_OVERDUE_MINUTES, type CountDueEvent } from '@prison/shared';
import { and, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { countWarnings } from '../../db/schema';
import type { NewAlert } from '../../tracking/ports';
import type { StoredShowAlert } from '../../cluster/alert-feed';
import { insertAlerts, showAlertEvent } from '../alerts/alert-store';
import { blockNames, countSubmittedSince } from './count-service';
import { countSlotsAround, type CountSlot } from './count-schedule';

export const COUNT_SCHEDULER_TICK_MS = 15_000;
const OVERDUE_MS = COUNT_OVERDUE_MINUTES * 60_000;
/** A reminder older than this (a pass that ran late) is not sent any more. */
const REMINDER_LATE_MS = 5 * 60_000;

export interface CountSchedulerOptions {
  db: DbOrTx;
  times: readonly string[];
  timeZone: string;
  now?: () => Date;
  isLeader: () => boolean;
  remind: (event: CountDueEvent) => void;
  /** Tells every browser of a stored alert (app.cluster.alerts.raised). */
  raised: (events: StoredShowAlert[]) => Promise<void>;
}

export function countDueMessage(block: string, time: string): string {
  return `Roll count of block ${block} due at ${time}`;
}

export function overdueMessage(block: string, time: string): string {
  return `Roll count of block ${block} not completed ${COUNT_OVERDUE_MINUTES} minutes after ${time}`;
}

export class CountScheduler {
  private readonly now: () => Date;
  /** Times already overdue when the job started are not warned about: this process cannot tell what was done then. */
  private readonly startedAt: number;
  private readonly reminded = new Set<string>();
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;

  constructor(private readonly options: CountSchedulerOptions) {
    this.now = options.now ?? (() => new Date());
    this.startedAt = this.now().getTime();
  }

  start(everyMs = COUNT_SCHEDULER_TICK_MS): void {
    this.timer = setInterval(() => void this.tick().catch(() => undefined), everyMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** One pass: reminders of times just reached, Warnings of times overdue. Never two passes at once. */
  tick(): Promise<void> {
    this.running ??= this.pass().finally(() => (this.running = null));
    return this.running;
  }

  private async pass(): Promise<void> {
    if (this.options.times.length === 0 || !this.options.isLeader()) return;
    const now = this.now().getTime();
    const slots = countSlotsAround(new Date(now), this.options.times, this.options.timeZone);
    const blocks = await blockNames(this.options.db);
    for (const slot of slots) {
      const at = slot.at.getTime();
      if (at <= now && now - at < REMINDER_LATE_MS && at >= this.startedAt - REMINDER_LATE_MS) this.remindOnce(slot, blocks);
      if (at + OVERDUE_MS <= now && at + OVERDUE_MS > this.startedAt) {
        for (const block of blocks) await this.warnIfNotCounted(block, slot);
      }
    }
  }

  private remindOnce(slot: CountSlot, blocks: string[]): void {
    const key = slot.at.toISOString();
    if (this.reminded.has(key)) return;
    this.reminded.add(key);
    for (const block of blocks) this.options.remind({ block, time: slot.time, message: countDueMessage(block, slot.time) });
  }

  private async warnIfNotCounted(block: string, slot: CountSlot): Promise<void> {
    const { db } = this.options;
    if (await countSubmittedSince(db, block, slot.at)) return;
    const event = await db.transaction(async (tx) => {
      const [claimed] = await tx
        .insert(countWarnings)
        .values({ block, slot: slot.at })
        .onConflictDoNothing()
        .returning({ block: countWarnings.block });
      if (!claimed) return null;
      const draft: NewAlert = {
        alertType: 'Warning',
        kind: 'roll_count',
        details: overdueMessage(block, slot.time),
        at: new Date(slot.at.getTime() + OVERDUE_MS),
        deviceId: null,
        prisonerId: null,
      };
      const [stored] = await insertAlerts(tx, [draft]);
      await tx
        .update(countWarnings)
        .set({ alertId: stored!.id })
        .where(and(eq(countWarnings.block, block), eq(countWarnings.slot, slot.at)));
      return showAlertEvent(stored!, { prisonerName: null, cellId: null, block: null });
    });
    if (event !== null) await this.options.raised([event]);
  }
}
