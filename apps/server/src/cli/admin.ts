// `npm run admin -- create USERNAME PASSWORD [NAME]` or `npm run admin -- reset-password USERNAME PASSWORD`.
import { loadConfig } from '../config';
import { openDatabase } from '../db/client';
import { createAdmin, resetPassword } from '../modules/admin/admin-service';
import { recordAudit } from '../lib/audit';

const [command, username, password, ...nameParts] = process.argv.slice(2);
const usage = 'Usage:\n  npm run admin -- create USERNAME PASSWORD [DISPLAY NAME]\n  npm run admin -- reset-password USERNAME NEW_PASSWORD';

if (!command || !username || !password || !['create', 'reset-password'].includes(command)) {
  console.error(usage);
  process.exit(2);
}

const config = loadConfig();
const database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
try {
  await database.migrate();
  const who = { adminId: null, actor: 'cli' };
  if (command === 'create') {
    const admin = await createAdmin(database.db, { username, password, name: nameParts.join(' ') || undefined });
    await recordAudit(database.db, who, { action: 'create', entity: 'admin', entityId: admin.id, after: { username: admin.username, name: admin.name } });
    console.log(`Admin ${admin.username} created.`);
  } else {
    const admin = await resetPassword(database.db, username, password);
    await recordAudit(database.db, who, { action: 'reset_password', entity: 'admin', entityId: admin.id });
    console.log(`Password of ${username} reset; their sessions were ended.`);
  }
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
} finally {
  await database.close();
}
