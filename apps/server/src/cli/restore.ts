// `npm run restore -- FILE [--force]`: restores a backup into the database the server would use (DATA_DIR or
// DATABASE_URL), which must be empty unless --force (decision 058; README "Backup and restore").
import { existsSync } from 'node:fs';
import path from 'node:path';
import { serverAnswers } from '../backup/backup-socket';
import { RestoreRefused, restoreBackup } from '../backup/restore-backup';
import type { RestoreTargetSpec } from '../backup/restore-target';
import { loadConfig } from '../config';
import { lockDataDirOrExit } from '../lib/data-dir-lock';

const args = process.argv.slice(2);
const force = args.includes('--force');
const files = args.filter((a) => a !== '--force');
if (files.length !== 1 || files[0]!.startsWith('-')) {
  console.error('Usage: npm run restore -- FILE [--force]   (--force replaces a database that is not empty)');
  process.exit(2);
}
const file = path.resolve(files[0]!);
if (!existsSync(file)) {
  console.error(`${file} does not exist`);
  process.exit(2);
}

const config = loadConfig();
const target: RestoreTargetSpec = config.DATABASE_URL ? { kind: 'postgres', url: config.DATABASE_URL } : { kind: 'pglite', dataDir: config.DATA_DIR };
const started = Date.now();
// The embedded database: no server may open the directory while it is restored (decision 057).
const dataDirLock = target.kind === 'pglite' ? lockDataDirOrExit(config.DATA_DIR) : null;
try {
  await restoreBackup({ file, target, force, serverRunning: () => serverAnswers(config.DATA_DIR), say: (message) => console.log(message) });
  console.log(`Done in ${((Date.now() - started) / 1000).toFixed(1)} s. Start the server with the same SECRET_KEY (or key file) as the backed-up one.`);
} catch (error) {
  console.error(`Restore ${error instanceof RestoreRefused ? 'refused' : 'failed'}: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = error instanceof RestoreRefused ? 2 : 1;
} finally {
  dataDirLock?.release();
}
