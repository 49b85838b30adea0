// `npm run cluster -- --processes N`: N server processes on this machine behind HAProxy, one address for browsers and
// devices (docs/DEPLOYMENT.md). Cluster mode: PostgreSQL (DATABASE_URL) and Redis (REDIS_URL). Each child's output is
// printed with its name in front (on a terminal readable, as one process prints its own there); a child that exits
// is reported and not restarted (that is the failover to watch); Ctrl-C or SIGTERM stops them all. bench/cluster
// starts its processes through startCluster() below.
//
//   npm run cluster -- --processes 3 [--port 8080] [--osmand-port 5055] [--demo] [--host 0.0.0.0]
//        [--stats-port 8404] [--node-port 3001] [--node-osmand-port 5101] [--redis URL | --no-redis] [--no-balancer]
//
// DATABASE_URL (default postgres://postgres@127.0.0.1:5432/prison_cluster, created when missing), REDIS_URL (default
// redis://127.0.0.1:6379), ADMIN_USERNAME/ADMIN_PASSWORD and LOG_LEVEL are read from the environment.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { prettyLineFormatter } from './pretty-log.mjs';
import { eachLine } from './stream-lines.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const TEMPLATE = path.join(root, 'deploy', 'haproxy.cfg.template');
export const DEFAULT_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/prison_cluster';
export const DEFAULT_REDIS_URL = 'redis://127.0.0.1:6379';
const SETPRIV = '/usr/bin/setpriv';
const HAPROXY = process.env.HAPROXY ?? (existsSync('/usr/sbin/haproxy') ? '/usr/sbin/haproxy' : 'haproxy');

/**
 * The HAProxy configuration: deploy/haproxy.cfg.template with its fields filled and a server line per process.
 * @param {{ host: string, port: number, osmandPort: number, statsPort: number,
 *   nodes: { name: string, address: string, port: number, osmandPort: number }[] }} options
 */
export function haproxyConfig(options) {
  const apiServers = options.nodes
    .map((n) => `    server ${n.name} ${n.address}:${n.port} check cookie ${n.name}`)
    .join('\n');
  const osmandServers = (checked) =>
    options.nodes.map((n) => `    server ${n.name} ${n.address}:${n.osmandPort} track ${checked}/${n.name}`).join('\n');
  const fields = {
    BIND: options.host,
    PORT: String(options.port),
    OSMAND_PORT: String(options.osmandPort),
    STATS_BIND: '127.0.0.1',
    STATS_PORT: String(options.statsPort),
    API_SERVERS: apiServers,
    OSMAND_SERVERS: osmandServers('app'),
    OSMAND_ALIVE_SERVERS: osmandServers('app_alive'),
  };
  return readFileSync(TEMPLATE, 'utf8').replace(/\{\{([A-Z_]+)\}\}/g, (whole, name) => {
    if (!(name in fields)) throw new Error(`${TEMPLATE}: unknown field ${whole}`);
    return fields[name];
  });
}

/** Creates the database of `url` when it does not exist (connecting to the server's `postgres` database). */
export async function ensureDatabase(url) {
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.slice(1));
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new Error(`DATABASE_URL names an unusual database "${name}": create it yourself`);
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    const found = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (found.rowCount === 0) {
      await client.query(`create database ${name}`);
      return true;
    }
    return false;
  } finally {
    await client.end();
  }
}

/**
 * Prints each line of a child's stream with its name in front, through `show` (readable on a terminal, as written
 * otherwise); `onLine` sees each line as the child wrote it.
 */
function prefixLines(stream, name, write, onLine = () => {}, show = (line) => [line]) {
  eachLine(stream, (line) => {
    onLine(line);
    for (const shown of show(line)) write(`[${name}] ${shown}`);
  });
}

/**
 * Why a server process stopped, from its own output: its one-line refusal (a port it cannot bind, decision 056) or
 * the message of its last error-level log line.
 */
export function stopReason(line) {
  if (line.startsWith('cannot listen on ')) return line;
  if (!line.startsWith('{')) return null;
  try {
    const entry = JSON.parse(line);
    // The level by name off a terminal (decision 103), by number in older builds.
    const failed = entry.level === 'error' || entry.level === 'fatal' || entry.level >= 50;
    return failed && typeof entry.msg === 'string' ? entry.msg : null;
  } catch {
    return null;
  }
}

