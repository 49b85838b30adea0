// Managing the other admins: create, disable (their sessions end at once), enable, and lift a login lockout.
import { and, count, eq, gt, isNull, sql } from 'drizzle-orm';
import type { AdminAccount, AdminCreateRequest } from '@prison/shared';
import type { Db } from '../../db/client';
import { admins, loginThrottle, sessions } from '../../db/schema';
import { recordAudit, type AuditActor } from '../../lib/audit';
import { badRequest, notFound } from '../../lib/http-errors';
import { createAdmin } from '../admin/admin-service';
import { endingSessions } from '../../sessions/session-service';

export async function listAdmins(db: Db): Promise<AdminAccount[]> {
  const live = db
    .select({ adminId: sessions.adminId, n: count().as('n') })
    .from(sessions)
    .where(and(isNull(sessions.revokedAt), gt(sessions.expiresAt, sql`now()`)))
    .groupBy(sessions.adminId)
    .as('live');
  const rows = await db
    .select({
      id: admins.id,
      username: admins.username,
      name: admins.name,
      disabledAt: admins.disabledAt,
      createdAt: admins.createdAt,
      lockedUntil: loginThrottle.lockedUntil,
      sessions: live.n,
    })
    .from(admins)
    .leftJoin(loginThrottle, eq(loginThrottle.username, admins.username))
    .leftJoin(live, eq(live.adminId, admins.id))
    .orderBy(admins.username);
  return rows.map(toAccount);
}

function toAccount(row: {
  id: number;
  username: string;
  name: string;
  disabledAt: Date | null;
  createdAt: Date;
  lockedUntil: Date | null;
  sessions: number | null;
}): AdminAccount {
  const locked = row.lockedUntil && row.lockedUntil.getTime() > Date.now() ? row.lockedUntil.toISOString() : null;
  return {
    id: row.id,
    username: row.username,
    name: row.name,
    disabled: row.disabledAt !== null,
    locked_until: locked,
    active_sessions: Number(row.sessions ?? 0),
    created_at: row.createdAt.toISOString(),
  };
}

async function accountById(db: Db, id: number): Promise<AdminAccount> {
  const account = (await listAdmins(db)).find((a) => a.id === id);
  if (!account) throw notFound(`No admin with id ${id}`);
  return account;
}

export async function addAdmin(db: Db, input: AdminCreateRequest, who: AuditActor): Promise<AdminAccount> {
  const id = await db.transaction(async (tx) => {
    // Another administrator chose this password: the new account replaces it at its first login (decision 054).
    const created = await createAdmin(tx, { ...input, passwordChangeRequired: true });
    await recordAudit(tx, who, {
      action: 'admin.create',
      entity: 'admin',
      entityId: created.id,
      after: { username: created.username, name: created.name },
    });
    return created.id;
  });
  return accountById(db, id);
}

/** Disables an admin and ends every session; returns the ended session ids so their sockets are disconnected. */
export async function disableAdmin(
  db: Db,
  id: number,
  byAdminId: number,
  who: AuditActor,
): Promise<{ account: AdminAccount; endedSessions: string[] }> {
  if (id === byAdminId) throw badRequest('id: you cannot disable your own account');
  const endedSessions = await endingSessions(() =>
    db.transaction(async (tx) => {
      const [row] = await tx
        .select({ disabledAt: admins.disabledAt })
        .from(admins)
        .where(eq(admins.id, id))
        .for('update');
      if (!row) throw notFound(`No admin with id ${id}`);
      if (!row.disabledAt)
        await tx.update(admins).set({ disabledAt: new Date(), updatedAt: new Date() }).where(eq(admins.id, id));
      const ended = await tx
        .update(sessions)
        .set({ revokedAt: sql`now()`, endReason: 'disabled' })
        .where(and(eq(sessions.adminId, id), isNull(sessions.revokedAt)))
        .returning({ id: sessions.id });
      await recordAudit(tx, who, {
        action: 'admin.disable',
        entity: 'admin',
        entityId: id,
        before: { disabled: row.disabledAt !== null },
        after: { disabled: true, ended_sessions: ended.length },
      });
      return ended.map((s) => s.id);
    }),
  );
  return { account: await accountById(db, id), endedSessions };
}

export async function enableAdmin(db: Db, id: number, who: AuditActor): Promise<AdminAccount> {
  await db.transaction(async (tx) => {
    const [row] = await tx
      .select({ disabledAt: admins.disabledAt })
      .from(admins)
      .where(eq(admins.id, id))
      .for('update');
    if (!row) throw notFound(`No admin with id ${id}`);
    await tx.update(admins).set({ disabledAt: null, updatedAt: new Date() }).where(eq(admins.id, id));
    await recordAudit(tx, who, {
      action: 'admin.enable',
      entity: 'admin',
      entityId: id,
      before: { disabled: row.disabledAt !== null },
      after: { disabled: false },
    });
  });
  return accountById(db, id);
}

/** Clears the failed-login counter and lock of the admin's username. */
export async function unlockAdmin(db: Db, id: number, who: AuditActor): Promise<AdminAccount> {
  await db.transaction(async (tx) => {
    const [row] = await tx.select({ username: admins.username }).from(admins).where(eq(admins.id, id));
    if (!row) throw notFound(`No admin with id ${id}`);
    const [throttle] = await tx.delete(loginThrottle).where(eq(loginThrottle.username, row.username)).returning();
    await recordAudit(tx, who, {
      action: 'admin.unlock',
      entity: 'admin',
      entityId: id,
      before: { locked_until: throttle?.lockedUntil?.toISOString() ?? null, failures: throttle?.failures ?? 0 },
      after: { locked_until: null, failures: 0 },
    });
  });
  return accountById(db, id);
}
