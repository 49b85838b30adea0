// `npm run backup -- FILE [--force]`: a consistent backup of the database the server uses (DATA_DIR or DATABASE_URL),
// taken while the server runs: on PostgreSQL from one snapshot, on PGlite through the running server's backup socket
// (or the directory itself when no server runs). Sealed with the backup key (BACKUP_KEY, else SECRET_KEY, else the key
// file beside DATA_DIR), and written to the audit trail. Before it starts it says how long it will take, from the row
// counts and a rate measured on this machine (decision 113). Decisions 058 and 094; docs/DEPLOYMENT.md "Backup and restore".
import { useServerAuditKey } from '../lib/audit-chain';
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { describeEstimate, estimateBackup } from '../backup/backup-estimate';
import { requestEstimate, serverAnswers } from '../backup/backup-socket';
import { backupToFile } from '../backup/backup-to-file';
import { describeTarget, pgliteDirOf, pgliteDirProblem } from '../backup/restore-target';
import { pgliteConnection, postgresConnection } from '../backup/sql-connection';
import type { BackupProgress } from '../backup/write-backup';
import { loadConfig } from '../config';
import { createPglite } from '../db/client';
import { lockDataDirOrExit } from '../lib/data-dir-lock';
import { loadBackupKey } from '../lib/secret-key';

const args = process.argv.slice(2);
const force = args.includes('--force');
const files = args.filter((a) => a !== '--force');
if (files.length !== 1 || files[0]!.startsWith('-')) {
  console.error('Usage: npm run backup -- FILE [--force]   (--force overwrites FILE)');
  process.exit(2);
}
const file = path.resolve(files[0]!);
if (existsSync(file) && !force) {
  console.error(`${file} already exists: choose another name, or add --force to overwrite it`);
  process.exit(2);
}

const config = loadConfig();
// Its audit entry extends the chain with the server's key (decision 104).
useServerAuditKey(config);
let backupKey: ReturnType<typeof loadBackupKey>;
try {
  backupKey = loadBackupKey(config);
} catch (error) {
  console.error(`Backup refused: ${(error as Error).message}`);
  process.exit(2);
}
const started = Date.now();
const progress: BackupProgress = { table: (name, rows) => console.log(`  ${name}: ${rows} rows`) };
const options = { key: backupKey.key, who: { adminId: null, actor: 'cli' }, progress };

async function run() {
  if (config.DATABASE_URL) {
    const connection = await postgresConnection(config.DATABASE_URL);
    try {
      console.log(describeEstimate(await estimateBackup(connection)));
      console.log(`Backing up ${describeTarget({ kind: 'postgres', url: config.DATABASE_URL })} (PostgreSQL, one snapshot) to ${file}...`);
      return await backupToFile({ kind: 'connection', connection }, file, options);
    } finally {
      await connection.close();
    }
  }
  if (await serverAnswers(config.DATA_DIR)) {
    const estimate = await requestEstimate(config.DATA_DIR);
    if (estimate) console.log(describeEstimate(estimate));
    console.log(`Backing up ${describeTarget({ kind: 'pglite', dataDir: config.DATA_DIR })} through the running server to ${file}...`);
    console.log('  (the server holds its other database work until the copy is made)');
    return backupToFile({ kind: 'server', dataDir: config.DATA_DIR }, file, options);
  }
  if (!pgliteDirProblem(config.DATA_DIR)) throw new Error(`there is no database in ${pgliteDirOf(config.DATA_DIR)} (DATA_DIR) to back up`);
  console.log(`No server is running on ${config.DATA_DIR}: backing up ${describeTarget({ kind: 'pglite', dataDir: config.DATA_DIR })} directly to ${file}...`);
  // No server may open the directory while this process reads it (decision 057).
  const dataDirLock = lockDataDirOrExit(config.DATA_DIR);
  const client = await createPglite({ dataDir: pgliteDirOf(config.DATA_DIR) });
  try {
    const connection = pgliteConnection(client);
    console.log(describeEstimate(await estimateBackup(connection)));
    return await backupToFile({ kind: 'connection', connection }, file, options);
  } finally {
    await client.close();
    dataDirLock.release();
  }
}

try {
  const summary = await run();
  if (!summary) throw new Error('the server stopped answering on its backup socket');
  const megabytes = (statSync(file).size / 1_048_576).toFixed(1);
  console.log(`Backup written: ${file} (${summary.tables} tables, ${summary.rows} rows, ${megabytes} MB, ${((Date.now() - started) / 1000).toFixed(1)} s).`);
  console.log(`Sealed with ${backupKey.source === 'key file' ? `the key file ${backupKey.file}` : backupKey.source}: keep that key, apart from the backups. Without it this backup cannot be restored.`);
} catch (error) {
  console.error(`Backup failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}