/** True when something accepts TCP connections at the URL's host and port (Redis: 6379 by default). */
function answers(url) {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect({ host: hostname || '127.0.0.1', port: Number(port || 6379), timeout: 2_000 });
    const done = (ok) => {
      socket.destroy();
      resolve(ok);
    };
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
    socket.once('timeout', () => done(false));
  });
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** A URL's host and port, never its user or password. */
const address = (url) => {
  const { hostname, port, protocol } = new URL(url);
  return `${hostname}:${port || (protocol === 'redis:' ? 6379 : 5432)}`;
};

/**
 * Resolves when GET url answers 200; rejects when the child exits first (with its reason) or does not answer within
 * `timeoutMs`. A process that answers 503 is waiting for its database (decision 056): that is waited for as long as
 * it takes, said once.
 */
async function waitReady(url, child, name, timeoutMs = 120_000, write = console.log) {
  const end = Date.now() + timeoutMs;
  let waitingSaid = false;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`${name} could not start${child.stopReason ? `: ${child.stopReason}` : ' (its output is above)'}`);
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2_000) });
      await response.arrayBuffer();
      if (response.ok) return;
      if (response.status === 503 && !waitingSaid) {
        waitingSaid = true;
        write(`[cluster] ${name} waits for the database (/readyz 503); it becomes ready when PostgreSQL answers`);
      }
    } catch {
      // not listening yet
      if (!waitingSaid && Date.now() > end) throw new Error(`${name} was not ready within ${timeoutMs / 1000} s (${url})`);
    }
    await sleep(250);
  }
}

/**
 * Starts N server processes (node-1 first, so its demo seeding, with --demo, is done before the others serve; starting
 * together would be safe too: migrations run under an advisory lock), then HAProxy in front of them.
 * @param {{ processes: number, host?: string, port?: number, osmandPort?: number, statsPort?: number,
 *   nodePort?: number, nodeOsmandPort?: number, databaseUrl: string, redisUrl?: string | null, demo?: boolean,
 *   balancer?: boolean, env?: Record<string, string>, write?: (line: string) => void, pretty?: boolean,
 *   onExit?: (name: string, code: number | null, signal: string | null) => void }} options
 */
