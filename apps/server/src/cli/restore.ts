// `npm run restore -- FILE [--force] [--allow-unsealed]`: restores a backup into the database the server would use
// (DATA_DIR or DATABASE_URL), which must be empty unless --force (decision 058). The file must be sealed with the
// backup key; --allow-unsealed takes a file of the older, unsealed format (decision 094; docs/DEPLOYMENT.md "Backup and restore").
import { useServerAuditKey } from '../lib/audit-chain';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { serverAnswers } from '../backup/backup-socket';
import { RestoreRefused, restoreBackup } from '../backup/restore-backup';
import type { RestoreTargetSpec } from '../backup/restore-target';
import { loadConfig } from '../config';
import { lockDataDirOrExit } from '../lib/data-dir-lock';
import { loadBackupKey } from '../lib/secret-key';

const args = process.argv.slice(2);
const force = args.includes('--force');
const allowUnsealed = args.includes('--allow-unsealed');
const files = args.filter((a) => a !== '--force' && a !== '--allow-unsealed');
if (files.length !== 1 || files[0]!.startsWith('-')) {
  console.error(
    'Usage: npm run restore -- FILE [--force] [--allow-unsealed]   (--force replaces a database that is not empty; ' +
      '--allow-unsealed takes a backup written before backups were sealed)',
  );
  process.exit(2);
}
const file = path.resolve(files[0]!);
if (!existsSync(file)) {
  console.error(`${file} does not exist`);
  process.exit(2);
}

const config = loadConfig();
// Its audit entry extends the chain with the server's key (decision 104).
useServerAuditKey(config);
let key: Buffer;
try {
  key = loadBackupKey(config).key;
} catch (error) {
  console.error(`Restore refused: ${(error as Error).message}`);
  process.exit(2);
}
const target: RestoreTargetSpec = config.DATABASE_URL ? { kind: 'postgres', url: config.DATABASE_URL } : { kind: 'pglite', dataDir: config.DATA_DIR };
const started = Date.now();
// The embedded database: no server may open the directory while it is restored (decision 057).
const dataDirLock = target.kind === 'pglite' ? lockDataDirOrExit(config.DATA_DIR) : null;
try {
  await restoreBackup({ file, target, key, allowUnsealed, force, serverRunning: () => serverAnswers(config.DATA_DIR), say: (message) => console.log(message) });
  console.log(`Done in ${((Date.now() - started) / 1000).toFixed(1)} s. Start the server with the same SECRET_KEY (or key file) as the backed-up one.`);
} catch (error) {
  console.error(`Restore ${error instanceof RestoreRefused ? 'refused' : 'failed'}: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = error instanceof RestoreRefused ? 2 : 1;
} finally {
  dataDirLock?.release();
}
