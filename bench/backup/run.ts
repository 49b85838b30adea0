// Prints what a backup and a restore cost on each engine at a given number of stored fixes (issue 23 item 3,
// decision 058), with pg_dump/pg_restore on the same PostgreSQL database in the same run as the baseline. On PGlite
// the backup's duration is how long the server's other database work waits.
// Usage: npm run backup -w @prison/bench [-- FIXES]   (default 200,000; PostgreSQL at BENCH_POSTGRES_URL or 127.0.0.1:5432)
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { backupToFile } from '../../apps/server/src/backup/backup-to-file';
import { restoreBackup } from '../../apps/server/src/backup/restore-backup';
import { pgliteConnection, postgresConnection } from '../../apps/server/src/backup/sql-connection';
import { createPglite, fromPglite, fromPostgres } from '../../apps/server/src/db/client';

const fixes = Number(process.argv[2] ?? 200_000);
const adminUrl = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const dir = mkdtempSync(path.join(os.tmpdir(), 'prison-bench-backup-'));
const suffix = Date.now().toString(36);
const urlOf = (name: string) => Object.assign(new URL(adminUrl), { pathname: `/${name}` }).toString();
const seconds = (from: number) => ((performance.now() - from) / 1000).toFixed(2);
const mb = (file: string) => (statSync(file).size / 1_048_576).toFixed(1);

const fill = `
  insert into devices (id, name, secret_hash) values ('bench-tag', 'Bench tag', 'x');
  insert into positions (device_id, recorded_at, latitude, longitude, accuracy, speed, battery)
  select 'bench-tag', timestamptz '2026-01-01' + g * interval '1 second', 51.5 + g * 1e-7, -0.12, 5, 1.5, 80
  from generate_series(1, ${fixes}) g;`;

async function admin(sql: string) {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  await client.query(sql);
  await client.end();
}

console.log(`backup and restore at ${fixes} fixes; load ${os.loadavg().map((l) => l.toFixed(1)).join(' ')} on ${os.cpus().length} cores`);
try {
  // PostgreSQL: ours against pg_dump/pg_restore, same database, same run.
  const source = `bench_backup_src_${suffix}`;
  await admin(`create database ${source}`);
  const database = fromPostgres(urlOf(source), 1);
  await database.migrate();
  await database.close();
  const filler = new pg.Client({ connectionString: urlOf(source) });
  await filler.connect();
  await filler.query(fill);
  await filler.end();

  let started = performance.now();
  const connection = await postgresConnection(urlOf(source));
  const ours = path.join(dir, 'ours.gz');
  await backupToFile({ kind: 'connection', connection }, ours);
  await connection.close();
  console.log(`postgres backup  ours ${seconds(started)} s, ${mb(ours)} MB`);
  started = performance.now();
  const dump = path.join(dir, 'pg.dump');
  execFileSync('pg_dump', ['-Fc', '-f', dump, urlOf(source)]);
  console.log(`postgres backup  pg_dump -Fc ${seconds(started)} s, ${mb(dump)} MB (baseline)`);

  const ourTarget = `bench_backup_dst_${suffix}`;
  const theirTarget = `bench_backup_pgr_${suffix}`;
  await admin(`create database ${ourTarget}`);
  await admin(`create database ${theirTarget}`);
  started = performance.now();
  await restoreBackup({ file: ours, target: { kind: 'postgres', url: urlOf(ourTarget) } });
  console.log(`postgres restore ours ${seconds(started)} s (checksums of every table checked)`);
  started = performance.now();
  execFileSync('pg_restore', ['-d', urlOf(theirTarget), dump]);
  console.log(`postgres restore pg_restore ${seconds(started)} s (baseline)`);
  for (const name of [source, ourTarget, theirTarget]) await admin(`drop database ${name} with (force)`);

  // PGlite: the backup holds the embedded database for its duration.
  const client = await createPglite();
  await fromPglite(client).migrate();
  await client.exec(fill);
  started = performance.now();
  const embedded = path.join(dir, 'pglite.gz');
  await backupToFile({ kind: 'connection', connection: pgliteConnection(client) }, embedded);
  console.log(`pglite backup    ours ${seconds(started)} s, ${mb(embedded)} MB (the server's database work waits this long)`);
  started = performance.now();
  const tar = await client.dumpDataDir('gzip');
  writeFileSync(path.join(dir, 'pglite.tar.gz'), Buffer.from(await tar.arrayBuffer()));
  console.log(`pglite backup    dumpDataDir ${seconds(started)} s (baseline, PGlite-only format)`);
  await client.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