export async function startCluster(options) {
  const write = options.write ?? ((line) => console.log(line));
  // On a terminal the processes' JSON lines read as one process's own do there.
  const show = options.pretty ? await prettyLineFormatter() : undefined;
  const host = options.host ?? '0.0.0.0';
  const port = options.port ?? 8080;
  const osmandPort = options.osmandPort ?? 5055;
  const statsPort = options.statsPort ?? 8404;
  const nodePort = options.nodePort ?? 3001;
  const nodeOsmandPort = options.nodeOsmandPort ?? 5101;
  const children = [];
  const nodes = [];
  let haproxy = null;
  let tmpDir = null;
  let stopping = false;

  const spawnChild = (name, command, args, env) => {
    const child = spawn(command, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    const keepReason = (line) => {
      const reason = stopReason(line);
      if (reason) child.stopReason = reason;
    };
    prefixLines(child.stdout, name, write, keepReason, show);
    prefixLines(child.stderr, name, write, keepReason, show);
    child.on('exit', (code, signal) => {
      if (!stopping) write(`[cluster] ${name} (pid ${child.pid}) exited with ${signal ?? `code ${code}`}; not restarted`);
      options.onExit?.(name, code, signal);
    });
    children.push({ name, child });
    return child;
  };

  const startNode = (index) => {
    const name = `node-${index + 1}`;
    const node = { name, address: '127.0.0.1', port: nodePort + index, osmandPort: nodeOsmandPort + index, pid: 0, child: null };
    const env = {
      ...process.env,
      NODE_NAME: name,
      PORT: String(node.port),
      HOST: node.address,
      OSMAND_PORT: String(node.osmandPort),
      DATABASE_URL: options.databaseUrl,
      // The seed and the simulator run on one process only: on every process they would seed and drive twice.
      DEMO: options.demo && index === 0 ? 'true' : 'false',
      // Requests arrive from HAProxy on this machine: believe its X-Forwarded-For (login rate limit, audit).
      TRUST_PROXY: 'loopback',
      // Warnings and errors only unless asked: at info every request is a line, HAProxy's checks included.
      LOG_LEVEL: process.env.LOG_LEVEL || 'warn',
      ...options.env,
    };
    if (options.redisUrl) env.REDIS_URL = options.redisUrl;
    else delete env.REDIS_URL;
    // `node --import tsx` (not the tsx command, which runs a second process): the pid is the server's own.
    // CLUSTER_NODE_ARGS: extra node flags for each server process, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof` to profile.
    const nodeArgs = (process.env.CLUSTER_NODE_ARGS ?? '').split(' ').filter(Boolean);
    node.child = spawnChild(name, process.execPath, [...nodeArgs, '--import', 'tsx', '--import', './scripts/cluster-child.mjs', 'apps/server/src/server.ts'], env);
    node.pid = node.child.pid;
    nodes.push(node);
    return node;
  };

  const stop = async () => {
    if (stopping) return;
    stopping = true;
    const running = children.filter(({ child }) => child.exitCode === null && child.signalCode === null);
    await Promise.all(
      running.map(
        ({ child }) =>
          new Promise((resolve) => {
            const force = setTimeout(() => child.kill('SIGKILL'), 20_000);
            child.once('exit', () => {
              clearTimeout(force);
              resolve();
            });
            child.kill('SIGTERM');
          }),
      ),
    );
    if (tmpDir) rmSync(tmpDir, { recursive: true, force: true });
  };

  if (options.balancer !== false && spawnSync(HAPROXY, ['-v']).status !== 0) {
    throw new Error(`${HAPROXY} does not run: install HAProxy (apt-get install -y haproxy) or set HAPROXY to its path`);
  }
  try {
    const first = startNode(0);
    await waitReady(`http://127.0.0.1:${first.port}/readyz`, first.child, first.name, undefined, write);
    const rest = Array.from({ length: options.processes - 1 }, (_, k) => startNode(k + 1));
    await Promise.all(rest.map((node) => waitReady(`http://127.0.0.1:${node.port}/readyz`, node.child, node.name, undefined, write)));
    if (options.balancer !== false) {
      tmpDir = mkdtempSync(path.join(os.tmpdir(), 'prison-cluster-'));
      const configFile = path.join(tmpDir, 'haproxy.cfg');
      writeFileSync(configFile, haproxyConfig({ host, port, osmandPort, statsPort, nodes }));
      // setpriv (util-linux) has the kernel stop HAProxy if this command dies without stopping it (kill -9).
      const args = ['-f', configFile, '-db'];
      const child = existsSync(SETPRIV)
        ? spawnChild('haproxy', SETPRIV, ['--pdeathsig', 'SIGTERM', '--', HAPROXY, ...args], process.env)
        : spawnChild('haproxy', HAPROXY, args, process.env);
      haproxy = { pid: child.pid, child, configFile };
      await waitReady(`http://127.0.0.1:${port}/readyz`, child, 'haproxy', 15_000, write);
    }
  } catch (error) {
    await stop();
    throw error;
  }
  const shown = host === '0.0.0.0' || host === '::' ? 'localhost' : host;
  return {
    nodes: nodes.map(({ name, address, port: p, osmandPort: o, pid, child }) => ({ name, address, port: p, osmandPort: o, pid, child })),
    haproxy,
    url: haproxy ? `http://${shown}:${port}` : `http://127.0.0.1:${nodes[0].port}`,
    osmandUrl: haproxy ? `http://${shown}:${osmandPort}` : `http://127.0.0.1:${nodes[0].osmandPort}`,
    statsUrl: haproxy ? `http://127.0.0.1:${statsPort}/` : null,
    stop,
  };
}

async function main() {
  const { values } = parseArgs({
    options: {
      processes: { type: 'string', default: '2' },
      port: { type: 'string', default: '8080' },
      'osmand-port': { type: 'string', default: '5055' },
      host: { type: 'string', default: '0.0.0.0' },
      'stats-port': { type: 'string', default: '8404' },
      'node-port': { type: 'string', default: '3001' },
      'node-osmand-port': { type: 'string', default: '5101' },
      redis: { type: 'string' },
      'no-redis': { type: 'boolean', default: false },
      'no-balancer': { type: 'boolean', default: false },
      demo: { type: 'boolean', default: false },
    },
  });
  const processes = Number(values.processes);
  if (!Number.isInteger(processes) || processes < 1) throw new Error('--processes takes a whole number of at least 1');
  const databaseUrl = process.env.DATABASE_URL || DEFAULT_DATABASE_URL;
  const redisUrl = values['no-redis'] ? null : (values.redis ?? (process.env.REDIS_URL || DEFAULT_REDIS_URL));
  if (redisUrl && !(await answers(redisUrl))) {
    console.log(
      `[cluster] Redis at ${address(redisUrl)} does not answer: the processes start and serve their own browsers and devices ` +
        '(/readyz: redis down); they join one another when Redis answers',
    );
    void (async () => {
      while (!(await answers(redisUrl))) await sleep(2_000);
      console.log(`[cluster] Redis at ${address(redisUrl)} answers: the processes join one another`);
    })();
  }
  // PostgreSQL down: the processes start and wait for it, not ready (decision 056); the database is created when it answers.
  const databaseCreated = (created) => created && console.log(`[cluster] created the database ${new URL(databaseUrl).pathname.slice(1)}`);
  await ensureDatabase(databaseUrl).then(databaseCreated, (error) => {
    if (!['ECONNREFUSED', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND', 'EAI_AGAIN', '57P03'].includes(error.code)) throw error;
    console.log(
      `[cluster] PostgreSQL at ${address(databaseUrl)} does not answer (${error.code}): the processes start and wait for it, ` +
        'not ready (/readyz 503) until it answers',
    );
    void (async () => {
      for (;;) {
        await sleep(2_000);
        const created = await ensureDatabase(databaseUrl).catch(() => null);
        if (created === null) continue;
        console.log(`[cluster] PostgreSQL at ${address(databaseUrl)} answers`);
        databaseCreated(created);
        return;
      }
    })();
  });
  if (!existsSync(path.join(root, 'apps/web/dist/index.html'))) {
    console.log('[cluster] building the web app (apps/web/dist is missing)');
    const build = spawnSync('npm', ['run', 'build', '-w', '@prison/web'], { cwd: root, stdio: 'inherit' });
    if (build.status !== 0) throw new Error('the web app did not build');
  }
  console.log(
    `[cluster] starting ${processes} process${processes > 1 ? 'es' : ''} on ${new URL(databaseUrl).host}${new URL(databaseUrl).pathname}` +
      (redisUrl ? `, Redis ${address(redisUrl)}` : ', no Redis (cluster mode off: no fan-out between processes)'),
  );
  let cluster = null;
  let exiting = false;
  const alive = new Set();
  const shutdown = async (code) => {
    if (exiting) return;
    exiting = true;
    console.log('[cluster] stopping every process');
    await cluster?.stop();
    process.exit(code);
  };
  process.on('SIGINT', () => void shutdown(0));
  process.on('SIGTERM', () => void shutdown(0));
  // `npm run cluster` killed (npm does not pass SIGTERM on): stop too, instead of running on unseen.
  const parent = process.ppid;
  setInterval(() => {
    if (process.ppid !== parent) void shutdown(0);
  }, 1_000).unref();
  cluster = await startCluster({
    processes,
    host: values.host,
    port: Number(values.port),
    osmandPort: Number(values['osmand-port']),
    statsPort: Number(values['stats-port']),
    nodePort: Number(values['node-port']),
    nodeOsmandPort: Number(values['node-osmand-port']),
    databaseUrl,
    redisUrl,
    demo: values.demo,
    balancer: !values['no-balancer'],
    pretty: !!process.stdout.isTTY,
    onExit: (name) => {
      alive.delete(name);
      // During start-up startCluster itself stops the others and throws.
      if (!cluster) return;
      // Without the balancer nothing is served; with every server process gone, nothing is either.
      if (name === 'haproxy' || ![...alive].some((n) => n.startsWith('node-'))) void shutdown(1);
    },
  });
  for (const node of cluster.nodes) alive.add(node.name);
  if (cluster.haproxy) alive.add('haproxy');
  const line = '='.repeat(64);
  console.log(
    `\n${line}\n  Open ${cluster.url}\n  OsmAnd devices: ${cluster.osmandUrl}/?id=DEVICE&lat=..&lon=..\n` +
      (cluster.statsUrl ? `  HAProxy stats: ${cluster.statsUrl}\n` : '') +
      cluster.nodes.map((n) => `  ${n.name}: pid ${n.pid}, http://127.0.0.1:${n.port}, OsmAnd ${n.osmandPort}`).join('\n') +
      `\n  Ctrl-C stops everything.\n${line}\n`,
  );
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error) => {
    console.error(`[cluster] ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  });
}
