// Single sign-ons in progress (decision 052): stored at the start, taken once by the callback, gone after 10 minutes.
// In the database, not in memory, so the callback may reach another process of a cluster than the start did.
import { randomBytes } from 'node:crypto';
import { and, eq, gt, lt, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { oidcLoginAttempts } from '../../db/schema';
import { hashToken } from '../../sessions/session-service';
import type { OidcChecks } from './oidc-identity-provider';

/** How long a login at the provider may take, from the button to the return. */
export const OIDC_ATTEMPT_SECONDS = 600;

export interface OidcAttempt extends OidcChecks {
  redirectUri: string;
}

/** Stores a new attempt; returns the random key the browser keeps in its cookie (only its sha256 is stored). */
export async function saveAttempt(db: DbOrTx, attempt: OidcAttempt): Promise<string> {
  // Attempts never finished are swept here, on the path that adds them.
  await db.delete(oidcLoginAttempts).where(lt(oidcLoginAttempts.expiresAt, sql`now()`));
  const key = randomBytes(32).toString('base64url');
  await db.insert(oidcLoginAttempts).values({
    keyHash: hashToken(key),
    ...attempt,
    expiresAt: new Date(Date.now() + OIDC_ATTEMPT_SECONDS * 1000),
  });
  return key;
}

/** Takes (deletes and returns) the live attempt of this key: a second callback with the same key finds nothing. */
export async function takeAttempt(db: DbOrTx, key: string): Promise<OidcAttempt | null> {
  const [row] = await db
    .delete(oidcLoginAttempts)
    .where(and(eq(oidcLoginAttempts.keyHash, hashToken(key)), gt(oidcLoginAttempts.expiresAt, sql`now()`)))
    .returning();
  if (!row) return null;
  return { state: row.state, nonce: row.nonce, codeVerifier: row.codeVerifier, redirectUri: row.redirectUri };
}
