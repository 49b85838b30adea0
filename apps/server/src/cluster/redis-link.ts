// Live fan-out between the processes of a cluster (decision 036): Socket.IO's Redis adapter (pub/sub), so an event
// emitted to the browsers on one process reaches the browsers on every process, once. Redis is only the messenger:
// while it is down, every process goes on storing and evaluating fixes and serving the API, and only the live events
// between processes are lost (each process's own browsers still get its own); the state is reported (readyz, the
// browsers' banner) and, when Redis returns, the browsers are told to refetch what they missed.
import type { FastifyBaseLogger } from 'fastify';
import { createAdapter } from '@socket.io/redis-adapter';
import { Redis, type RedisOptions } from 'ioredis';
import type { RealtimeServer } from '../plugins/realtime';

/**
 * The adapter publishes without handling a failed publish. With no offline queue (a stale burst after an outage
 * would replay old positions and alerts as new), a publish fails at once while Redis is down: it is dropped here
 * instead of becoming an unhandled rejection.
 */
class Publisher extends Redis {
  override publish(...args: Parameters<Redis['publish']>): ReturnType<Redis['publish']> {
    return super.publish(...args).catch(() => 0) as ReturnType<Redis['publish']>;
  }
}

/**
 * The adapter also unsubscribes without handling a failure (at close, or while Redis is down): dropped here too.
 * Subscriptions are queued while disconnected and restored by ioredis after a reconnect.
 */
class Subscriber extends Redis {
  override unsubscribe(...args: unknown[]): Promise<unknown> {
    return (super.unsubscribe as (...a: unknown[]) => Promise<unknown>)(...args).catch(() => 0);
  }
  override punsubscribe(...args: unknown[]): Promise<unknown> {
    return (super.punsubscribe as (...a: unknown[]) => Promise<unknown>)(...args).catch(() => 0);
  }
}

export type RedisState = 'up' | 'down';

export interface RedisLink {
  state(): RedisState;
  close(): Promise<void>;
}

/**
 * The adapter's channel prefix: a cluster is the set of processes sharing one database, so processes of another prison
 * (or a test) on the same Redis never hear this one's events.
 */
export function channelPrefix(databaseUrl: string): string {
  let database = '';
  try {
    database = decodeURIComponent(new URL(databaseUrl).pathname.slice(1));
  } catch {
    // not a URL (a libpq key=value string): one prefix for all
  }
  return `prison:${database || 'default'}`;
}

/** Where REDIS_URL points, without user or password. */
function redisAddress(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.hostname}:${parsed.port || '6379'}`;
  } catch {
    return 'REDIS_URL';
  }
}

export function connectRedisAdapter(
  io: RealtimeServer,
  url: string,
  prefix: string,
  log: FastifyBaseLogger,
  onChange: (state: RedisState) => void,
): RedisLink {
  const options: RedisOptions = {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    // Try again every 0.5-2 s for as long as it takes.
    retryStrategy: (times) => Math.min(500 * times, 2_000),
    lazyConnect: false,
  };
  const pub = new Publisher(url, options);
  // The subscriber queues the adapter's SUBSCRIBE commands until Redis answers, however long that takes (a process
  // started while Redis is down joins the cluster when it appears: decision 056); ioredis subscribes again after a
  // reconnect. With a limit of tries the queued SUBSCRIBEs would fail unhandled and the process would exit.
  const sub = new Subscriber(url, { ...options, enableOfflineQueue: true, maxRetriesPerRequest: null });
  let current: RedisState = 'down';
  let toldAtStart = false;
  const update = () => {
    const next: RedisState = pub.status === 'ready' && sub.status === 'ready' ? 'up' : 'down';
    // Down from the start (decision 056): said once, when the first try has failed.
    if (next === 'down' && !toldAtStart && [pub.status, sub.status].includes('reconnecting')) {
      toldAtStart = true;
      if (current === 'down')
        log.warn(`Redis at ${redisAddress(url)} does not answer: this process serves its own browsers and devices, and joins the cluster when Redis answers`);
    }
    if (next === current) return;
    current = next;
    toldAtStart = true;
    if (next === 'down') log.warn('Redis unreachable: live events between processes are interrupted; fixes and the API go on');
    else log.info('Redis connected: live events reach the browsers of every process');
    onChange(next);
  };
  for (const client of [pub, sub]) {
    for (const event of ['ready', 'close', 'end', 'reconnecting']) client.on(event, update);
    // Reported through the state; the error itself repeats on every retry.
    client.on('error', (error: Error) => log.debug({ err: error }, 'redis'));
  }
  io.adapter(createAdapter(pub, sub, { key: prefix, requestsTimeout: 2_000 }));
  return {
    state: () => current,
    close: async () => {
      // Connected: QUIT after what is pending (the adapter's unsubscribes at io.close), then the connection ends.
      // Not connected: a QUIT would wait for Redis; the retries stop and the queued commands are dropped.
      const end = (client: Redis) => (client.status === 'ready' ? client.quit().then(() => undefined, () => client.disconnect()) : client.disconnect());
      await Promise.all([end(sub), end(pub)]);
    },
  };
}
