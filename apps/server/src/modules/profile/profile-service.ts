// The signed-in admin's own account: profile, password change and sessions.
import { and, desc, eq, gt, isNull, ne, sql } from 'drizzle-orm';
import { criticalSoundByDefault, type CriticalSoundSetting, type PasswordChangeRequest, type Profile, type SessionInfo } from '@prison/shared';
import type { Db } from '../../db/client';
import { admins, sessions } from '../../db/schema';
import type { AuditActor } from '../../lib/audit';
import { recordAudit } from '../../lib/audit';
import { badRequest, notFound } from '../../lib/http-errors';
import { checkNewPassword, hashPassword, verifyPassword } from '../admin/password';
import { endingSessions, type AuthenticatedAdmin } from '../../sessions/session-service';

export async function getProfile(db: Db, adminId: number): Promise<Profile> {
  const [row] = await db.select().from(admins).where(eq(admins.id, adminId));
  if (!row) throw notFound(`No admin with id ${adminId}`);
  return { admin_id: row.id, username: row.username, name: row.name, created_at: row.createdAt.toISOString() };
}

const liveSessions = (adminId: number) =>
  and(eq(sessions.adminId, adminId), isNull(sessions.revokedAt), gt(sessions.expiresAt, sql`now()`));

/**
 * Changes the password when the current one is right. Every other session of this admin ends (a stolen session
 * must not outlive the change); the one that asked stays. Returns the ended session ids, to disconnect their sockets.
 */
export async function changePassword(
  db: Db,
  admin: AuthenticatedAdmin,
  input: PasswordChangeRequest,
  who: AuditActor,
): Promise<string[]> {
  const [row] = await db.select({ passwordHash: admins.passwordHash }).from(admins).where(eq(admins.id, admin.id));
  if (!row || !(await verifyPassword(row.passwordHash, input.current_password))) {
    throw badRequest('current_password: is not correct');
  }
  if (input.new_password === input.current_password)
    throw badRequest('new_password: must differ from the current password');
  checkNewPassword(input.new_password, admin.username, 'new_password');
  const passwordHash = await hashPassword(input.new_password);
  return endingSessions(() =>
    db.transaction(async (tx) => {
      await tx
        .update(admins)
        .set({ passwordHash, passwordChangeRequired: false, updatedAt: new Date() })
        .where(eq(admins.id, admin.id));
      const ended = await tx
        .update(sessions)
        .set({ revokedAt: sql`now()`, endReason: 'password_changed' })
        .where(and(liveSessions(admin.id), ne(sessions.id, admin.sessionId)))
        .returning({ id: sessions.id });
      const endedIds = ended.map((s) => s.id);
      // Never the hash: only that the password changed and which sessions ended.
      await recordAudit(tx, who, {
        action: 'admin.password_change',
        entity: 'admin',
        entityId: admin.id,
        after: { ended_sessions: endedIds.length },
      });
      return endedIds;
    }),
  );
}

export async function listSessions(db: Db, admin: AuthenticatedAdmin): Promise<SessionInfo[]> {
  const rows = await db
    .select()
    .from(sessions)
    .where(liveSessions(admin.id))
    .orderBy(desc(sessions.lastSeenAt), desc(sessions.createdAt));
  return rows.map((row) => ({
    id: row.id,
    created_at: row.createdAt.toISOString(),
    last_seen_at: row.lastSeenAt.toISOString(),
    expires_at: row.expiresAt.toISOString(),
    ip: row.ip,
    user_agent: row.userAgent,
    current: row.id === admin.sessionId,
  }));
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Revokes one of the admin's own live sessions; another admin's session is as unknown as a missing one. */
export async function revokeOwnSession(
  db: Db,
  admin: AuthenticatedAdmin,
  sessionId: string,
  who: AuditActor,
): Promise<void> {
  if (!UUID.test(sessionId)) throw notFound(`No active session with id ${sessionId}`);
  await endingSessions(() =>
    db.transaction(async (tx) => {
      const [row] = await tx
        .update(sessions)
        .set({ revokedAt: sql`now()`, endReason: 'revoked' })
        .where(and(liveSessions(admin.id), eq(sessions.id, sessionId)))
        .returning({ id: sessions.id, ip: sessions.ip, userAgent: sessions.userAgent });
      if (!row) throw notFound(`No active session with id ${sessionId}`);
      await recordAudit(tx, who, {
        action: 'session.revoke',
        entity: 'session',
        entityId: sessionId,
        before: { ip: row.ip, user_agent: row.userAgent },
      });
    }),
  );
}

/** The account's Critical sound: its own choice, or its role's default (decision 105). */
export async function getCriticalSound(db: Db, adminId: number): Promise<CriticalSoundSetting> {
  const [row] = await db.select({ on: admins.criticalSound, role: admins.role }).from(admins).where(eq(admins.id, adminId));
  if (!row) throw notFound('Account not found');
  const defaultOn = criticalSoundByDefault(row.role);
  return { on: row.on ?? defaultOn, default_on: defaultOn };
}

/** Each account sets its own Critical sound; audited like any change of an account. */
export async function setCriticalSound(db: Db, adminId: number, on: boolean, who: AuditActor): Promise<CriticalSoundSetting> {
  await db.transaction(async (tx) => {
    const [before] = await tx.select({ on: admins.criticalSound }).from(admins).where(eq(admins.id, adminId)).for('update');
    if (!before) throw notFound('Account not found');
    await tx.update(admins).set({ criticalSound: on }).where(eq(admins.id, adminId));
    await recordAudit(tx, who, { action: 'critical_sound', entity: 'admin', entityId: adminId, before: { critical_sound: before.on }, after: { critical_sound: on } });
  });
  return getCriticalSound(db, adminId);
}
