// Accounts with a caseload for the tests: blocks and role are set in the database directly, since
// the admins API that sets them is another change; the session cache is told at once.
import { eq } from 'drizzle-orm';
import { API_PREFIX, AUTH_COOKIE, type Role } from '@prison/shared';
import { admins } from '../src/db/schema';
import { createTestAccount } from './test-accounts';
import { sessionsChanged } from '../src/sessions/session-service';
import type { TestContext } from './test-app';

let accounts = 0;

/** A new account with these blocks (empty: every block) and role, logged in: its cookie header. */
export async function loginWithCaseload(
  ctx: Pick<TestContext, 'app' | 'database'>,
  blocks: string[],
  role: Role = 'officer',
): Promise<string> {
  const username = `caseload-${++accounts}-${Date.now().toString(36)}`;
  const password = 'caseload correct horse battery';
  const { id } = await createTestAccount(ctx.database.db, { username, password });
  await ctx.database.db.update(admins).set({ blocks, role }).where(eq(admins.id, id));
  sessionsChanged();
  const login = await ctx.app.inject({
    method: 'POST',
    url: `${API_PREFIX}/admin/login`,
    payload: { username, password },
  });
  if (login.statusCode !== 200) throw new Error(`login failed: ${login.body}`);
  return `${AUTH_COOKIE}=${login.json<{ token: string }>().token}`;
}
