// bench/adapters/node.ts: one Socket.IO server of bench/adapters/run.ts, run as a child process so that the emitting
// server (A), the receiving server (B) and the clients do not share one event loop. The parent tells it over IPC
// which adapter to use (env) and when to emit; it emits `showAlert { phase, seq, sentAt }` to every browser of the
// cluster with io.emit, as the app emits alerts, and answers with the send times.
import { createServer } from 'node:http';
import { createAdapter as createStreamsAdapter } from '@socket.io/redis-streams-adapter';
import type { FastifyBaseLogger } from 'fastify';
import { Redis, type RedisOptions } from 'ioredis';
import { Server } from 'socket.io';
import { connectRedisAdapter, type RedisLink } from '../../apps/server/src/cluster/redis-link';
import type { RealtimeServer } from '../../apps/server/src/plugins/realtime';
import { now, type AdapterKind, type Command, type Reply } from './protocol';

/** The app's reconnect pace (redis-link.ts): again every 0.5-2 s for as long as it takes. */
const retryStrategy = (times: number) => Math.min(500 * times, 2_000);

/**
 * The streams adapter with a publisher that fails fast, as the app's pub/sub publisher does (an XADD while Redis is
 * down is dropped, not queued), and readers (the adapter duplicates the client) that queue, so that a blocking XREAD
 * waits for the reconnect instead of failing and being retried in a busy loop.
 */
class FailFastStreamsClient extends Redis {
  override duplicate(override?: Partial<RedisOptions>): Redis {
    return new Redis({ ...this.options, enableOfflineQueue: true, maxRetriesPerRequest: null, ...override });
  }
}

const kind = process.env.ADAPTER as AdapterKind;
const port = Number(process.env.PORT);
const redisUrl = process.env.REDIS_URL!;
const prefix = process.env.PREFIX!;
const silent = { warn() {}, info() {}, debug() {}, error() {} } as unknown as FastifyBaseLogger;

const http = createServer();
const io = new Server(http, { transports: ['websocket'] });
let link: RedisLink | null = null;
const streamsClients: Redis[] = [];

if (kind === 'pubsub') {
  // The app's own code and options (decision 036).
  link = connectRedisAdapter(io as unknown as RealtimeServer, redisUrl, prefix, silent, () => {});
} else {
  // As the adapter's README shows (ioredis defaults: an offline queue, 20 retries per command), with the app's pace.
  const client =
    kind === 'streams'
      ? new Redis(redisUrl, { retryStrategy })
      : new FailFastStreamsClient(redisUrl, { retryStrategy, enableOfflineQueue: false, maxRetriesPerRequest: 1 });
  client.on('error', () => {});
  streamsClients.push(client);
  io.adapter(createStreamsAdapter(client, { streamName: prefix, channelPrefix: prefix }));
}

function emitAll(phase: number, count: number, rate: number, keepTimes: boolean): Promise<number[]> {
  const sentAt: number[] = [];
  let seq = 0;
  const emitOne = () => {
    const at = now();
    if (keepTimes) sentAt.push(at);
    io.emit('showAlert', { phase, seq: seq++, sentAt: at });
  };
  return new Promise((resolve) => {
    if (rate === 0) {
      // As fast as possible: 1,000 per macrotask, so the adapter's writes go out in between.
      const chunk = () => {
        for (let i = 0; i < 1_000 && seq < count; i++) emitOne();
        if (seq < count) setImmediate(chunk);
        else resolve(sentAt);
      };
      chunk();
      return;
    }
    const start = now();
    const timer = setInterval(() => {
      const due = Math.min(count, Math.floor(((now() - start) / 1_000) * rate) + 1);
      while (seq < due) emitOne();
      if (seq >= count) {
        clearInterval(timer);
        resolve(sentAt);
      }
    }, 2);
  });
}

const send = (reply: Reply) => process.send!(reply);

process.on('message', (command: Command) => {
  if (command.type === 'emit') {
    const start = now();
    void emitAll(command.phase, command.count, command.rate, command.keepTimes).then((sentAt) =>
      send({ type: 'emitted', phase: command.phase, startedAt: start, sentAt, seconds: (now() - start) / 1_000 }),
    );
  } else {
    io.close();
    void Promise.allSettled([link?.close(), ...streamsClients.map((c) => c.quit())]).finally(() => process.exit(0));
    setTimeout(() => process.exit(0), 2_000).unref();
  }
});

http.listen(port, '127.0.0.1', () => send({ type: 'ready' }));
