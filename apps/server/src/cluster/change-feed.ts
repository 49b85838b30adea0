// Shared state across the processes of a cluster (decision 036). A write through one process is applied there at once
// and announced to the others with PostgreSQL NOTIFY after its commit; each process LISTENs and applies it too, within
// milliseconds. PostgreSQL rather than Redis: the change is in the database anyway, and it keeps working while Redis
// is down. A listener that lost its connection may have missed changes: on reconnecting it runs every resync hook.
// Without a cluster (no connection string) a change is applied in this process only, as before.
import type { FastifyBaseLogger } from 'fastify';
import pg from 'pg';
import { RateLimitedLog, rateLimitedWarnings } from '../lib/rate-limited-log';

export const CHANGES_CHANNEL = 'prison_changes';
/** NOTIFY payloads are limited to 8000 bytes: long id lists go in several notifications. */
const MAX_IDS_PER_NOTIFICATION = 100;
const RECONNECT_MS = 1_000;

export type ChangeKind =
  | 'geofences'
  | 'keep-apart'
  | 'escorts'
  /** One device record changed: `{ id, reassigned }`. */
  | 'device'
  /** Prisoners moved between cells or blocks: every tracker's wearer is read again. */
  | 'wearers'
  /** Prisoner records changed: list totals and page anchors are stale. */
  | 'prisoners'
  /** Sessions ended or changed: cached session lookups are stale. */
  | 'sessions'
  /** The offline watcher (one process) marked these devices offline: `{ ids }`. */
  | 'devices-offline'
  /** Controlled movements started or changed state: every process re-reads the open ones. */
  | 'movements'
  /** Alerts raised or changed, for this process's browsers (cluster/alert-feed.ts, decision 039). */
  | 'alerts'
  /** A block's area changed: every process tells its browsers. */
  | 'block-areas'
  /** A roll count started, submitted or closed: every process tells its browsers. */
  | 'counts';

/** `local`: the change was made by this process (what only its maker should do, e.g. tell the browsers, is done then). */
type Handler = (data: unknown, local: boolean) => unknown;

export interface ChangeFeedOptions {
  /** This process's name: its own notifications are not applied twice. */
  node: string;
  /** PostgreSQL to listen on; none: a single process. */
  connectionString?: string;
  /** The listening connection's application_name: marks this process instance alive (cluster/index.ts). */
  applicationName?: string;
  /** Told when notifications from the other processes start or stop arriving (the browsers' "Partly live"). */
  onListening?: (listening: boolean) => void;
  /** Sends a notification (through the app's pool). */
  notify?: (channel: string, payload: string) => Promise<void>;
  log: FastifyBaseLogger;
}

export class ChangeFeed {
  private readonly handlers = new Map<ChangeKind, Handler[]>();
  private readonly resyncs: (() => unknown)[] = [];
  private client: pg.Client | null = null;
  private reconnect: NodeJS.Timeout | null = null;
  private stopped = false;
  private listening = false;
  /** Set after the first successful LISTEN: every later one follows a lost connection. */
  private listenedBefore = false;

  /** A failure repeated per change (every batch, every write) is one line per interval, not one per change. */
  private readonly errors: RateLimitedLog;
  private readonly warnings: RateLimitedLog;

  constructor(private readonly options: ChangeFeedOptions) {
    this.errors = new RateLimitedLog(options.log);
    this.warnings = rateLimitedWarnings(options.log);
  }

  /** `handler` applies a change of this kind in this process (for its own writes and for the others'). */
  on(kind: ChangeKind, handler: Handler): void {
    const list = this.handlers.get(kind);
    if (list) list.push(handler);
    else this.handlers.set(kind, [handler]);
  }

  /** Run after a lost connection to the database: what was missed meanwhile is read again. */
  onResync(hook: () => unknown): void {
    this.resyncs.push(hook);
  }

  /** Whether notifications from the other processes are being received (always true for a single process). */
  get connected(): boolean {
    return !this.options.connectionString || this.listening;
  }

