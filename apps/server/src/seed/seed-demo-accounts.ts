// Demo mode: creates the demo accounts (demo-accounts.ts) that do not exist yet, with their roles and caseloads; the
// wing officers are linked to guard records, so their duress alarm names them (decision 100).
import { and, asc, eq, inArray, isNull, notExists } from 'drizzle-orm';
import type { Db, DbOrTx } from '../db/client';
import { admins, staff } from '../db/schema';
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
      const staffId = account.role === 'officer' ? await unlinkedGuard(tx) : null;
      await tx
        .update(admins)
        .set({ role: account.role, blocks: [...account.blocks], staffId })
        .where(eq(admins.id, row.id));
      created.push(account.username);
    }
    return created;
  });
}

/** The first guard record (by id) no account is linked to yet, or null (a demo without records). */
async function unlinkedGuard(tx: DbOrTx): Promise<number | null> {
  const linked = tx.select({ one: admins.id }).from(admins).where(eq(admins.staffId, staff.staffId));
  const [guard] = await tx
    .select({ id: staff.staffId })
    .from(staff)
    .where(and(eq(staff.role, 'Guard'), isNull(staff.archivedAt), notExists(linked)))
    .orderBy(asc(staff.staffId))
    .limit(1);
  return guard?.id ?? null;
}
