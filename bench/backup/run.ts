// Prints what a backup and a restore cost on each engine at a given number of stored fixes (
// decision 058), with pg_dump/pg_restore on the same PostgreSQL database in the same run as the baseline. On PGlite
// the backup's duration is how long the server's other database work waits. The seal's own cost (decision 094) is the
// time to open and prove the sealed file alone, against reading its bytes.
// Usage: npm run backup -w @prison/bench [-- FIXES]   (default 200,000; PostgreSQL at BENCH_POSTGRES_URL or 127.0.0.1:5432)
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createReadStream, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { openStream } from '../../apps/server/src/backup/backup-seal';
import { backupToFile } from '../../apps/server/src/backup/backup-to-file';
import { checkBackupFile } from '../../apps/server/src/backup/read-backup';
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
const key = randomBytes(32);
const options = { key, who: { adminId: null, actor: 'bench' } };
const sink = () => new Writable({ write: (_chunk, _encoding, done) => done() });

/** What the seal costs: the sealed file's bytes opened and proven, against the same bytes only read. */
async function sealCost(file: string) {
  let started = performance.now();
  await pipeline(createReadStream(file), sink());
  const read = performance.now() - started;
  started = performance.now();
  await pipeline(createReadStream(file), openStream(key), sink());
  const opened = performance.now() - started;
  started = performance.now();
  await checkBackupFile(file, { key });
  const checked = performance.now() - started;
  const size = statSync(file).size / 1_048_576;
  console.log(
    `seal             ${size.toFixed(1)} MB read in ${read.toFixed(0)} ms, read, opened and proven in ${opened.toFixed(0)} ms; ` +
      `the restore's check before writing (that, gunzip and every checksum) ${checked.toFixed(0)} ms`,
  );
}

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
  const ours = path.join(dir, 'ours.backup');
  await backupToFile({ kind: 'connection', connection }, ours, options);
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
  await restoreBackup({ file: ours, target: { kind: 'postgres', url: urlOf(ourTarget) }, key });
  console.log(`postgres restore ours ${seconds(started)} s (the file checked whole first, then loaded; checksums of every table checked)`);
  await sealCost(ours);
  started = performance.now();
  execFileSync('pg_restore', ['-d', urlOf(theirTarget), dump]);
  console.log(`postgres restore pg_restore ${seconds(started)} s (baseline)`);
  for (const name of [source, ourTarget, theirTarget]) await admin(`drop database ${name} with (force)`);

  // PGlite: the backup holds the embedded database for its duration.
  const client = await createPglite();
  await fromPglite(client).migrate();
  await client.exec(fill);
  started = performance.now();
  const embedded = path.join(dir, 'pglite.backup');
  await backupToFile({ kind: 'connection', connection: pgliteConnection(client) }, embedded, options);
  console.log(`pglite backup    ours ${seconds(started)} s, ${mb(embedded)} MB (the server's database work waits this long)`);
  started = performance.now();
  const tar = await client.dumpDataDir('gzip');
  writeFileSync(path.join(dir, 'pglite.tar.gz'), Buffer.from(await tar.arrayBuffer()));
  console.log(`pglite backup    dumpDataDir ${seconds(started)} s (baseline, PGlite-only format)`);
  await client.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
