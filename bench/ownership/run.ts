// bench/ownership: what it costs per fix to judge each fix of a device once when the device's fixes reach
// several processes, for the designs of decision 036. Same load for every design: fixes of random devices (10,000 by
// default) from C concurrent client loops (C = 16 and 64, --seconds each), each fix handed to a random one of 2
// "processes" (async workers in this Node process, each with its own PostgreSQL pool of --pool connections, the
// size the app's fromPostgres opens), one fix per write, acknowledged once committed; each client waits for that
// before sending its next fix. Tables created by the app's own migrations. Latency: fix handed over -> committed.
//
//   (a) baseline, today's single-process path: ONE statement inserts the fix and updates the device row (the shape of
//       writeFixes in tracking-service.ts, without the transaction). Correct only while one process sees all of a
//       device's fixes: it is what cluster mode replaces, measured here on the same 2 pools so only the design differs.
//   (b) per-device row lock (cluster mode's writeBatchLocked): BEGIN; SELECT the device row ... FOR UPDATE; (a)'s
//       statement; UPDATE devices SET revision, engine_state (a portable engine memory, ~300 bytes of jsonb); COMMIT.
//       Also with every fix on one of --hot (100) devices, so clients often write one device at once and the second
//       waits for the first's lock: beside (a) on the same hot devices, and the lock's wait beside (b)'s uncontended.
//   (c) ownership, fixes forwarded through Redis Streams: each process owns half of the devices (hash of the id) and
//       holds a lease per half in Redis (renewed every second, 5 s TTL). A fix for a device the receiver does not own
//       is XADDed to the owner's stream; the owner's one consumer (one, so a device's fixes stay in order) reads with
//       XREADGROUP BLOCK COUNT 100 and writes each fix with (a)'s statement (a device's fixes one after another,
//       different devices at once), then XACKs it and PUBLISHes its request id to the sender, which acknowledges the
//       fix only then. Forwarded fixes (about half) and local ones (written at once, as (a)) are measured apart.
//
// (b) also counts the fixes whose device another transaction of the bench held when it asked for the lock, and how
// long their SELECT ... FOR UPDATE took: the lock waits.
// The client loops, both processes, pg and ioredis share this process's event loop, and PostgreSQL and Redis run on
// the same machine: the figures compare the designs with each other, in one run; they are not capacity figures.
// The app also groups concurrent fixes into one batch per write (bench/ingest measures that); here every fix is its
// own write, the worst case for the row lock (one transaction and lock per fix).
//
//   npm run ownership -w @prison/bench -- [--seconds 10] [--devices 10000] [--hot 100] [--clients 16,64] [--pool 10]
//
// PostgreSQL: creates its own database on 127.0.0.1 (user postgres, or BENCH_PG_URL) and drops it at the end.
// Redis: BENCH_REDIS_URL (default redis://127.0.0.1:6379); every key is named bench-own-<random>:... and deleted at
// the end.
import { randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { Redis } from 'ioredis';
import pg from 'pg';
import { fromPostgres } from '../../apps/server/src/db/client';
import { percentile, printFigures, type Figure } from '../lib/report';

const { values: args } = parseArgs({
  options: {
    seconds: { type: 'string', default: '10' },
    devices: { type: 'string', default: '10000' },
    hot: { type: 'string', default: '100' },
    clients: { type: 'string', default: '16,64' },
    pool: { type: 'string', default: '10' },
  },
});
const SECONDS = Number(args.seconds);
const DEVICES = Number(args.devices);
const HOT = Math.min(Number(args.hot), DEVICES);
const CLIENTS = args.clients.split(',').map(Number);
const POOL = Number(args.pool);
const PROCESSES = 2;
const ADMIN_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const PREFIX = `bench-own-${randomBytes(4).toString('hex')}`;
const LEASE_MS = 5_000;
const log = (text: string) => console.log(`[ownership bench] ${text}`);

interface Fix {
  deviceId: string;
  at: number;
  lat: number;
  lng: number;
  battery: number;
}

/** A design's entry point: a process is handed a fix and resolves once it is committed, saying where it was written. */
type Receive = (processIndex: number, fix: Fix) => Promise<'local' | 'forwarded'>;

const deviceId = (n: number) => `dev-${String(n).padStart(5, '0')}`;

/** Every fix has its own time, so none is a duplicate and the stored count can be checked against the acknowledged. */
const FIRST_FIX_AT = Date.now() - 7 * 86_400_000;
let fixCounter = 0;
function nextFix(id: string): Fix {
  return { deviceId: id, at: FIRST_FIX_AT + fixCounter++, lat: 51.5 + Math.random() * 0.01, lng: -0.12 + Math.random() * 0.01, battery: 80 };
}

// tracking-service.ts writeFixes, with numbered parameters: a multi-row insert of the fixes and an update of their
// devices, as column arrays, in one statement.
const WRITE_FIXES = `
  with inserted as (
    insert into positions (device_id, prisoner_id, recorded_at, received_at, latitude, longitude, accuracy, speed, bearing, altitude, battery)
    select * from unnest($1::text[], $2::int[], $3::timestamptz[], $4::timestamptz[], $5::float8[], $6::float8[], $7::real[],
      $8::real[], $9::real[], $10::real[], $11::real[])
    on conflict (device_id, recorded_at) do nothing
    returning device_id, floor(extract(epoch from recorded_at) * 1000 + 0.5)::float8 as ms
  ), state as (
    update devices as d set last_seen_at = v.seen, last_fix_at = v.fix, last_latitude = v.lat, last_longitude = v.lng,
      last_battery = v.battery, online = v.online, low_battery_alerted = v.low
    from unnest($12::text[], $13::timestamptz[], $14::timestamptz[], $15::float8[], $16::float8[], $17::real[],
      $18::boolean[], $19::boolean[]) as v(id, seen, fix, lat, lng, battery, online, low)
    where d.id = v.id
    returning 1
  )
  select device_id, ms from inserted`;

// tracking-service.ts adoptLockedState and writeRevisions.
const LOCK_DEVICES = `
  select id, revision, last_seen_at, last_fix_at, last_latitude, last_longitude, last_battery, online, low_battery_alerted, engine_state
  from devices where id = any($1::text[]) order by id for update`;
const WRITE_REVISIONS = `
  update devices as d set revision = v.rev, engine_state = v.state::jsonb
  from unnest($1::text[], $2::int[], $3::text[]) as v(id, rev, state)
  where d.id = v.id`;

async function writeFixes(db: pg.Pool | pg.PoolClient, fixes: Fix[]): Promise<void> {
  const received = new Date().toISOString();
  // One row per device, its newest fix, in id order (as the app's touched()).
  const newest = new Map<string, Fix>();
  for (const fix of fixes) if ((newest.get(fix.deviceId)?.at ?? -Infinity) < fix.at) newest.set(fix.deviceId, fix);
  const states = [...newest.values()].sort((x, y) => (x.deviceId < y.deviceId ? -1 : 1));
  const none = fixes.map(() => null);
  await db.query(WRITE_FIXES, [
    fixes.map((f) => f.deviceId),
    none,
    fixes.map((f) => new Date(f.at).toISOString()),
    fixes.map(() => received),
    fixes.map((f) => f.lat),
    fixes.map((f) => f.lng),
    none,
    none,
    none,
    none,
    fixes.map((f) => f.battery),
    states.map((f) => f.deviceId),
    states.map(() => received),
    states.map((f) => new Date(f.at).toISOString()),
    states.map((f) => f.lat),
    states.map((f) => f.lng),
    states.map((f) => f.battery),
    states.map(() => true),
    states.map(() => false),
  ]);
}

/** What the geofence engine's exportDevice gives for a device inside two geofences' reach (its size matters). */
function engineState(fix: Fix): string {
  const state = (n: number) => ({ geofenceId: `gf-${n}-${fix.deviceId}`, inside: n === 1, since: fix.at - 60_000, started: false, fresh: false });
  return JSON.stringify({ lastAt: fix.at, wearer: { prisonerId: 12345, block: 'A' }, states: [state(1), state(2)] });
}

/** How long each fix's SELECT ... FOR UPDATE took, and whether another transaction of this bench held that device. */
interface LockTimes {
  free: number[];
  held: number[];
}
const lockHolders = new Map<string, number>();

/** (b): the fix under its device's row lock, with the revision and engine memory written back. */
async function writeLocked(pool: pg.Pool, fix: Fix, times: LockTimes): Promise<void> {
  const client = await pool.connect();
  let holding = false;
  try {
    await client.query('begin');
    const held = (lockHolders.get(fix.deviceId) ?? 0) > 0;
    lockHolders.set(fix.deviceId, (lockHolders.get(fix.deviceId) ?? 0) + 1);
    holding = true;
    const asked = performance.now();
    const locked = await client.query<{ id: string; revision: number }>(LOCK_DEVICES, [[fix.deviceId]]);
    (held ? times.held : times.free).push(performance.now() - asked);
    await writeFixes(client, [fix]);
    await client.query(WRITE_REVISIONS, [locked.rows.map((r) => r.id), locked.rows.map((r) => r.revision + 1), locked.rows.map(() => engineState(fix))]);
    await client.query('commit');
  } catch (error) {
    await client.query('rollback').catch(() => undefined);
    throw error;
  } finally {
    client.release();
    if (holding) lockHolders.set(fix.deviceId, lockHolders.get(fix.deviceId)! - 1);
  }
}

/** FNV-1a: which process owns a device in (c). */
function ownerOf(id: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) hash = Math.imul(hash ^ id.charCodeAt(i), 0x01000193);
  return (hash >>> 0) % PROCESSES;
}

