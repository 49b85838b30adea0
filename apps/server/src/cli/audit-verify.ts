// `npm run audit:verify`: checks the audit trail's whole hash chain, from its anchor to its head, with the server's key
// (SECRET_KEY, else the key file beside DATA_DIR), and names the first entry that was changed, removed or inserted
// (decision 104). Exit 0: intact; 1: broken; 2: it could not check (no key, no database).
import { loadConfigOrExit } from '../config';
import { openDatabase } from '../db/client';
import { describeChainReport, drizzleRunner, useServerAuditKey, verifyAuditChain } from '../lib/audit-chain';
import { lockDataDirOrExit } from '../lib/data-dir-lock';

const config = loadConfigOrExit();
let hasKey = false;
try {
  hasKey = useServerAuditKey(config);
} catch (error) {
  console.error(`audit:verify cannot check: ${(error as Error).message}`);
  process.exit(2);
}
if (!hasKey) {
  console.error('audit:verify cannot check: no SECRET_KEY is set and there is no key file beside DATA_DIR (the chain is keyed by the server\'s key)');
  process.exit(2);
}
// The embedded database cannot be opened beside a running server (decision 057): stop it first. PostgreSQL can.
const dataDirLock = config.DATABASE_URL ? null : lockDataDirOrExit(config.DATA_DIR);
let code = 2;
try {
  const database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
  try {
    const report = await verifyAuditChain(drizzleRunner(database.db));
    for (const line of describeChainReport(report)) (report.intact ? console.log : console.error)(line);
    code = report.intact ? 0 : 1;
  } finally {
    await database.close();
  }
} catch (error) {
  console.error(`audit:verify cannot check: ${(error as Error).message}`);
} finally {
  dataDirLock?.release();
}
process.exit(code);
