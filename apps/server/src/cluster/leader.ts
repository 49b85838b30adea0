// Which process runs the cluster's singleton jobs (the offline watcher, retention; decision 036): the one holding a
// PostgreSQL session advisory lock. The lock lives as long as that process's connection, so a process killed with
// kill -9 loses it the moment its socket closes, and a survivor takes it at its next try (every 2 s). No home-made
// election protocol: PostgreSQL decides, and a process that cannot reach it is not the leader.
import type { FastifyBaseLogger } from 'fastify';
import pg from 'pg';

/** The advisory lock key of the leader (any constant the application does not use for something else). */
export const LEADER_LOCK_KEY = 7_300_113;
export const LEADER_TRY_MS = 2_000;

export interface LeaderLeaseOptions {
  connectionString: string;
  log: FastifyBaseLogger;
  applicationName?: string;
  /** Called when this process becomes the leader or stops being it. */
  onChange?: (leader: boolean) => void;
  tryEveryMs?: number;
}

export class LeaderLease {
  private client: pg.Client | null = null;
  private timer: NodeJS.Timeout | null = null;
  private leader = false;
  private trying = false;
  private stopped = false;

  constructor(private readonly options: LeaderLeaseOptions) {}

  isLeader(): boolean {
    return this.leader;
  }

  async start(): Promise<void> {
    this.stopped = false;
    await this.attempt();
    if (this.stopped) return; // stopped while the first try was under way
    this.timer = setInterval(() => void this.attempt(), this.options.tryEveryMs ?? LEADER_TRY_MS);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    const client = this.client;
    this.client = null;
    this.set(false);
    // Closing the connection releases the lock at once: a survivor takes over at its next try.
    await client?.end().catch(() => undefined);
  }

  private async attempt(): Promise<void> {
    if (this.trying || this.stopped) return;
    this.trying = true;
    try {
      if (!this.client) {
        const client = new pg.Client({ connectionString: this.options.connectionString, connectionTimeoutMillis: 5_000, application_name: this.options.applicationName });
        client.on('error', () => this.drop(client));
        client.on('end', () => this.drop(client));
        await client.connect();
        if (this.stopped) {
          // stop() came while this connection was opening: it must not take the lock after all.
          await client.end().catch(() => undefined);
          return;
        }
        this.client = client;
      }
      if (this.leader) {
        // Still connected means still holding it; a cheap round trip finds a dead connection early.
        await this.client.query('select 1');
        return;
      }
      const result = await this.client.query<{ locked: boolean }>('select pg_try_advisory_lock($1) as locked', [LEADER_LOCK_KEY]);
      this.set(result.rows[0]?.locked === true);
    } catch (error) {
      this.options.log.debug({ err: error }, 'leader lock not reachable');
      if (this.client) this.drop(this.client);
    } finally {
      this.trying = false;
    }
  }

  private drop(client: pg.Client): void {
    if (this.client !== client) return;
    this.client = null;
    this.set(false);
    void client.end().catch(() => undefined);
  }

  private set(leader: boolean): void {
    if (leader === this.leader) return;
    this.leader = leader;
    this.options.log.info({ leader }, leader ? 'this process now runs the singleton jobs' : 'this process no longer runs the singleton jobs');
    this.options.onChange?.(leader);
  }
}