interface Forwarded extends Fix {
  /** Request id, unique within the sender. */
  r: number;
  /** Sender process. */
  s: number;
}

const pct = (sorted: number[], q: number) => percentile(sorted, q);

type StreamRead = [string, [string, string[]][]][] | null;

/** (c): two processes owning half of the devices each, forwarding the rest through Redis Streams. */
async function startOwnership(pools: pg.Pool[]): Promise<{ receive: Receive; stop(): Promise<void> }> {
  const streamKey = (owner: number) => `${PREFIX}:fixes:${owner}`;
  const replyChannel = (sender: number) => `${PREFIX}:replies:${sender}`;
  const leaseKey = (owner: number) => `${PREFIX}:lease:${owner}`;
  const group = 'owner';
  const connect = () => new Redis(REDIS_URL, { lazyConnect: false, maxRetriesPerRequest: 1 });
  const processes = Array.from({ length: PROCESSES }, (_, index) => ({
    index,
    commands: connect(),
    blocking: connect(),
    replies: connect(),
    pending: new Map<number, () => void>(),
    nextRequest: 0,
  }));
  let stopping = false;

  for (const p of processes) {
    const taken = await p.commands.set(leaseKey(p.index), `process-${p.index}`, 'PX', LEASE_MS, 'NX');
    if (taken !== 'OK') throw new Error(`lease ${leaseKey(p.index)} is held`);
    await p.commands.xgroup('CREATE', streamKey(p.index), group, '$', 'MKSTREAM');
    await p.replies.subscribe(replyChannel(p.index));
    p.replies.on('message', (_channel: string, message: string) => {
      for (const id of JSON.parse(message) as number[]) {
        p.pending.get(id)?.();
        p.pending.delete(id);
      }
    });
  }
  // A lease is extended only by its holder (compare and extend): what a process would run to keep its half.
  const extend = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end`;
  const renewals = setInterval(() => {
    for (const p of processes) void p.commands.eval(extend, 1, leaseKey(p.index), `process-${p.index}`, LEASE_MS).catch(() => undefined);
  }, 1_000);

  // The owner writes each forwarded fix with (a)'s statement, one fix per write like the other designs; a device's
  // fixes one after another (chained), different devices at once (up to the pool's size).
  const consumers = processes.map(async (p) => {
    const chains = new Map<string, Promise<void>>();
    const store = async (entryId: string, fix: Forwarded) => {
      await writeFixes(pools[p.index]!, [fix]);
      await p.commands.pipeline().xack(streamKey(p.index), group, entryId).publish(replyChannel(fix.s), JSON.stringify([fix.r])).exec();
    };
    while (!stopping) {
      const read = (await p.blocking.xreadgroup('GROUP', group, `process-${p.index}`, 'COUNT', 100, 'BLOCK', 100, 'STREAMS', streamKey(p.index), '>')) as StreamRead;
      for (const [entryId, fields] of read?.[0]?.[1] ?? []) {
        const fix = JSON.parse(fields[1]!) as Forwarded;
        const stored = (chains.get(fix.deviceId) ?? Promise.resolve()).then(() => store(entryId, fix));
        chains.set(fix.deviceId, stored);
        void stored.then(() => {
          if (chains.get(fix.deviceId) === stored) chains.delete(fix.deviceId);
        });
      }
    }
    await Promise.all(chains.values());
  });

  const receive: Receive = async (processIndex, fix) => {
    const owner = ownerOf(fix.deviceId);
    if (owner === processIndex) {
      await writeFixes(pools[processIndex]!, [fix]);
      return 'local';
    }
    const p = processes[processIndex]!;
    const r = ++p.nextRequest;
    const committed = new Promise<void>((resolve) => p.pending.set(r, resolve));
    await p.commands.xadd(streamKey(owner), 'MAXLEN', '~', 100_000, '*', 'f', JSON.stringify({ ...fix, r, s: processIndex } satisfies Forwarded));
    await committed;
    return 'forwarded';
  };

  return {
    receive,
    async stop() {
      stopping = true;
      clearInterval(renewals);
      await Promise.all(consumers);
      await processes[0]!.commands.del(...processes.flatMap((p) => [streamKey(p.index), leaseKey(p.index)]));
      for (const p of processes) for (const connection of [p.commands, p.blocking, p.replies]) connection.disconnect();
    },
  };
}

interface Run {
  fixesPerSecond: number;
  all: number[];
  local: number[];
  forwarded: number[];
}

/** C client loops for SECONDS: each hands a fix of a device from pick() to a random process and waits for its ack. */
async function drive(receive: Receive, clients: number, pick: () => string, seconds = SECONDS): Promise<Run> {
  const local: number[] = [];
  const forwarded: number[] = [];
  const started = performance.now();
  const end = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (performance.now() < end) {
        const fix = nextFix(pick());
        const sent = performance.now();
        const where = await receive(Math.floor(Math.random() * PROCESSES), fix);
        (where === 'local' ? local : forwarded).push(performance.now() - sent);
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  const sort = (values: number[]) => values.sort((x, y) => x - y);
  return { fixesPerSecond: (local.length + forwarded.length) / elapsed, all: sort([...local, ...forwarded]), local: sort(local), forwarded: sort(forwarded) };
}

async function main(): Promise<void> {
  const name = `prison_bench_ownership_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  const pools: pg.Pool[] = [];
  try {
    const database = fromPostgres(url.toString(), 2);
    await database.migrate();
    await database.close();
    for (let i = 0; i < PROCESSES; i++) pools.push(new pg.Pool({ connectionString: url.toString(), max: POOL }));
    const setup = pools[0]!;
    await setup.query(`insert into devices (id, name, secret_hash) select 'dev-' || lpad(n::text, 5, '0'), 'Tracker ' || n, 'x' from generate_series(1, $1::int) n`, [DEVICES]);
    await setup.query('analyze devices');
    log(`${DEVICES.toLocaleString('en-US')} devices in ${name}; ${PROCESSES} processes with a pool of ${POOL} each; load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);

    const anyDevice = () => deviceId(1 + Math.floor(Math.random() * DEVICES));
    const hotDevice = () => deviceId(1 + Math.floor(Math.random() * HOT));
    const baseline: Receive = async (p, fix) => {
      await writeFixes(pools[p]!, [fix]);
      return 'local';
    };
    const lockTimes: LockTimes = { free: [], held: [] };
    const rowLock: Receive = async (p, fix) => {
      await writeLocked(pools[p]!, fix, lockTimes);
      return 'local';
    };
    const ownership = await startOwnership(pools);
    let acknowledged = 0;
    /** Every acknowledged fix must be stored; the next run starts from an empty positions table. */
    const measure = async (label: string, receive: Receive, clients: number, pick: () => string, seconds = SECONDS) => {
      lockTimes.free = [];
      lockTimes.held = [];
      const run = await drive(receive, clients, pick, seconds);
      const stored = Number((await setup.query<{ n: string }>('select count(*) as n from positions')).rows[0]!.n);
      if (stored !== run.all.length) throw new Error(`${label}: ${run.all.length} fixes acknowledged, ${stored} stored`);
      acknowledged += stored;
      await setup.query('truncate positions');
      const sort = (values: number[]) => [...values].sort((x, y) => x - y);
      const lock = { all: sort([...lockTimes.free, ...lockTimes.held]), held: sort(lockTimes.held) };
      log(`${label}: ${Math.round(run.fixesPerSecond)} fixes/s, p50 ${percentile(run.all, 50).toFixed(2)} ms, p99 ${percentile(run.all, 99).toFixed(2)} ms`);
      return { ...run, lock };
    };

    try {
      await measure('warm-up (not reported)', baseline, CLIENTS[0]!, anyDevice, Math.min(2, SECONDS));
      const lockedRuns = new Map<number, Awaited<ReturnType<typeof measure>>>();
      for (const clients of CLIENTS) {
        const a = await measure(`(a) one statement, C=${clients}`, baseline, clients, anyDevice);
        const b = await measure(`(b) row lock, C=${clients}`, rowLock, clients, anyDevice);
        const c = await measure(`(c) ownership + Redis Streams, C=${clients}`, ownership.receive, clients, anyDevice);
        lockedRuns.set(clients, b);
        const figures: Figure[] = [
          { name: '(a) one statement (baseline): fixes/s', value: a.fixesPerSecond, unit: 'fixes/s' },
          { name: '(a) p50', value: pct(a.all, 50), unit: 'ms' },
          { name: '(a) p99', value: pct(a.all, 99), unit: 'ms' },
          { name: '(b) row lock: fixes/s', value: b.fixesPerSecond, unit: 'fixes/s', baseline: a.fixesPerSecond },
          { name: '(b) p50', value: pct(b.all, 50), unit: 'ms', baseline: pct(a.all, 50) },
          { name: '(b) p99', value: pct(b.all, 99), unit: 'ms', baseline: pct(a.all, 99) },
          { name: '(b) SELECT ... FOR UPDATE p50', value: pct(b.lock.all, 50), unit: 'ms' },
          { name: '(b) SELECT ... FOR UPDATE p99', value: pct(b.lock.all, 99), unit: 'ms' },
          { name: '(c) ownership + Streams: fixes/s', value: c.fixesPerSecond, unit: 'fixes/s', baseline: a.fixesPerSecond },
          { name: '(c) all fixes p50', value: pct(c.all, 50), unit: 'ms', baseline: pct(a.all, 50) },
          { name: '(c) all fixes p99', value: pct(c.all, 99), unit: 'ms', baseline: pct(a.all, 99) },
          { name: '(c) local fixes p50', value: pct(c.local, 50), unit: 'ms', baseline: pct(a.all, 50) },
          { name: '(c) local fixes p99', value: pct(c.local, 99), unit: 'ms', baseline: pct(a.all, 99) },
          { name: '(c) forwarded fixes p50', value: pct(c.forwarded, 50), unit: 'ms', baseline: pct(a.all, 50) },
          { name: '(c) forwarded fixes p99', value: pct(c.forwarded, 99), unit: 'ms', baseline: pct(a.all, 99) },
          { name: '(c) share forwarded', value: (100 * c.forwarded.length) / c.all.length, unit: '%' },
        ];
        printFigures(`Device ownership, C = ${clients} clients, fixes of ${DEVICES.toLocaleString('en-US')} random devices, ${PROCESSES} processes (latency: fix handed over -> committed)`, figures);
      }

      const clients = Math.max(...CLIENTS);
      const uncontended = lockedRuns.get(clients)!;
      const aHot = await measure(`(a) one statement, ${HOT} hot devices, C=${clients}`, baseline, clients, hotDevice);
      const bHot = await measure(`(b) row lock, ${HOT} hot devices, C=${clients}`, rowLock, clients, hotDevice);
      printFigures(`Contended: C = ${clients} clients, every fix on one of ${HOT} hot devices (baseline: (a) on the same hot devices; for the lock figures, (b) on all ${DEVICES.toLocaleString('en-US')} devices)`, [
        { name: '(a) one statement, hot: fixes/s', value: aHot.fixesPerSecond, unit: 'fixes/s' },
        { name: '(a) hot p50', value: pct(aHot.all, 50), unit: 'ms' },
        { name: '(a) hot p99', value: pct(aHot.all, 99), unit: 'ms' },
        { name: '(b) row lock, hot: fixes/s', value: bHot.fixesPerSecond, unit: 'fixes/s', baseline: aHot.fixesPerSecond },
        { name: '(b) hot p50', value: pct(bHot.all, 50), unit: 'ms', baseline: pct(aHot.all, 50) },
        { name: '(b) hot p99', value: pct(bHot.all, 99), unit: 'ms', baseline: pct(aHot.all, 99) },
        { name: '(b) hot: fixes whose device another write held', value: (100 * bHot.lock.held.length) / bHot.lock.all.length, unit: '%', baseline: (100 * uncontended.lock.held.length) / uncontended.lock.all.length },
        { name: '(b) hot: their SELECT ... FOR UPDATE p50', value: pct(bHot.lock.held, 50), unit: 'ms', baseline: pct(uncontended.lock.all, 50) },
        { name: '(b) hot: their SELECT ... FOR UPDATE p99', value: pct(bHot.lock.held, 99), unit: 'ms', baseline: pct(uncontended.lock.all, 99) },
        { name: '(b) hot: all SELECT ... FOR UPDATE p99', value: pct(bHot.lock.all, 99), unit: 'ms', baseline: pct(uncontended.lock.all, 99) },
      ]);
      log(`every acknowledged fix was stored (${acknowledged.toLocaleString('en-US')} in all); load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
    } finally {
      await ownership.stop();
    }

    console.log(`
When things fail (not measured here):
  Redis down:  (a) is unaffected (one process, no Redis). (b) keeps judging every fix once: the lock and the state are
               in PostgreSQL; only what cluster mode shares through Redis (Socket.IO fan-out) degrades. (c) stops
               forwarding: a fix reaching the process that does not own its device cannot be handed over, so about
               half of the fixes are refused (clients retry) until Redis returns; and with the leases in Redis no lease
               can be renewed, so after the lease TTL (${LEASE_MS / 1000} s here) no owner may write at all.
  kill -9 of a process:
               (a) is the only process: fixes stop until it restarts. (b) PostgreSQL ends the dead connection's
               transaction and releases its row locks at once; the other process takes the devices' fixes from the
               next one, adopting their stored state (revision, engine_state). (c) the dead owner's devices get no
               fix stored until its lease expires (up to ${LEASE_MS / 1000} s) and another process takes the half over
               (loading its devices' state, XAUTOCLAIMing the forwarded fixes it left pending); senders wait or retry.
               A paused (not dead) owner whose lease expired must also be fenced off: (c) as measured trusts its lease,
               a real one needs a fencing token checked by the write.`);
  } finally {
    await Promise.all(pools.map((pool) => pool.end()));
    const dropper = new pg.Client({ connectionString: ADMIN_URL });
    await dropper.connect();
    await dropper.query(`drop database if exists ${name} with (force)`);
    await dropper.end();
  }
}

await main();
