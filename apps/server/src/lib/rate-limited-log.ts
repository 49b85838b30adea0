// One log line per kind of failure per interval. A database outage fails every statement, fix batch and timer at
// once: without this the log fills with thousands of identical lines. The first failure of a kind is logged at once;
// repeats within the interval are counted and reported in one line when it ends.
import type { FastifyBaseLogger } from 'fastify';

export const LOG_INTERVAL_MS = 10_000;

interface Window {
  suppressed: number;
  timer: NodeJS.Timeout;
}

export class RateLimitedLog {
  private readonly windows = new Map<string, Window>();

  constructor(
    private readonly log: Pick<FastifyBaseLogger, 'error'>,
    private readonly intervalMs = LOG_INTERVAL_MS,
  ) {}

  /**
   * Logs `kind` (the whole message, e.g. "database unreachable: ECONNREFUSED") unless it was logged within the
   * interval. `fields` go with the first line only: callers pass codes and places, never SQL or parameters.
   */
  error(kind: string, fields: Record<string, unknown> = {}): void {
    const open = this.windows.get(kind);
    if (open) {
      open.suppressed++;
      return;
    }
    this.log.error({ ...fields, kind }, kind);
    this.openWindow(kind);
  }

  /** Drops the pending summaries (on shutdown). */
  stop(): void {
    for (const window of this.windows.values()) clearTimeout(window.timer);
    this.windows.clear();
  }

  private openWindow(kind: string): void {
    const timer = setTimeout(() => {
      const window = this.windows.get(kind);
      this.windows.delete(kind);
      if (!window?.suppressed) return;
      this.log.error(
        { kind, repeats: window.suppressed, intervalMs: this.intervalMs },
        `${kind} (${window.suppressed} more in the last ${this.intervalMs / 1000} s)`,
      );
      // Still failing: the next summary comes one interval later, not with the next failure.
      this.openWindow(kind);
    }, this.intervalMs);
    timer.unref();
    this.windows.set(kind, { suppressed: 0, timer });
  }
}

/** The same at warn level: failures the product rides out (a change not announced, positions not shared this time). */
export function rateLimitedWarnings(
  log: Pick<FastifyBaseLogger, 'warn'>,
  intervalMs = LOG_INTERVAL_MS,
): RateLimitedLog {
  return new RateLimitedLog(
    { error: (fields: object, message: string) => log.warn(fields, message) } as Pick<FastifyBaseLogger, 'error'>,
    intervalMs,
  );
}
