// Login with a per-username lockout: 5 failures within 15 minutes lock the name for 15 minutes.
import { eq, sql } from 'drizzle-orm';
import {
  INVALID_LOGIN_MESSAGE,
  LOCKED_LOGIN_MESSAGE,
  LOGIN_LOCK_MINUTES,
  LOGIN_MAX_FAILURES,
  LOGIN_WINDOW_MINUTES,
} from '@prison/shared';
import type { Db } from '../../db/client';
import { admins, loginThrottle } from '../../db/schema';
import { recordAudit } from '../../lib/audit';
import { HttpError, tooManyRequests } from '../../lib/http-errors';
import { dummyPasswordHash, verifyPassword } from './password';
import { createSession } from './session-service';

interface LoginInput {
  username: string;
  password: string;
  ip?: string;
  userAgent?: string;
}

async function isLocked(db: Db, username: string): Promise<boolean> {
  const [row] = await db.select().from(loginThrottle).where(eq(loginThrottle.username, username));
  return !!row?.lockedUntil && row.lockedUntil.getTime() > Date.now();
}

/** Counts one failure; returns true when this failure locked the name. */
async function recordFailure(db: Db, username: string): Promise<boolean> {
  const windowMs = LOGIN_WINDOW_MINUTES * 60_000;
  const [row] = await db
    .insert(loginThrottle)
    .values({ username, failures: 1, windowStartedAt: new Date() })
    .onConflictDoUpdate({
      target: loginThrottle.username,
      // A failure outside the window starts a new window.
      set: {
        failures: sql`case when ${loginThrottle.windowStartedAt} < now() - ${`${windowMs} milliseconds`}::interval then 1 else ${loginThrottle.failures} + 1 end`,
        windowStartedAt: sql`case when ${loginThrottle.windowStartedAt} < now() - ${`${windowMs} milliseconds`}::interval then now() else ${loginThrottle.windowStartedAt} end`,
      },
    })
    .returning({ failures: loginThrottle.failures });
  if ((row?.failures ?? 0) < LOGIN_MAX_FAILURES) return false;
  await db
    .update(loginThrottle)
    .set({ lockedUntil: new Date(Date.now() + LOGIN_LOCK_MINUTES * 60_000), failures: 0, windowStartedAt: new Date() })
    .where(eq(loginThrottle.username, username));
  return true;
}

export async function login(db: Db, input: LoginInput) {
  const username = input.username.trim();
  const who = { adminId: null, actor: username, ip: input.ip };
  if (await isLocked(db, username)) {
    await recordAudit(db, who, { action: 'login.refused_locked', entity: 'admin', entityId: username });
    throw tooManyRequests(LOCKED_LOGIN_MESSAGE);
  }
  const [admin] = await db.select().from(admins).where(eq(admins.username, username));
  const ok = admin
    ? !admin.disabledAt && (await verifyPassword(admin.passwordHash, input.password))
    : (await verifyPassword(await dummyPasswordHash(), input.password)) && false;
  if (!admin || !ok) {
    const locked = await recordFailure(db, username);
    await recordAudit(db, who, { action: locked ? 'login.locked' : 'login.failed', entity: 'admin', entityId: username });
    if (locked) throw tooManyRequests(LOCKED_LOGIN_MESSAGE);
    throw new HttpError(401, INVALID_LOGIN_MESSAGE);
  }
  await db.delete(loginThrottle).where(eq(loginThrottle.username, username));
  const session = await createSession(db, admin.id, { ip: input.ip, userAgent: input.userAgent });
  await recordAudit(db, { adminId: admin.id, actor: admin.username, ip: input.ip }, {
    action: 'login',
    entity: 'session',
    entityId: session.sessionId,
  });
  return { ...session, admin: { id: admin.id, username: admin.username, name: admin.name } };
}
