// `npm run audit:verify` as a process (decision 104): on a data directory whose trail the server's key chained, it
// exits 0 saying intact; after an entry is edited in the database it exits 1 naming that entry.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/client';
import { recordAudit } from '../src/lib/audit';
import { useAuditChainKey } from '../src/lib/audit-chain';
import { keyFromSecretKey } from '../src/lib/secret-key';
import { killStartedServers, startServerProcess } from './server-process';

const scratch = mkdtempSync(path.join(tmpdir(), 'prison-audit-verify-'));
afterAll(() => {
  killStartedServers();
  rmSync(scratch, { recursive: true, force: true });
});

const SECRET_KEY = 'an audit verification passphrase of some length';
const env = { DATA_DIR: path.join(scratch, 'data'), SECRET_KEY };
const verify = () => startServerProcess(env, { script: ['apps/server/src/cli/audit-verify.ts'] });

async function withDatabase(work: (db: Awaited<ReturnType<typeof openDatabase>>['db']) => Promise<void>) {
  const database = await openDatabase({ dataDir: env.DATA_DIR });
  try {
    await database.migrate();
    await work(database.db);
  } finally {
    await database.close();
  }
}

describe('npm run audit:verify', () => {
  it('says intact on a fresh trail, and names the entry edited in the database', async () => {
    useAuditChainKey(keyFromSecretKey(SECRET_KEY));
    await withDatabase(async (db) => {
      for (const id of [1, 2, 3]) await recordAudit(db, { adminId: null, actor: 'cli-test' }, { action: 'note.create', entity: 'note', entityId: id });
    });
    const intact = verify();
    expect(await intact.exited, intact.output()).toBe(0);
    expect(intact.output()).toContain('The audit chain is intact: 3 entries');

    await withDatabase(async (db) => {
      await db.execute(sql`update audit_log set actor = 'someone else' where seq = 2`);
    });
    const broken = verify();
    expect(await broken.exited, broken.output()).toBe(1);
    expect(broken.output()).toMatch(/The audit chain is BROKEN: 1 problem; the first: entry #2 \(id \d+, note\.create note at .*\) was changed or replaced/);
  }, 180_000);
});
