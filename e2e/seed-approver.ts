// Runs before the end-to-end server starts (playwright.config.ts): the run's first administrator (ADMIN_USERNAME, as
// the server would make it) and a second one, E2E_APPROVER_USERNAME, made on the server's side as an operator makes
// one with `npm run admin -- create`. An administrator made through the API by the first waits for a second one and
// could never approve the first's changes (the two-person rule, decision 091): the specs' second person is this one.
import { loadConfigOrExit } from '../apps/server/src/config';
import { openDatabase } from '../apps/server/src/db/client';
import { createAdmin, ensureFirstAdmin } from '../apps/server/src/modules/admin/admin-service';

const username = process.env.E2E_APPROVER_USERNAME;
const password = process.env.E2E_APPROVER_PASSWORD;
if (!username || !password) throw new Error('E2E_APPROVER_USERNAME and E2E_APPROVER_PASSWORD are needed');

const config = loadConfigOrExit();
const database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
try {
  await database.migrate();
  await ensureFirstAdmin(database.db, { username: config.ADMIN_USERNAME, password: config.ADMIN_PASSWORD });
  await createAdmin(database.db, { username, name: 'E2E Approver', password });
} finally {
  await database.close();
}
