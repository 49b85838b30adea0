// The bench's own PostgreSQL cluster (never the machine's main one): created with pg_createcluster on a port of its
// own and kept between runs, so `--reuse` measures the week it already holds.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';

const run = (command: string, args: string[]) => execFileSync(command, args, { stdio: 'pipe', timeout: 120_000 }).toString();

function newestVersion(): string {
  const versions = readdirSync('/usr/lib/postgresql').filter((v) => existsSync(`/usr/lib/postgresql/${v}/bin/postgres`));
  const version = versions.sort((a, b) => Number(b) - Number(a))[0];
  if (!version) throw new Error('no PostgreSQL server installed (apt-get install postgresql)');
  return version;
}

/** Starts the cluster `name` on `port`, creating it first when absent; answers its postgres database's URL. */
export function ensureCluster(name: string, port: number): { url: string; created: boolean; drop: () => void } {
  const version = newestVersion();
  const line = run('pg_lsclusters', ['--no-header']).split('\n').find((l) => l.trim().split(/\s+/)[1] === name);
  const created = !line;
  if (created) {
    run('pg_createcluster', [version, name, '-p', String(port), '-o', 'shared_buffers=1GB', '-o', 'max_wal_size=8GB', '--', '--auth=trust']);
  }
  if (!line?.includes('online')) run('pg_ctlcluster', [version, name, 'start']);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    created,
    drop: () => void run('pg_dropcluster', ['--stop', version, name]),
  };
}
