// Admin accounts: creation, password reset, and the first admin at start.
import { randomBytes } from 'node:crypto';
import { count, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { admins, loginThrottle } from '../../db/schema';
import { badRequest, conflict, notFound } from '../../lib/http-errors';
import { hashPassword, MIN_PASSWORD_LENGTH } from './password';
import { revokeAllSessions } from './session-service';

function checkPassword(password: string) {
  if (password.length < MIN_PASSWORD_LENGTH) throw badRequest(`password: must be at least ${MIN_PASSWORD_LENGTH} characters`);
}

export async function createAdmin(db: DbOrTx, input: { username: string; name?: string; password: string }) {
  const username = input.username.trim();
  if (!username) throw badRequest('username: is required');
  checkPassword(input.password);
  const [existing] = await db.select({ id: admins.id }).from(admins).where(eq(admins.username, username));
  if (existing) throw conflict(`username: ${username} already exists`);
  const [row] = await db
    .insert(admins)
    .values({ username, name: input.name?.trim() || username, passwordHash: await hashPassword(input.password) })
    .returning({ id: admins.id, username: admins.username, name: admins.name });
  return row!;
}

export async function resetPassword(db: DbOrTx, username: string, password: string) {
  checkPassword(password);
  const [row] = await db
    .update(admins)
    .set({ passwordHash: await hashPassword(password), updatedAt: new Date() })
    .where(eq(admins.username, username))
    .returning({ id: admins.id });
  if (!row) throw notFound(`No admin named ${username}`);
  // A reset also ends the lockout and every open session of that admin.
  await db.delete(loginThrottle).where(eq(loginThrottle.username, username));
  await revokeAllSessions(db, row.id, 'password_changed');
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
  const [{ n } = { n: 0 }] = await db.select({ n: count() }).from(admins);
  if (n > 0) return { created: false };
  const username = env.username?.trim() || 'admin';
  const generatedPassword = env.password ? undefined : generatePassword();
  await createAdmin(db, { username, name: username === 'admin' ? 'Administrator' : username, password: env.password ?? generatedPassword! });
  return { created: true, username, generatedPassword };
}
