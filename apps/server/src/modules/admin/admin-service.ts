// Admin accounts: creation, password reset, and the first admin at start.
import { randomBytes } from 'node:crypto';
import { count, eq, sql } from 'drizzle-orm';
import { FIRST_ADMIN_LOCK_KEY, type DbOrTx } from '../../db/client';
import { adminRecoveryCodes, admins, loginThrottle } from '../../db/schema';
import { badRequest, conflict, notFound } from '../../lib/http-errors';
import { checkNewPassword, hashPassword, newPasswordProblem } from './password';
import { revokeAllSessions } from '../../sessions/session-service';

/**
 * Creates an account. `passwordChangeRequired`: the password was chosen by someone else (generated, or set by another
 * administrator), so the account must choose its own at its first login (decision 054).
 */
export async function createAdmin(
  db: DbOrTx,
  input: { username: string; name?: string; password: string; passwordChangeRequired?: boolean },
) {
  const username = input.username.trim();
  if (!username) throw badRequest('username: is required');
  checkNewPassword(input.password, username);
  const [existing] = await db.select({ id: admins.id }).from(admins).where(eq(admins.username, username));
  if (existing) throw conflict(`username: ${username} already exists`);
  const [row] = await db
    .insert(admins)
    .values({
      username,
      name: input.name?.trim() || username,
      passwordHash: await hashPassword(input.password),
      passwordChangeRequired: input.passwordChangeRequired ?? false,
    })
    .returning({ id: admins.id, username: admins.username, name: admins.name });
  return row!;
}

/** A password set for the account by someone else: it works for one login, which must change it (decision 054). */
export async function resetPassword(db: DbOrTx, username: string, password: string) {
  checkNewPassword(password, username);
  const [row] = await db
    .update(admins)
    .set({ passwordHash: await hashPassword(password), passwordChangeRequired: true, updatedAt: new Date() })
    .where(eq(admins.username, username))
    .returning({ id: admins.id });
  if (!row) throw notFound(`No admin named ${username}`);
  // A reset also ends the lockout and every open session of that admin.
  await db.delete(loginThrottle).where(eq(loginThrottle.username, username));
  await revokeAllSessions(db, row.id, 'password_changed');
  return row;
}

/** For a lost phone: removes the admin's two-factor login and recovery codes, and ends their sessions. */
export async function resetTotp(db: DbOrTx, username: string) {
  const [row] = await db
    .update(admins)
    .set({ totpSecret: null, totpPendingSecret: null, totpLastStep: null, updatedAt: new Date() })
    .where(eq(admins.username, username))
    .returning({ id: admins.id });
  if (!row) throw notFound(`No admin named ${username}`);
  await db.delete(adminRecoveryCodes).where(eq(adminRecoveryCodes.adminId, row.id));
  await revokeAllSessions(db, row.id, 'two_factor_reset');
  return row;
}

export function generatePassword(): string {
  return randomBytes(15).toString('base64url');
}

/**
 * When no admin exists, create one from ADMIN_USERNAME/ADMIN_PASSWORD, or `admin` with a generated password.
 * Returns the generated password so the caller can print it once; null when nothing was generated.
 */
export async function ensureFirstAdmin(
  db: DbOrTx,
  env: { username?: string; password?: string },
): Promise<{ created: boolean; username?: string; generatedPassword?: string }> {
  // Processes of a cluster starting together: one looks and creates at a time.
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${FIRST_ADMIN_LOCK_KEY})`);
    const [{ n } = { n: 0 }] = await tx.select({ n: count() }).from(admins);
    if (n > 0) return { created: false };
    const username = env.username?.trim() || 'admin';
    // A weak ADMIN_PASSWORD stops the start with the reason, rather than leaving a guessable first account.
    const problem = env.password ? newPasswordProblem(env.password, username) : null;
    if (problem) throw new Error(`ADMIN_PASSWORD ${problem} (the password rule: docs/decisions/013-login-totp-passwords.md)`);
    const generatedPassword = env.password ? undefined : generatePassword();
    // A generated password was seen in a log: the account replaces it at its first login. ADMIN_PASSWORD was chosen
    // by the operator and is kept.
    await createAdmin(tx, {
      username,
      name: username === 'admin' ? 'Administrator' : username,
      password: env.password ?? generatedPassword!,
      passwordChangeRequired: !env.password,
    });
    return { created: true, username, generatedPassword };
  });
}
