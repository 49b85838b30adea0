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
  // The subscriber must queue its SUBSCRIBE commands until it is connected; ioredis subscribes again after a reconnect.
  const sub = new Subscriber(url, { ...options, enableOfflineQueue: true });
  let current: RedisState = 'down';
  const update = () => {
    const next: RedisState = pub.status === 'ready' && sub.status === 'ready' ? 'up' : 'down';
    if (next === current) return;
    current = next;
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
      // QUIT after what is pending (the adapter's unsubscribes at io.close), then the connection ends.
      await Promise.all([sub.quit().catch(() => sub.disconnect()), pub.quit().catch(() => pub.disconnect())]);
    },
  };
}
