// Login with a per-username lockout: 5 failures within 15 minutes lock the name for 15 minutes.
// Every attempt first reserves its try under a row lock, before any password is checked, so a parallel burst gets no
// more tries than a sequential one; and every refusal costs one argon2 verify, so disabled, unknown and existing
// accounts take the same time to refuse.
import { eq, sql } from 'drizzle-orm';
import {
  INVALID_LOGIN_MESSAGE,
  INVALID_TOTP_MESSAGE,
  LOCKED_LOGIN_MESSAGE,
  LOGIN_LOCK_MINUTES,
  LOGIN_MAX_FAILURES,
  LOGIN_WINDOW_MINUTES,
  TOTP_REQUIRED_MESSAGE,
  type Role,
} from '@prison/shared';
import type { Db } from '../../db/client';
import { admins, loginThrottle } from '../../db/schema';
import { recordAudit, type AuditActor } from '../../lib/audit';
import type { SecretBox } from '../../lib/secret-box';
import { HttpError, tooManyRequests } from '../../lib/http-errors';
import { dummyPasswordHash, newPasswordProblem, verifyPassword } from './password';
import { createSession } from '../../sessions/session-service';
import { acceptSecondFactor } from './totp-service';

interface LoginInput {
  username: string;
  password: string;
  totp?: string;
  ip?: string;
  userAgent?: string;
}

export type LoginResult =
  | { kind: 'totpRequired'; message: string }
  | {
      kind: 'loggedIn';
      token: string;
      sessionId: string;
      expiresAt: Date;
      admin: { id: number; username: string; name: string; role: Role; blocks: string[] };
      passwordChangeRequired: boolean;
      totpEnabled: boolean;
    };

/**
 * Counts this attempt as a failure before its password is checked (a success clears the count), all under a lock
 * of the username's throttle row. Returns the attempt's number in the window, or null when the name is locked or
 * the window's tries are all taken by attempts still being checked.
 */
async function reserveAttempt(db: Db, username: string): Promise<number | null> {
  return db.transaction(async (tx) => {
    await tx.insert(loginThrottle).values({ username }).onConflictDoNothing();
    const [row] = await tx.select().from(loginThrottle).where(eq(loginThrottle.username, username)).for('update');
    const now = Date.now();
    if (!row || (row.lockedUntil && row.lockedUntil.getTime() > now)) return null;
    // A failure outside the window starts a new window.
    const windowOver = row.windowStartedAt.getTime() < now - LOGIN_WINDOW_MINUTES * 60_000;
    const attempt = windowOver ? 1 : row.failures + 1;
    if (attempt > LOGIN_MAX_FAILURES) return null;
    await tx
      .update(loginThrottle)
      .set({ failures: attempt, windowStartedAt: windowOver ? new Date(now) : row.windowStartedAt })
      .where(eq(loginThrottle.username, username));
    return attempt;
  });
}

/** The reserved try failed: the last one of the window locks the name. Returns true when it did. */
async function settleFailure(db: Db, username: string, attempt: number): Promise<boolean> {
  if (attempt < LOGIN_MAX_FAILURES) return false;
  await db
    .update(loginThrottle)
    .set({ lockedUntil: new Date(Date.now() + LOGIN_LOCK_MINUTES * 60_000), failures: 0, windowStartedAt: new Date() })
    .where(eq(loginThrottle.username, username));
  return true;
}

/** A right password still waiting for its code is not a failure: give the reserved try back. */
async function releaseAttempt(db: Db, username: string): Promise<void> {
  await db
    .update(loginThrottle)
    .set({ failures: sql`greatest(${loginThrottle.failures} - 1, 0)` })
    .where(eq(loginThrottle.username, username));
}

/** A session for an account that has just proved who it is (password or single sign-on), with its `login` audit entry. */
export async function openLoginSession(
  db: Db,
  account: { id: number; username: string },
  client: Pick<LoginInput, 'ip' | 'userAgent'>,
  after: Record<string, unknown> | undefined,
  oidcIdToken?: string,
) {
  const session = await createSession(db, account.id, { ip: client.ip, userAgent: client.userAgent, oidcIdToken });
  await recordAudit(
    db,
    { adminId: account.id, actor: account.username, ip: client.ip },
    { action: 'login', entity: 'session', entityId: session.sessionId, after },
  );
  return session;
}

/** Told of each refused login (the metrics' counters): why, and whether this failure locked the name. */
export type LoginRefusalObserver = (reason: 'password' | 'totp' | 'locked', lockedNow: boolean) => void;

export async function login(db: Db, input: LoginInput, secrets: SecretBox, refused: LoginRefusalObserver = () => undefined): Promise<LoginResult> {
  const username = input.username.trim();
  const who: AuditActor = { adminId: null, actor: username, ip: input.ip };
  const attempt = await reserveAttempt(db, username);
  if (attempt === null) {
    await recordAudit(db, who, { action: 'login.refused_locked', entity: 'admin', entityId: username });
    refused('locked', false);
    throw tooManyRequests(LOCKED_LOGIN_MESSAGE);
  }
  const refuse = async (action: string, message: string): Promise<never> => {
    const locked = await settleFailure(db, username, attempt);
    refused(action === 'login.totp_failed' ? 'totp' : 'password', locked);
    await recordAudit(db, who, { action: locked ? 'login.locked' : action, entity: 'admin', entityId: username });
    if (locked) throw tooManyRequests(LOCKED_LOGIN_MESSAGE);
    throw new HttpError(401, message);
  };

  const [admin] = await db.select().from(admins).where(eq(admins.username, username));
  // Exactly one argon2 verify whoever asks: a dummy hash for an unknown name, the real one for a disabled account.
  const passwordOk = await verifyPassword(admin?.passwordHash ?? (await dummyPasswordHash()), input.password);
  if (!admin || admin.disabledAt || !passwordOk) return refuse('login.failed', INVALID_LOGIN_MESSAGE);

  if (admin.totpSecret) {
    if (!input.totp) {
      await releaseAttempt(db, username);
      return { kind: 'totpRequired', message: TOTP_REQUIRED_MESSAGE };
    }
    if (!(await acceptSecondFactor(db, secrets, admin, input.totp))) return refuse('login.totp_failed', INVALID_TOTP_MESSAGE);
  }

  // An existing password that no longer meets the rule still logs in, and must be changed before anything else; so
  // must a password someone else chose (generated at first start, set by another administrator; decision 054).
  const passwordChangeRequired =
    admin.passwordChangeRequired || newPasswordProblem(input.password, admin.username) !== null;
  await db.transaction(async (tx) => {
    await tx.delete(loginThrottle).where(eq(loginThrottle.username, username));
    if (passwordChangeRequired !== admin.passwordChangeRequired)
      await tx.update(admins).set({ passwordChangeRequired }).where(eq(admins.id, admin.id));
  });
  const session = await openLoginSession(db, admin, input, admin.totpSecret ? { second_factor: true } : undefined);
  return {
    kind: 'loggedIn',
    ...session,
    admin: { id: admin.id, username: admin.username, name: admin.name, role: admin.role, blocks: admin.blocks },
    passwordChangeRequired,
    totpEnabled: !!admin.totpSecret,
  };
}
