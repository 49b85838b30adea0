// Server-side sessions: the cookie holds a random token, the database its sha256, so logout revokes at once.
import { createHash, randomBytes } from 'node:crypto';
import { and, eq, inArray, isNull, lt, sql } from 'drizzle-orm';
import { SESSION_END_REASONS, SESSION_TTL_SECONDS, type Role, type SessionEndReason } from '@prison/shared';
import type { DbOrTx } from '../db/client';
import { admins, sessions } from '../db/schema';
import { announceCacheChange } from '../lib/cache-announcer';
import { ShortLivedCache } from '../lib/short-lived-cache';

export interface AuthenticatedAdmin {
  id: number;
  username: string;
  name: string;
  sessionId: string;
  /** What the admin must do before anything else (read with the session, so a change shows within the cache's 2 s). */
  passwordChangeRequired: boolean;
  totpEnabled: boolean;
  /** What the account may do, and its caseload (empty: every block); read with the session, so a change shows within 2 s. */
  role: Role;
  blocks: string[];
  /** An account of single sign-on (decision 052): its second factor is the identity provider's, not REQUIRE_TOTP's. */
  sso: boolean;
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export async function createSession(
  db: DbOrTx,
  adminId: number,
  meta: { ip?: string; userAgent?: string; oidcIdToken?: string } = {},
): Promise<{ token: string; sessionId: string; expiresAt: Date }> {
  const token = randomBytes(32).toString('base64url');
  const now = Date.now();
  const expiresAt = new Date(now + SESSION_TTL_SECONDS * 1000);
  const [row] = await db
    .insert(sessions)
    .values({
      tokenHash: hashToken(token),
      adminId,
      expiresAt,
      // Logging in is activity; idle time is measured with this process's clock, so it is written from it.
      lastActiveAt: new Date(now),
      ip: meta.ip ?? null,
      userAgent: meta.userAgent ?? null,
      oidcIdToken: meta.oidcIdToken ?? null,
    })
    .returning({ id: sessions.id });
  return { token, sessionId: row!.id, expiresAt };
}

/** A session's state as the lookup and the socket sweep read it. */
interface SessionRow {
  expiresAt: Date;
  lastActiveAt: Date;
  revokedAt: Date | null;
  endReason: string | null;
  adminDisabledAt: Date | null;
}

/** Idle counts from the last user activity (decision 012); 0 minutes turns the idle timeout off. */
const idleTooLong = (lastActiveAt: number, idleMinutes: number, now: number) =>
  idleMinutes > 0 && now - lastActiveAt > idleMinutes * 60_000;

/** Why the session is over, or null while it lives. */
export function sessionEndReason(row: SessionRow, idleMinutes: number, now = Date.now()): SessionEndReason | null {
  if (row.revokedAt) return isEndReason(row.endReason) ? row.endReason : 'revoked';
  if (row.adminDisabledAt) return 'disabled';
  if (row.expiresAt.getTime() <= now) return 'expired';
  if (idleTooLong(row.lastActiveAt.getTime(), idleMinutes, now)) return 'idle';
  return null;
}

const isEndReason = (reason: string | null): reason is SessionEndReason =>
  (SESSION_END_REASONS as readonly (string | null)[]).includes(reason);

/**
 * Last activity is written at most this often per session (every request of a busy tab would otherwise write), and
 * at least four times per idle period so a short SESSION_IDLE_MINUTES stays accurate.
 */
export const activityWriteIntervalMs = (idleMinutes: number) =>
  idleMinutes > 0 ? Math.min(15_000, (idleMinutes * 60_000) / 4) : 60_000;

interface LiveSession {
  admin: AuthenticatedAdmin;
  expiresAt: number;
  /** Last activity as stored or just written (ms since the epoch): a request counts it before the next reload. */
  lastActiveAt: number;
}

/**
 * Live sessions looked up in the last 2 s, by token hash: every authenticated request asks, and the answer rarely
 * changes. Every revocation in this process calls `sessionsChanged()` after its commit; another process's revocation
 * (the admin CLI, a second server) reaches this one within the 2 s. A session in use is re-read in the background
 * after 1 s, so its requests never queue behind their own lookup. Idle time is judged on every request from the
 * entry's last activity, never from the age of the entry.
 */
const liveSessions = new ShortLivedCache<LiveSession | { ended: SessionEndReason } | null>(2_000, {
  refreshAfterMs: 1_000,
});

/** Drops this process's cached session lookups (also when another process announced a session change). */
export function invalidateSessionCache(): void {
  liveSessions.invalidate();
}

/** After a session change's commit: this process's cache and, in a cluster, the other processes' (decision 036). */
export function sessionsChanged(): void {
  invalidateSessionCache();
  announceCacheChange('sessions');
}

/** Runs a change that may end sessions, then drops the cached lookups (also when it failed midway). */
export async function endingSessions<T>(change: () => Promise<T>): Promise<T> {
  try {
    return await change();
  } finally {
    sessionsChanged();
  }
}

export type SessionCheck = { admin: AuthenticatedAdmin; ended: null } | { admin: null; ended: SessionEndReason | null };

export interface SessionCheckOptions {
  /** SESSION_IDLE_MINUTES (0: no idle timeout). */
  idleMinutes: number;
  /** Whether this use of the session is the user's activity (decision 012): it then restarts the idle period. */
  activity: boolean;
}

/**
 * The admin behind a live token, or why there is none: `ended` names the reason when the token was a session that
 * has ended (the browser says why), null for a token that never was one. A session found idle is revoked for good.
 */
export async function checkSession(db: DbOrTx, token: string, options: SessionCheckOptions): Promise<SessionCheck> {
  const tokenHash = hashToken(token);
  const found = await liveSessions.get(tokenHash, () => lookUpSession(db, tokenHash, options.idleMinutes), {
    keep: (session) => session !== null && 'admin' in session,
    expiresAt: (session) => (session && 'admin' in session ? session.expiresAt : 0),
  });
  if (!found) return { admin: null, ended: null };
  if (!('admin' in found)) return { admin: null, ended: found.ended };
  const now = Date.now();
  if (found.expiresAt <= now) return { admin: null, ended: 'expired' };
  if (idleTooLong(found.lastActiveAt, options.idleMinutes, now)) {
    if ((await endIdleSessions(db, [found.admin.sessionId], options.idleMinutes)).length > 0) {
      return { admin: null, ended: 'idle' };
    }
    // The database saw activity the cached entry missed (a reload raced a write): read it again next time.
    sessionsChanged();
  }
  if (options.activity && now - found.lastActiveAt > activityWriteIntervalMs(options.idleMinutes)) {
    // Set first, so the requests arriving while this write runs do not write too.
    found.lastActiveAt = now;
    await db
      .update(sessions)
      .set({ lastActiveAt: new Date(now) })
      .where(and(eq(sessions.id, found.admin.sessionId), isNull(sessions.revokedAt)));
  }
  return { admin: found.admin, ended: null };
}

/** The admin behind a live token, or null when the token is unknown or its session ended (the socket handshake). */
export async function findSessionAdmin(db: DbOrTx, token: string, idleMinutes: number): Promise<AuthenticatedAdmin | null> {
  return (await checkSession(db, token, { idleMinutes, activity: false })).admin;
}

async function lookUpSession(
  db: DbOrTx,
  tokenHash: string,
  idleMinutes: number,
): Promise<LiveSession | { ended: SessionEndReason } | null> {
  const [row] = await db
    .select({
      id: admins.id,
      username: admins.username,
      name: admins.name,
      passwordChangeRequired: admins.passwordChangeRequired,
      totpEnabled: sql<boolean>`${admins.totpSecret} is not null`,
      role: admins.role,
      blocks: admins.blocks,
      sso: sql<boolean>`${admins.oidcSubject} is not null`,
      sessionId: sessions.id,
      lastSeenAt: sessions.lastSeenAt,
      ...sessionStateColumns,
    })
    .from(sessions)
    .innerJoin(admins, eq(admins.id, sessions.adminId))
    .where(eq(sessions.tokenHash, tokenHash))
    .limit(1);
  if (!row) return null;
  const ended = sessionEndReason(row, idleMinutes);
  if (ended === 'idle' && !row.revokedAt) await endIdleSessions(db, [row.sessionId], idleMinutes);
  if (ended) return { ended };
  // Touch last_seen at most once a minute: the sessions list shows it, the hot path should not write every time.
  if (Date.now() - row.lastSeenAt.getTime() > 60_000) {
    await db
      .update(sessions)
      .set({ lastSeenAt: sql`now()` })
      .where(eq(sessions.id, row.sessionId));
  }
  return {
    admin: {
      id: row.id,
      username: row.username,
      name: row.name,
      sessionId: row.sessionId,
      passwordChangeRequired: row.passwordChangeRequired,
      totpEnabled: row.totpEnabled,
      role: row.role,
      blocks: row.blocks,
      sso: row.sso,
    },
    expiresAt: row.expiresAt.getTime(),
    lastActiveAt: row.lastActiveAt.getTime(),
  };
}

const sessionStateColumns = {
  expiresAt: sessions.expiresAt,
  lastActiveAt: sessions.lastActiveAt,
  revokedAt: sessions.revokedAt,
  endReason: sessions.endReason,
  adminDisabledAt: admins.disabledAt,
};

/**
 * The sessions among `sessionIds` that have ended, with the reason, in one query (the socket sweep asks for every
 * connected browser at once). A session that no longer exists counts as revoked; idle ones are revoked for good.
 */
export async function findEndedSessions(
  db: DbOrTx,
  sessionIds: string[],
  idleMinutes: number,
): Promise<Map<string, SessionEndReason>> {
  const ended = new Map<string, SessionEndReason>();
  if (sessionIds.length === 0) return ended;
  const rows = await db
    .select({ id: sessions.id, ...sessionStateColumns })
    .from(sessions)
    .innerJoin(admins, eq(admins.id, sessions.adminId))
    .where(inArray(sessions.id, sessionIds));
  const now = Date.now();
  for (const id of sessionIds) ended.set(id, 'revoked');
  const idle: string[] = [];
  for (const row of rows) {
    const reason = sessionEndReason(row, idleMinutes, now);
    if (reason) ended.set(row.id, reason);
    else ended.delete(row.id);
    if (reason === 'idle' && !row.revokedAt) idle.push(row.id);
  }
  if (idle.length > 0) {
    const revoked = new Set(await endIdleSessions(db, idle, idleMinutes));
    // One that was active in the meantime lives on.
    for (const id of idle) if (!revoked.has(id)) ended.delete(id);
  }
  return ended;
}

/**
 * The role and caseload of each session's account now, in one query: the socket sweep keeps the browsers' sockets in
 * step with a role or caseload changed since they connected (decision 050).
 */
export async function findSessionAccess(
  db: DbOrTx,
  sessionIds: string[],
): Promise<Map<string, Pick<AuthenticatedAdmin, 'role' | 'blocks'>>> {
  const access = new Map<string, Pick<AuthenticatedAdmin, 'role' | 'blocks'>>();
  if (sessionIds.length === 0) return access;
  const rows = await db
    .select({ id: sessions.id, role: admins.role, blocks: admins.blocks })
    .from(sessions)
    .innerJoin(admins, eq(admins.id, sessions.adminId))
    .where(inArray(sessions.id, sessionIds));
  for (const row of rows) access.set(row.id, { role: row.role, blocks: row.blocks });
  return access;
}

/**
 * Revokes the sessions that the database, too, finds idle (activity written meanwhile by another request or server
 * wins), so later activity cannot revive them and the sessions list drops them. Returns the ids it revoked.
 */
async function endIdleSessions(db: DbOrTx, sessionIds: string[], idleMinutes: number): Promise<string[]> {
  const idleSince = new Date(Date.now() - idleMinutes * 60_000);
  const revoked = await endingSessions(() =>
    db
      .update(sessions)
      .set({ revokedAt: sql`now()`, endReason: 'idle' })
      .where(and(inArray(sessions.id, sessionIds), isNull(sessions.revokedAt), lt(sessions.lastActiveAt, idleSince)))
      .returning({ id: sessions.id }),
  );
  return revoked.map((row) => row.id);
}

export async function revokeSession(db: DbOrTx, sessionId: string, reason: SessionEndReason): Promise<void> {
  await endingSessions(() =>
    db
      .update(sessions)
      .set({ revokedAt: sql`now()`, endReason: reason })
      .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt))),
  );
}

export async function revokeAllSessions(db: DbOrTx, adminId: number, reason: SessionEndReason): Promise<void> {
  await endingSessions(() =>
    db
      .update(sessions)
      .set({ revokedAt: sql`now()`, endReason: reason })
      .where(and(eq(sessions.adminId, adminId), isNull(sessions.revokedAt))),
  );
}

/** The ID token a single sign-on session was opened with, or null (a password login). */
export async function sessionIdToken(db: DbOrTx, sessionId: string): Promise<string | null> {
  const [row] = await db.select({ idToken: sessions.oidcIdToken }).from(sessions).where(eq(sessions.id, sessionId));
  return row?.idToken ?? null;
}
