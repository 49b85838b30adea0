// Demo mode: creates the demo accounts (demo-accounts.ts) that do not exist yet, with their roles and caseloads.
import { eq, inArray } from 'drizzle-orm';
import type { Db } from '../db/client';
import { admins } from '../db/schema';
import { createAdmin } from '../modules/admin/admin-service';
import { DEMO_ACCOUNTS } from './demo-accounts';

/**
 * Creates the demo accounts that do not exist yet, with their roles and caseloads. Their passwords are the published
 * demo ones, so they are not asked to change them (decision 054). Answers the usernames created.
 */
export async function seedDemoAccounts(db: Db): Promise<string[]> {
  return db.transaction(async (tx) => {
    const existing = new Set(
      (
        await tx
          .select({ username: admins.username })
          .from(admins)
          .where(
            inArray(
              admins.username,
              DEMO_ACCOUNTS.map((a) => a.username),
            ),
          )
      ).map((row) => row.username),
    );
    const created: string[] = [];
    for (const account of DEMO_ACCOUNTS) {
      if (existing.has(account.username)) continue;
      const row = await createAdmin(tx, account);
      await tx
        .update(admins)
        .set({ role: account.role, blocks: [...account.blocks] })
        .where(eq(admins.id, row.id));
      created.push(account.username);
    }
    return created;
  });
}
