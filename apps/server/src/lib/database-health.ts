// Whether the database can be reached, known from a cheap probe (`select 1`) and from the failures of real work.
// Every database failure, in a request or a background job, is reported here: it is logged once per kind per
// interval (never the SQL), and an unreachable database flips the status at once, so browsers are told and
// requests answer 503. While unavailable the probe runs every second, so recovery is seen without a restart.
import type { FastifyBaseLogger } from 'fastify';
import { databaseErrorOf, databaseUnavailableReason, withoutStatement } from './database-errors';
import { LOG_INTERVAL_MS, RateLimitedLog } from './rate-limited-log';

export type DatabaseStatus = 'ok' | 'unavailable';

export interface DatabaseHealthOptions {
  /** Resolves true when the database answers a trivial query. */
  ping(): Promise<boolean>;
  log: FastifyBaseLogger;
  /** Probe interval while the database answers (0: probe only after a failure, e.g. for embedded PGlite). */
  probeMs?: number;
  /** Probe interval while it does not. */
  retryMs?: number;
  /** A probe that takes longer counts as a failure. */
  probeTimeoutMs?: number;
  logIntervalMs?: number;
}

export class DatabaseHealth {
  private current: DatabaseStatus = 'ok';
  private readonly listeners: ((status: DatabaseStatus) => void)[] = [];
  private readonly failures: RateLimitedLog;
  private timer: NodeJS.Timeout | null = null;
  private probing = false;
  private running = false;

  constructor(private readonly options: DatabaseHealthOptions) {
    this.failures = new RateLimitedLog(options.log, options.logIntervalMs ?? LOG_INTERVAL_MS);
  }

  get status(): DatabaseStatus {
    return this.current;
  }

  onChange(listener: (status: DatabaseStatus) => void): void {
    this.listeners.push(listener);
  }

  start(): void {
    this.running = true;
    this.schedule();
  }

  stop(): void {
    this.running = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.failures.stop();
  }

  /**
   * Reports a failure of database work (`where`: the route or job). Logs it once per kind per interval, without
   * SQL, and answers true when it means the database is unreachable (the caller then answers 503).
   */
  failed(error: unknown, where: string): boolean {
    const reason = databaseUnavailableReason(error);
    if (reason) {
      this.failures.error(`database unreachable: ${reason}`, { where });
      this.set('unavailable');
      return true;
    }
    const dbError = databaseErrorOf(error);
    if (dbError) this.failures.error(`database error ${dbError.code}: ${dbError.message}`, { where });
    else this.failures.error(`${where} failed`, { err: withoutStatement(error) });
    return false;
  }

  /** Probes now (tests, and `/readyz`); answers whether the database answered. */
  async probe(): Promise<boolean> {
    let timeout: NodeJS.Timeout | undefined;
    const timedOut = new Promise<never>((_, reject) => {
      timeout = setTimeout(
        () => reject(new Error('Connection terminated due to connection timeout')),
        this.options.probeTimeoutMs ?? 5_000,
      );
    });
    try {
      const answered = await Promise.race([this.options.ping(), timedOut]);
      if (answered) this.set('ok');
      return answered;
    } catch (error) {
      this.failed(error, 'database probe');
      // Whatever the probe's error, a database that cannot answer `select 1` cannot serve anything.
      this.set('unavailable');
      return false;
    } finally {
      clearTimeout(timeout);
    }
  }

  private set(status: DatabaseStatus): void {
    if (status === this.current) return;
    this.current = status;
    if (status === 'ok') this.options.log.info('database reachable again');
    for (const listener of this.listeners) listener(status);
    // Probe at the rate of the new status.
    if (!this.probing) this.schedule();
  }

  private schedule(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (!this.running) return;
    const every = this.current === 'ok' ? (this.options.probeMs ?? 5_000) : (this.options.retryMs ?? 1_000);
    if (every <= 0) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.probing = true;
      void this.probe().finally(() => {
        this.probing = false;
        this.schedule();
      });
    }, every);
    this.timer.unref();
  }
}
