// bench/adapters: Socket.IO's Redis pub/sub adapter (the app's, decision 036) against its Redis streams
// adapter, for the live fan-out between processes. Two Socket.IO servers, A and B, each a child process
// (bench/adapters/node.ts), share one redis-server of this bench's own; A emits `showAlert { sentAt }` with io.emit
// (as the app emits alerts), socket.io-client clients in this process are connected to B (and one to A). Measured
// for each adapter, pub/sub printed as the baseline of streams:
//   1. latency from A's emit to the receipt on a client of B: --events at --rate per second with 1 client on B, the
//      same with --clients clients on B (every delivery counted), and the same events in a burst (as fast as A emits);
//   2. exactly once: per client, events received vs emitted (lost, duplicated) in 1;
//   3. a Redis restart: while A emits 100 events/s, redis-server is killed (SIGKILL) and started again on the same
//      port 2 s later (no persistence: the stream goes with it). Per window (emitted before the kill, while Redis was
//      down, after it is back): lost, duplicated, delayed over 1 s on B's client; how long after Redis is back the
//      first fresh event reaches B; the longest silence on B; and what A's own client (a local emit) gets meanwhile.
//      The same while Redis stays up but the receiving connections (subscribers, stream readers) are cut (CLIENT
//      KILL), as a network blip of one process would: the case the streams adapter is made for;
//   4. Redis memory after --memory-events events (the stream is trimmed to ~10,000 entries; pub/sub keeps none).
// Pub/sub uses the app's own connectRedisAdapter (apps/server/src/cluster/redis-link.ts: a publisher without offline
// queue whose failed publishes are dropped, a subscriber with one). Streams is run as its README shows (ioredis
// defaults: offline queue, 20 retries per command) with the app's reconnect pace; the restart is also run with a
// fail-fast streams publisher (no offline queue, as the app's) whose readers keep theirs ("streams, fail-fast").
// Both servers, this process and Redis share the machine's cores: compare the adapters with each other, in one run.
//
//   npm run adapters -w @prison/bench -- [--events 5000] [--rate 500] [--clients 50] [--memory-events 100000]
//
// Needs /usr/bin/redis-server (apt-get install -y redis-server); it is started and killed by the bench. Ports:
// BENCH_ADAPTERS_PORT (3700: A, +1: B) and BENCH_ADAPTERS_REDIS_PORT (6396).
import { spawn, fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { io as connect, type Socket } from 'socket.io-client';
import { percentile, printFigures, type Figure } from '../lib/report';
import { now, type AdapterKind, type Command, type Reply } from './protocol';

const { values: args } = parseArgs({
  options: {
    events: { type: 'string', default: '5000' },
    rate: { type: 'string', default: '500' },
    clients: { type: 'string', default: '50' },
    'memory-events': { type: 'string', default: '100000' },
  },
});
const EVENTS = Number(args.events);
const RATE = Number(args.rate);
const CLIENTS = Number(args.clients);
const MEMORY_EVENTS = Number(args['memory-events']);
const PORT = Number(process.env.BENCH_ADAPTERS_PORT ?? 3700);
const REDIS_PORT = Number(process.env.BENCH_ADAPTERS_REDIS_PORT ?? 6396);
const REDIS_URL = `redis://127.0.0.1:${REDIS_PORT}`;
const PREFIX = 'bench-adapters';
const RESTART_RATE = 100;
const RESTART_SECONDS = 8;
const INTERRUPT_AT_MS = 2_000;
const DOWN_MS = 2_000;
/** An event that arrives later than this after its emit counts as delayed. */
const DELAYED_MS = 1_000;
const NODE_SCRIPT = fileURLToPath(new URL('./node.ts', import.meta.url));
const log = (text: string) => console.log(`[adapters bench] ${text}`);

// ---------------------------------------------------------------------------------------------------------------
// Redis of our own

let redisProcess: ChildProcess | null = null;

async function startRedis(): Promise<void> {
  redisProcess = spawn(
    '/usr/bin/redis-server',
    ['--port', String(REDIS_PORT), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: 'ignore' },
  );
  const probe = new Redis(REDIS_URL, { retryStrategy: () => 50, maxRetriesPerRequest: null });
  probe.on('error', () => {});
  await probe.ping();
  probe.disconnect();
}

async function killRedis(): Promise<void> {
  const child = redisProcess;
  if (!child || child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
  redisProcess = null;
}

/**
 * Cuts the connections that receive (pub/sub subscribers, stream readers blocked in XREAD) of both servers while
 * Redis stays up, as a network blip of one process would: ioredis reconnects them at the app's pace (0.5 s).
 */
async function cutReaders(): Promise<void> {
  const control = new Redis(REDIS_URL);
  const list = (await control.client('LIST')) as string;
  for (const line of list.split('\n')) {
    const id = /\bid=(\d+)/.exec(line)?.[1];
    const flags = /\bflags=(\S+)/.exec(line)?.[1] ?? '';
    const cmd = /\bcmd=(\S+)/.exec(line)?.[1] ?? '';
    if (id && (flags.includes('P') || cmd === 'xread')) await control.client('KILL', 'ID', id);
  }
  await control.quit();
}

async function redisMemory(): Promise<{ usedBytes: number; streamEntries: number; streamBytes: number }> {
  const control = new Redis(REDIS_URL);
  const info = await control.info('memory');
  const usedBytes = Number(/used_memory:(\d+)/.exec(info)![1]);
  const isStream = (await control.type(PREFIX)) === 'stream';
  const streamEntries = isStream ? await control.xlen(PREFIX) : 0;
  const streamBytes = isStream ? Number(await control.memory('USAGE', PREFIX)) : 0;
  await control.quit();
  return { usedBytes, streamEntries, streamBytes };
}

// ---------------------------------------------------------------------------------------------------------------
// The two servers (child processes)

class ServerNode {
  private pending: ((reply: Reply) => void)[] = [];
  private constructor(private readonly child: ChildProcess) {
    child.on('message', (reply: Reply) => this.pending.shift()?.(reply));
  }

  static async start(kind: AdapterKind, port: number): Promise<ServerNode> {
    const child = fork(NODE_SCRIPT, {
      env: { ...process.env, ADAPTER: kind, PORT: String(port), REDIS_URL, PREFIX },
    });
    const node = new ServerNode(child);
    await node.next();
    return node;
  }

  private next(): Promise<Reply> {
    return new Promise((resolve) => this.pending.push(resolve));
  }

  async emit(phase: number, count: number, rate: number, keepTimes = true): Promise<{ startedAt: number; sentAt: number[]; seconds: number }> {
    const reply = this.next();
    this.child.send({ type: 'emit', phase, count, rate, keepTimes } satisfies Command);
    const emitted = await reply;
    if (emitted.type !== 'emitted') throw new Error('unexpected reply');
    return emitted;
  }

  async close(): Promise<void> {
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.send({ type: 'close' } satisfies Command);
    await exited;
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Browsers

interface Payload {
  phase: number;
  seq: number;
  sentAt: number;
}

class Receiver {
  phase = -1;
  counts = new Map<number, number>();
  /** Per receipt: the event and when it arrived. */
  seqs: number[] = [];
  arrivals: number[] = [];
  latencies: number[] = [];

  private constructor(readonly socket: Socket) {
    socket.on('showAlert', (payload: Payload) => {
      if (payload.phase !== this.phase) return;
      const at = now();
      this.counts.set(payload.seq, (this.counts.get(payload.seq) ?? 0) + 1);
      this.seqs.push(payload.seq);
      this.arrivals.push(at);
      this.latencies.push(at - payload.sentAt);
    });
  }

  static async connect(port: number): Promise<Receiver> {
    const socket = connect(`http://127.0.0.1:${port}`, { transports: ['websocket'], forceNew: true, reconnection: false });
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('connect_error', reject);
    });
    return new Receiver(socket);
  }

  reset(phase: number): void {
    this.phase = phase;
    this.counts = new Map();
    this.seqs = [];
    this.arrivals = [];
    this.latencies = [];
  }
}

/** Resolves once every receiver has `count` distinct events, or after `idleMs` without any new receipt. */
async function settle(receivers: Receiver[], count: number, idleMs = 3_000): Promise<void> {
  let total = -1;
  let lastChange = now();
  for (;;) {
    if (receivers.every((r) => r.counts.size >= count)) {
      await sleep(200); // late duplicates, if any
      return;
    }
    const seen = receivers.reduce((sum, r) => sum + r.seqs.length, 0);
    if (seen !== total) {
      total = seen;
      lastChange = now();
    } else if (now() - lastChange > idleMs) return;
    await sleep(20);
  }
}

function delivery(receivers: Receiver[], emitted: number) {
  let lost = 0;
  let duplicated = 0;
  for (const r of receivers) {
    for (let seq = 0; seq < emitted; seq++) {
      const count = r.counts.get(seq) ?? 0;
      if (count === 0) lost++;
      if (count > 1) duplicated += count - 1;
    }
  }
  const latencies = receivers.flatMap((r) => r.latencies).sort((a, b) => a - b);
  return { lost, duplicated, p50: percentile(latencies, 50), p99: percentile(latencies, 99), max: latencies.at(-1)! };
}

/**
 * A emits RESTART_RATE events/s for RESTART_SECONDS; INTERRUPT_AT_MS in, `interrupt` breaks Redis and says when it was
 * broken and when it answered again. Per window (emitted before, while down, after): lost, duplicated and delayed on
 * B's client, lost on A's own; then how long until a fresh event reached B, the longest silence, the latest arrivals.
 */
async function interruption(
  label: string,
  phase: number,
  a: ServerNode,
  onA: Receiver,
  onB: Receiver,
  put: (name: string, value: number, unit: string) => void,
  interrupt: () => Promise<{ downAt: number; upAt: number }>,
): Promise<void> {
  onB.reset(phase);
  onA.reset(phase);
  const count = RESTART_RATE * RESTART_SECONDS;
  const start = now();
  const emitting = a.emit(phase, count, RESTART_RATE, true);
  await sleep(INTERRUPT_AT_MS);
  const { downAt, upAt } = await interrupt();
  const { sentAt } = await emitting;
  await settle([onB, onA], count, 2_000);
  const windows =
    upAt > downAt
      ? [
          { name: 'emitted before the kill', from: start - 1, to: downAt },
          { name: 'emitted while Redis was down', from: downAt, to: upAt },
          { name: 'emitted after Redis was back', from: upAt, to: Infinity },
        ]
      : [
          { name: 'emitted before the cut', from: start - 1, to: downAt },
          { name: 'emitted after the cut', from: downAt, to: Infinity },
        ];
  /** Per event, its latest arrival on B. */
  const onBLatency = new Map<number, number>();
  onB.seqs.forEach((seq, i) => onBLatency.set(seq, Math.max(onBLatency.get(seq) ?? 0, onB.arrivals[i]! - sentAt[seq]!)));
  if (upAt > downAt) put(`${label}: Redis down (SIGKILL -> answering PING again)`, upAt - downAt, 'ms');
  for (const w of windows) {
    const seqs = sentAt.flatMap((at, seq) => (at >= w.from && at < w.to ? [seq] : []));
    put(`${label}, ${w.name}`, seqs.length, 'events');
    put(`${label}, ${w.name}: lost on B`, seqs.filter((s) => !onB.counts.has(s)).length, 'events');
    put(`${label}, ${w.name}: duplicated on B`, seqs.filter((s) => (onB.counts.get(s) ?? 0) > 1).length, 'events');
    put(`${label}, ${w.name}: delayed > ${DELAYED_MS / 1000} s on B`, seqs.filter((s) => (onBLatency.get(s) ?? 0) > DELAYED_MS).length, 'events');
    put(`${label}, ${w.name}: lost on A's own client`, seqs.filter((s) => !onA.counts.has(s)).length, 'events');
  }
  if (upAt > downAt) {
    const fresh = onB.seqs.flatMap((seq, i) => (sentAt[seq]! >= upAt ? [onB.arrivals[i]!] : []));
    put(`${label}: Redis back -> first fresh event on B`, fresh.length ? Math.min(...fresh) - upAt : Number.NaN, 'ms');
  }
  const sortedArrivals = [...onB.arrivals].sort((x, y) => x - y);
  let silence = 0;
  for (let i = 1; i < sortedArrivals.length; i++) silence = Math.max(silence, sortedArrivals[i]! - sortedArrivals[i - 1]!);
  put(`${label}: longest silence on B`, silence, 'ms');
  put(`${label}: latest arrival on B`, Math.max(...onB.latencies), 'ms');
  put(`${label}: latest arrival on A's own client`, Math.max(...onA.latencies), 'ms');
}

// ---------------------------------------------------------------------------------------------------------------
// One adapter

type Results = Record<string, { value: number; unit: string }>;

async function measure(kind: AdapterKind, full: boolean): Promise<Results> {
  const results: Results = {};
  const put = (name: string, value: number, unit: string) => (results[name] = { value, unit });
  await startRedis();
  const memoryBefore = await redisMemory();
  const [a, b] = await Promise.all([ServerNode.start(kind, PORT), ServerNode.start(kind, PORT + 1)]);
  const onB = await Receiver.connect(PORT + 1);
  const onA = await Receiver.connect(PORT);
  let phase = 0;

  // Warm-up: the adapters subscribe / start reading only once connected; emit until B hears A.
  onB.reset(phase);
  for (let i = 0; i < 100 && onB.counts.size === 0; i++) {
    await a.emit(phase, 1, 0, false);
    await sleep(100);
  }
  if (onB.counts.size === 0) throw new Error(`${kind}: B never heard A`);

  if (full) {
    log(`${kind}: ${EVENTS} events at ${RATE}/s, 1 client on B`);
    onB.reset(++phase);
    await a.emit(phase, EVENTS, RATE, false);
    await settle([onB], EVENTS);
    let d = delivery([onB], EVENTS);
    put(`steady ${RATE}/s, 1 client: p50`, d.p50, 'ms');
    put(`steady ${RATE}/s, 1 client: p99`, d.p99, 'ms');
    put(`steady ${RATE}/s, 1 client: lost`, d.lost, 'events');
    put(`steady ${RATE}/s, 1 client: duplicated`, d.duplicated, 'events');

    log(`${kind}: ${EVENTS} events in a burst, 1 client on B`);
    onB.reset(++phase);
    const burst = await a.emit(phase, EVENTS, 0, false);
    await settle([onB], EVENTS);
    d = delivery([onB], EVENTS);
    put(`burst of ${EVENTS}: p50`, d.p50, 'ms');
    put(`burst of ${EVENTS}: p99`, d.p99, 'ms');
    put(`burst of ${EVENTS}: delivered per second`, EVENTS / ((Math.max(...onB.arrivals) - burst.startedAt) / 1_000), 'events/s');
    put(`burst of ${EVENTS}: lost + duplicated`, d.lost + d.duplicated, 'events');

    log(`${kind}: ${EVENTS} events at ${RATE}/s, ${CLIENTS} clients on B`);
    const more = await Promise.all(Array.from({ length: CLIENTS - 1 }, () => Receiver.connect(PORT + 1)));
    const all = [onB, ...more];
    ++phase;
    for (const r of all) r.reset(phase);
    await a.emit(phase, EVENTS, RATE, false);
    await settle(all, EVENTS);
    d = delivery(all, EVENTS);
    put(`steady ${RATE}/s, ${CLIENTS} clients: p50`, d.p50, 'ms');
    put(`steady ${RATE}/s, ${CLIENTS} clients: p99`, d.p99, 'ms');
    put(`steady ${RATE}/s, ${CLIENTS} clients: lost`, d.lost, 'deliveries');
    put(`steady ${RATE}/s, ${CLIENTS} clients: duplicated`, d.duplicated, 'deliveries');
    for (const r of more) r.socket.disconnect();

    log(`${kind}: ${MEMORY_EVENTS} events as fast as A emits, Redis memory`);
    onB.reset(++phase);
    const flood = await a.emit(phase, MEMORY_EVENTS, 0, false);
    await settle([onB], MEMORY_EVENTS, 5_000);
    const memory = await redisMemory();
    const flooded = delivery([onB], MEMORY_EVENTS);
    put(`${MEMORY_EVENTS} events: delivered per second`, MEMORY_EVENTS / ((Math.max(...onB.arrivals) - flood.startedAt) / 1_000), 'events/s');
    // A reader more than maxLen entries behind finds the oldest ones trimmed: lost.
    put(`${MEMORY_EVENTS} events: lost`, flooded.lost, 'events');
    put(`${MEMORY_EVENTS} events: duplicated`, flooded.duplicated, 'events');
    put(`${MEMORY_EVENTS} events: Redis used_memory growth`, (memory.usedBytes - memoryBefore.usedBytes) / 1024 / 1024, 'MiB');
    put(`${MEMORY_EVENTS} events: entries kept in Redis`, memory.streamEntries, 'entries');
    put(`${MEMORY_EVENTS} events: the stream's own size`, memory.streamBytes / 1024 / 1024, 'MiB');
  }

  if (full) {
    log(`${kind}: the Redis connections of the subscribers / stream readers cut (CLIENT KILL), Redis up, ${RESTART_RATE}/s`);
    await interruption('connection cut', ++phase, a, onA, onB, put, async () => {
      const cutAt = now();
      await cutReaders();
      return { downAt: cutAt, upAt: cutAt };
    });
  }
  log(`${kind}: Redis killed at ${INTERRUPT_AT_MS / 1000} s and back ${DOWN_MS / 1000} s later, A emits ${RESTART_RATE}/s`);
  await interruption('restart', ++phase, a, onA, onB, put, async () => {
    const downAt = now();
    await killRedis();
    await sleep(DOWN_MS);
    await startRedis();
    return { downAt, upAt: now() };
  });

  onA.socket.disconnect();
  onB.socket.disconnect();
  await Promise.all([a.close(), b.close()]);
  await killRedis();
  return results;
}

function compare(value: Results, baseline: Results): Figure[] {
  return Object.entries(value).map(([name, { value: v, unit }]) => ({ name, value: v, unit, baseline: baseline[name]?.value }));
}

try {
  const pubsub = await measure('pubsub', true);
  const streams = await measure('streams', true);
  const failFast = await measure('streams-failfast', false);
  printFigures('Socket.IO adapters: streams (value) vs pub/sub, the app\'s (baseline)', compare(streams, pubsub));
  printFigures('Redis restart: streams with a fail-fast publisher (value) vs pub/sub (baseline)', compare(failFast, pubsub));
} finally {
  await killRedis();
}
process.exit(0);
