// `npm run admin -- create USERNAME PASSWORD [NAME]`, `npm run admin -- reset-password USERNAME PASSWORD`, or
// `npm run admin -- reset-totp USERNAME` (a lost phone: two-factor login off, recovery codes gone, sessions ended).
import { useServerAuditKey } from '../lib/audit-chain';
import { loadConfigOrExit } from '../config';
import { openDatabase } from '../db/client';
import { lockDataDirOrExit } from '../lib/data-dir-lock';
import { createAdmin, resetPassword, resetTotp } from '../modules/admin/admin-service';
import { recordAudit } from '../lib/audit';

const [command, username, password, ...nameParts] = process.argv.slice(2);
const usage =
  'Usage:\n  npm run admin -- create USERNAME PASSWORD [DISPLAY NAME]\n  npm run admin -- reset-password USERNAME NEW_PASSWORD\n' +
  '  npm run admin -- reset-totp USERNAME';

const withPassword = ['create', 'reset-password'];
if (!command || !username || !(withPassword.includes(command) ? password : command === 'reset-totp')) {
  console.error(usage);
  process.exit(2);
}

const config = loadConfigOrExit();
// Its audit entry extends the chain with the server's key (decision 104).
useServerAuditKey(config);
// The embedded database cannot be opened beside a running server (decision 057): stop it first. PostgreSQL can.
const dataDirLock = config.DATABASE_URL ? null : lockDataDirOrExit(config.DATA_DIR);
const database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
try {
  await database.migrate();
  const who = { adminId: null, actor: 'cli' };
  if (command === 'create') {
    // Typed on a command line (shell history, process list): the account replaces it at its first login.
    const admin = await createAdmin(database.db, {
      username,
      password: password!,
      name: nameParts.join(' ') || undefined,
      passwordChangeRequired: true,
    });
    await recordAudit(database.db, who, { action: 'create', entity: 'admin', entityId: admin.id, after: { username: admin.username, name: admin.name } });
    console.log(`Admin ${admin.username} created; they choose their own password at their first login.`);
  } else if (command === 'reset-totp') {
    const admin = await resetTotp(database.db, username);
    await recordAudit(database.db, who, { action: 'reset_totp', entity: 'admin', entityId: admin.id });
    console.log(`Two-factor login of ${username} removed; their sessions were ended. They can enrol again on /profile.`);
  } else {
    const admin = await resetPassword(database.db, username, password!);
    await recordAudit(database.db, who, { action: 'reset_password', entity: 'admin', entityId: admin.id });
    console.log(`Password of ${username} reset; their sessions were ended. They choose a new one at their next login.`);
  }
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
} finally {
  await database.close();
  dataDirLock?.release();
}
