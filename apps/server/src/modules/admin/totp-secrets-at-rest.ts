// At start: two-factor secrets stored before sealing existed are sealed now, and the sealed ones are proven to open
// with this process's key, so a wrong SECRET_KEY or a lost key file stops the start instead of every 2FA login.
import { eq, isNotNull, or } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { admins } from '../../db/schema';
import { isSealed, type SecretBox } from '../../lib/secret-box';

type SecretColumn = 'totpSecret' | 'totpPendingSecret';

/** Seals every plain secret, checks every sealed one opens; answers how many were sealed. Throws on a wrong key. */
export async function sealStoredTotpSecrets(db: Db, secrets: SecretBox): Promise<number> {
  const rows = await db
    .select({ id: admins.id, totpSecret: admins.totpSecret, totpPendingSecret: admins.totpPendingSecret })
    .from(admins)
    .where(or(isNotNull(admins.totpSecret), isNotNull(admins.totpPendingSecret)));
  let sealed = 0;
  for (const row of rows) {
    for (const column of ['totpSecret', 'totpPendingSecret'] as SecretColumn[]) {
      const stored = row[column];
      if (stored === null) continue;
      if (isSealed(stored)) {
        try {
          secrets.open(stored);
        } catch {
          throw new Error(
            'The stored two-factor secrets do not open with this key: start with the SECRET_KEY (or the key file ' +
              'beside DATA_DIR) they were sealed with (docs/decisions/054-accounts-hardening.md)',
          );
        }
        continue;
      }
      // Only if unchanged meanwhile: a login racing the start keeps its value and is sealed at the next start.
      const done = await db
        .update(admins)
        .set({ [column]: secrets.seal(stored) })
        .where(eq(admins[column], stored))
        .returning({ id: admins.id });
      sealed += done.length;
    }
  }
  return sealed;
}

/** Every sealed two-factor secret stored, for the start to prove its key opens them before it writes anything. */
export async function sealedTotpSecrets(db: Db): Promise<string[]> {
  const rows = await db
    .select({ totpSecret: admins.totpSecret, totpPendingSecret: admins.totpPendingSecret })
    .from(admins)
    .where(or(isNotNull(admins.totpSecret), isNotNull(admins.totpPendingSecret)));
  return rows.flatMap((row) => [row.totpSecret, row.totpPendingSecret]).filter((stored): stored is string => stored !== null && isSealed(stored));
}
