// A PostgreSQL cluster of a test's own (never the machine's main one), for tests that stop and start their database:
// created with pg_createcluster (trust auth) on a free port of the range they are given, started and stopped with
// pg_ctlcluster, dropped at the end. Needs postgresql-common, a server package and root (as on CI).
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import pg from 'pg';

/** The newest installed PostgreSQL with its server binaries, e.g. "15". */
function installedVersion(): string | null {
  const dir = '/usr/lib/postgresql';
  if (!existsSync(dir)) return null;
  const versions = readdirSync(dir).filter((v) => existsSync(`${dir}/${v}/bin/postgres`));
  return versions.sort((a, b) => Number(b) - Number(a))[0] ?? null;
}

function commandExists(command: string): boolean {
  try {
    execFileSync('sh', ['-c', `command -v ${command}`], { stdio: 'pipe' });
    return true;
  } catch {
    return false;
  }
}

export const postgresVersion = installedVersion();
/** Whether an own cluster can be made here; otherwise why not. */
export const ownClusterUnavailable: string | null =
  postgresVersion !== null && commandExists('pg_createcluster') && process.getuid?.() === 0
    ? null
    : 'needs pg_createcluster (postgresql-common), a PostgreSQL server package and root';

const run = (command: string, args: string[]) => execFileSync(command, args, { stdio: 'pipe', timeout: 60_000 }).toString();

/** A port of the list that no cluster claims and nothing listens on. */
async function freePort(ports: number[]): Promise<number> {
  const claimed = new Set(
    run('pg_lsclusters', ['--no-header'])
      .split('\n')
      .map((line) => Number(line.trim().split(/\s+/)[2])),
  );
  for (const port of ports) {
    if (claimed.has(port)) continue;
    const client = new pg.Client({ host: '127.0.0.1', port, user: 'postgres', connectionTimeoutMillis: 500 });
    const listening = await client.connect().then(
      () => true,
      (error: NodeJS.ErrnoException) => error.code !== 'ECONNREFUSED',
    );
    await client.end().catch(() => undefined);
    if (!listening) return port;
  }
  throw new Error(`no free port in ${ports[0]}-${ports.at(-1)} for a PostgreSQL cluster of the test's own`);
}

export interface OwnPostgresCluster {
  port: number;
  /** A URL of a database created in it (the user postgres, trust auth). */
  url: string;
  /** Its data directory (Debian's place for it), owned by the user postgres. */
  dataDir: string;
  start(): void;
  stop(): void;
  drop(): void;
}

/** Creates and starts a cluster named `prefix_<random>` holding an empty database `database`. */
export async function createOwnPostgresCluster(prefix: string, ports: number[], database: string): Promise<OwnPostgresCluster> {
  const version = postgresVersion!;
  const name = `${prefix}_${randomBytes(4).toString('hex')}`;
  const port = await freePort(ports);
  run('pg_createcluster', [version, name, '-p', String(port), '--start', '--', '--auth=trust']);
  let dropped = false;
  const drop = () => {
    if (dropped) return;
    dropped = true;
    run('pg_dropcluster', ['--stop', version, name]);
  };
  try {
    const admin = new pg.Client({ host: '127.0.0.1', port, user: 'postgres', database: 'postgres' });
    await admin.connect();
    await admin.query(`create database ${database}`);
    await admin.end();
  } catch (error) {
    drop();
    throw error;
  }
  return {
    port,
    url: `postgres://postgres@127.0.0.1:${port}/${database}`,
    dataDir: `/var/lib/postgresql/${version}/${name}`,
    start: () => void run('pg_ctlcluster', [version, name, 'start']),
    stop: () => void run('pg_ctlcluster', [version, name, 'stop', '-m', 'fast']),
    drop,
  };
}
