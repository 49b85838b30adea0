// Server-side sessions: the cookie holds a random token, the database its sha256, so logout revokes at once.
import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import { SESSION_TTL_SECONDS } from '@prison/shared';
import type { DbOrTx } from '../../db/client';
import { admins, sessions } from '../../db/schema';
import { ShortLivedCache } from '../../lib/short-lived-cache';

export interface AuthenticatedAdmin {
  id: number;
  username: string;
  name: string;
  sessionId: string;
  /** What the admin must do before anything else (read with the session, so a change shows within the cache's 2 s). */
  passwordChangeRequired: boolean;
  totpEnabled: boolean;
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export async function createSession(
  db: DbOrTx,
  adminId: number,
  meta: { ip?: string; userAgent?: string } = {},
): Promise<{ token: string; sessionId: string; expiresAt: Date }> {
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(Date.now() + SESSION_TTL_SECONDS * 1000);
  const [row] = await db
    .insert(sessions)
    .values({ tokenHash: hashToken(token), adminId, expiresAt, ip: meta.ip ?? null, userAgent: meta.userAgent ?? null })
    .returning({ id: sessions.id });
  return { token, sessionId: row!.id, expiresAt };
}

/**
 * Live sessions looked up in the last 2 s, by token hash: every authenticated request asks, and the answer rarely
 * changes. Every revocation in this process calls `sessionsChanged()` after its commit; another process's revocation
 * (the admin CLI, a second server) reaches this one within the 2 s. A session in use is re-read in the background
 * after 1 s, so its requests never queue behind their own lookup.
 */
const liveSessions = new ShortLivedCache<{ admin: AuthenticatedAdmin; expiresAt: number } | null>(2_000, {
  refreshAfterMs: 1_000,
});

export function sessionsChanged(): void {
  liveSessions.invalidate();
}

/** Runs a change that may end sessions, then drops the cached lookups (also when it failed midway). */
export async function endingSessions<T>(change: () => Promise<T>): Promise<T> {
  try {
    return await change();
  } finally {
    sessionsChanged();
  }
}

/** The admin behind a live token, or null when the token is unknown, expired, revoked or its admin disabled. */
export async function findSessionAdmin(db: DbOrTx, token: string): Promise<AuthenticatedAdmin | null> {
  const tokenHash = hashToken(token);
  const found = await liveSessions.get(tokenHash, () => lookUpSession(db, tokenHash), {
    keep: (session) => session !== null,
    expiresAt: (session) => session?.expiresAt ?? 0,
  });
  return found?.admin ?? null;
}

async function lookUpSession(
  db: DbOrTx,
  tokenHash: string,
): Promise<{ admin: AuthenticatedAdmin; expiresAt: number } | null> {
  const [row] = await db
    .select({
      id: admins.id,
      username: admins.username,
      name: admins.name,
      passwordChangeRequired: admins.passwordChangeRequired,
      totpEnabled: sql<boolean>`${admins.totpSecret} is not null`,
      sessionId: sessions.id,
      lastSeenAt: sessions.lastSeenAt,
      expiresAt: sessions.expiresAt,
    })
    .from(sessions)
    .innerJoin(admins, eq(admins.id, sessions.adminId))
    .where(
      and(
        eq(sessions.tokenHash, tokenHash),
        isNull(sessions.revokedAt),
        gt(sessions.expiresAt, sql`now()`),
        isNull(admins.disabledAt),
      ),
    )
    .limit(1);
  if (!row) return null;
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
    },
    expiresAt: row.expiresAt.getTime(),
  };
}

export async function revokeSession(db: DbOrTx, sessionId: string): Promise<void> {
  await endingSessions(() =>
    db
      .update(sessions)
      .set({ revokedAt: sql`now()` })
      .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt))),
  );
}

export async function revokeAllSessions(db: DbOrTx, adminId: number): Promise<void> {
  await endingSessions(() =>
    db
      .update(sessions)
      .set({ revokedAt: sql`now()` })
      .where(and(eq(sessions.adminId, adminId), isNull(sessions.revokedAt))),
  );
}