  /**
   * Applies the change here, then tells the other processes. Call it after the change's commit. A notification that
   * cannot be sent is logged: the other processes catch up at their periodic refresh or their next resync.
   */
  async publish(kind: ChangeKind, data?: unknown): Promise<void> {
    await this.apply(kind, data, true);
    await this.announce(kind, data);
  }

  /** Tells the other processes only (this one has applied the change already). */
  async announce(kind: ChangeKind, data?: unknown): Promise<void> {
    if (!this.options.connectionString || !this.options.notify) return;
    for (const part of split(kind, data)) {
      // `node` first: the listeners of this process know their own notifications by that prefix.
      const payload = JSON.stringify({ node: this.options.node, kind, data: part });
      await this.options.notify(CHANGES_CHANNEL, payload).catch((error: unknown) => this.warnings.error(`change not announced to the other processes (${kind})`, { err: error }));
    }
  }

  async start(): Promise<void> {
    if (!this.options.connectionString) return;
    this.stopped = false;
    await this.connect().catch((error: unknown) => this.lost(error));
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.errors.stop();
    this.warnings.stop();
    if (this.reconnect) clearTimeout(this.reconnect);
    this.reconnect = null;
    const client = this.client;
    this.client = null;
    this.listening = false;
    await client?.end().catch(() => undefined);
  }

  private async apply(kind: ChangeKind, data: unknown, local: boolean): Promise<void> {
    for (const handler of this.handlers.get(kind) ?? []) {
      try {
        await handler(data, local);
      } catch (error) {
        this.errors.error(`applying a shared change failed (${kind})`, { err: error });
      }
    }
  }

  private async connect(): Promise<void> {
    const client = new pg.Client({ connectionString: this.options.connectionString, connectionTimeoutMillis: 5_000, application_name: this.options.applicationName });
    client.on('error', (error) => this.lost(error));
    client.on('end', () => this.lost(null));
    // This process's own notifications (it applied them when it made them) start with its name: dropped unread.
    const own = `${JSON.stringify({ node: this.options.node }).slice(0, -1)},`;
    client.on('notification', (message) => {
      if (message.channel !== CHANGES_CHANNEL || !message.payload || message.payload.startsWith(own)) return;
      try {
        const change = JSON.parse(message.payload) as { node: string; kind: ChangeKind; data?: unknown };
        if (change.node !== this.options.node) void this.apply(change.kind, change.data, false);
      } catch (error) {
        this.warnings.error('unreadable change notification ignored', { err: error });
      }
    });
    this.client = client;
    await client.connect();
    await client.query(`listen ${CHANGES_CHANNEL}`);
    const resync = this.listenedBefore;
    this.listening = true;
    this.listenedBefore = true;
    this.options.onListening?.(true);
    if (resync) for (const hook of this.resyncs) await Promise.resolve(hook()).catch((error: unknown) => this.options.log.error({ err: error }, 'resync after a lost change feed failed'));
  }

  private lost(error: unknown): void {
    if (this.stopped || this.reconnect) return;
    if (this.listening || error) this.options.log.warn({ err: error }, 'change feed connection lost; reconnecting');
    const wasListening = this.listening;
    this.listening = false;
    if (wasListening) this.options.onListening?.(false);
    const client = this.client;
    this.client = null;
    void client?.end().catch(() => undefined);
    this.reconnect = setTimeout(() => {
      this.reconnect = null;
      if (!this.stopped) void this.connect().catch((failure: unknown) => this.lost(failure));
    }, RECONNECT_MS);
    this.reconnect.unref();
  }
}

/** A change with a long id list, split so each notification stays well under PostgreSQL's 8000-byte limit. */
function split(kind: ChangeKind, data: unknown): unknown[] {
  if (kind !== 'devices-offline') return [data];
  const ids = (data as { ids: string[] }).ids;
  const parts: unknown[] = [];
  for (let i = 0; i < ids.length; i += MAX_IDS_PER_NOTIFICATION) parts.push({ ids: ids.slice(i, i + MAX_IDS_PER_NOTIFICATION) });
  return parts;
}
