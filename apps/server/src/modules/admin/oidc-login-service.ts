// Login through single sign-on (decision 052): the start stores the checks and sends the browser to the provider;
// the return proves who it is, maps the claims to a role and a caseload (every login, overwriting the account's),
// creates the account on its first login, and opens a session as the password login does, audited alike.
import { randomBytes } from 'node:crypto';
import { and, eq, inArray } from 'drizzle-orm';
import type { Role, SsoRefusal } from '@prison/shared';
import type { Db } from '../../db/client';
import { admins, cells } from '../../db/schema';
import { recordAudit, type AuditActor } from '../../lib/audit';
import { openLoginSession } from './login-service';
import { anotherActiveAdministrator } from '../profile/admins-service';
import { accessFromClaims, displayName, usernameCandidates, type Claims } from './oidc-claims';
import { OidcIdentityProvider, providerFailure, type OidcIdentity } from './oidc-identity-provider';
import { saveAttempt, takeAttempt } from './oidc-login-attempts';
import { hashPassword } from './password';

export interface ClaimNames {
  roleClaim: string;
  blocksClaim: string;
}

/** Stores a new attempt and answers where to send the browser, with the key its cookie keeps. */
export async function startOidcLogin(
  db: Db,
  provider: OidcIdentityProvider,
  redirectUri: string,
): Promise<{ attemptKey: string; authorizationUrl: URL }> {
  const checks = OidcIdentityProvider.newChecks();
  // The URL first: a provider that cannot be reached stores nothing.
  const authorizationUrl = await provider.authorizationUrl(redirectUri, checks);
  const attemptKey = await saveAttempt(db, { ...checks, redirectUri });
  return { attemptKey, authorizationUrl };
}

export type OidcLoginResult =
  | {
      kind: 'loggedIn';
      token: string;
      sessionId: string;
      expiresAt: Date;
      admin: { id: number; username: string; role: Role; blocks: string[]; created: boolean };
    }
  | { kind: 'refused'; refusal: SsoRefusal; why: string };

interface ReturnInput extends ClaimNames {
  /** The key from the browser's attempt cookie, if it sent one. */
  attemptKey: string | undefined;
  /** The authorization response's parameters as the browser brought them (code, state, iss, or error). */
  response: URLSearchParams;
  ip?: string;
  userAgent?: string;
}

/** Finishes a login at the provider: a session for the account the claims describe, or why not. */
export async function finishOidcLogin(db: Db, provider: OidcIdentityProvider, input: ReturnInput): Promise<OidcLoginResult> {
  const anonymous: AuditActor = { adminId: null, actor: 'anonymous', ip: input.ip };
  const attempt = input.attemptKey ? await takeAttempt(db, input.attemptKey) : null;
  if (!attempt) return refuse(anonymous, null, 'failed', 'no login in progress in this browser (none, used or expired)');

  let identity: OidcIdentity;
  try {
    const callbackUrl = new URL(attempt.redirectUri);
    callbackUrl.search = input.response.toString();
    identity = await provider.identify(callbackUrl, attempt);
  } catch (error) {
    // A forged or replayed return, a wrong state, a code the provider refuses, a bad ID token: no account is touched.
    return refuse(anonymous, null, providerFailure(error), `the provider's answer was refused: ${describe(error)}`);
  }

  const who: AuditActor = { adminId: null, actor: actorName(identity.claims), ip: input.ip };
  const access = accessFromClaims(identity.claims, { ...input, knownBlocks: await knownBlocks(db) });
  if (!access.ok) return refuse(who, identity, access.refusal, access.why);

  const [existing] = await db
    .select()
    .from(admins)
    .where(and(eq(admins.oidcIssuer, identity.issuer), eq(admins.oidcSubject, identity.subject)));
  let account: { id: number; username: string; created: boolean };
  if (existing) {
    if (existing.disabledAt)
      return refuse({ ...who, adminId: existing.id, actor: existing.username }, identity, 'disabled', 'the account is disabled');
    account = { id: existing.id, username: existing.username, created: false };
    if (existing.role !== access.role || !sameBlocks(existing.blocks, access.blocks)) {
      // The claims may not demote the last active administrator, as an administrator may not (decision 050).
      const demotes = existing.role === 'administrator' && access.role !== 'administrator';
      const changed = await db.transaction(async (tx) => {
        if (demotes && !(await anotherActiveAdministrator(tx, existing.id))) return false;
        await tx.update(admins).set({ role: access.role, blocks: access.blocks, updatedAt: new Date() }).where(eq(admins.id, existing.id));
        return true;
      });
      if (!changed) {
        return refuse(
          { ...who, adminId: existing.id, actor: existing.username },
          identity,
          'last_administrator',
          `the claims give the role ${access.role} to the last active administrator`,
        );
      }
      await recordAudit(
        db,
        { adminId: existing.id, actor: existing.username, ip: input.ip },
        {
          action: 'admin.sso_access',
          entity: 'admin',
          entityId: existing.id,
          before: { role: existing.role, blocks: existing.blocks },
          after: { role: access.role, blocks: access.blocks },
        },
      );
    }
  } else {
    const created = await createSsoAccount(db, identity, access.role, access.blocks, input.ip);
    if (!created) return refuse(who, identity, 'no_username', 'no free username that meets the rule in preferred_username or sub');
    account = { ...created, created: true };
  }

  const session = await openLoginSession(db, account, input, {
    single_sign_on: identity.issuer,
    role: access.role,
    blocks: access.blocks,
    ...(access.ignoredBlocks.length > 0 ? { unknown_blocks_ignored: access.ignoredBlocks } : {}),
  }, identity.idToken);
  return {
    kind: 'loggedIn',
    ...session,
    admin: { id: account.id, username: account.username, role: access.role, blocks: access.blocks, created: account.created },
  };

  /** A refusal, audited with what is known of who tried. */
  async function refuse(actor: AuditActor, identity: OidcIdentity | null, refusal: SsoRefusal, why: string): Promise<OidcLoginResult> {
    await recordAudit(db, actor, {
      action: 'login.sso_refused',
      entity: 'admin',
      entityId: identity ? identity.subject.slice(0, 200) : null,
      after: { reason: refusal, why, ...(identity ? { issuer: identity.issuer } : {}) },
    });
    return { kind: 'refused', refusal, why };
  }
}

/** The account of a first login: a username from the claims no other account uses, and no usable password. */
async function createSsoAccount(
  db: Db,
  identity: OidcIdentity,
  role: Role,
  blocks: string[],
  ip: string | undefined,
): Promise<{ id: number; username: string } | null> {
  const candidates = usernameCandidates(identity.claims);
  if (candidates.length === 0) return null;
  // Never the account of another by its name: a name in use is skipped, never linked (decision 052).
  const taken = new Set(
    (await db.select({ username: admins.username }).from(admins).where(inArray(admins.username, candidates))).map((r) => r.username),
  );
  const username = candidates.find((name) => !taken.has(name));
  if (!username) return null;
  // The hash of a random secret nobody is told: the password login refuses this account like any wrong password.
  const passwordHash = await hashPassword(randomBytes(32).toString('base64url'));
  const [row] = await db
    .insert(admins)
    .values({
      username,
      name: displayName(identity.claims, username),
      passwordHash,
      role,
      blocks,
      oidcIssuer: identity.issuer,
      oidcSubject: identity.subject,
    })
    // Two first logins at once: the second finds the first one's account below.
    .onConflictDoNothing()
    .returning({ id: admins.id, username: admins.username, name: admins.name });
  if (!row) {
    const [raced] = await db
      .select({ id: admins.id, username: admins.username })
      .from(admins)
      .where(and(eq(admins.oidcIssuer, identity.issuer), eq(admins.oidcSubject, identity.subject)));
    return raced ?? null;
  }
  await recordAudit(
    db,
    { adminId: row.id, actor: row.username, ip },
    {
      action: 'admin.create',
      entity: 'admin',
      entityId: row.id,
      after: { username: row.username, name: row.name, role, blocks, single_sign_on: identity.issuer },
    },
  );
  return row;
}

/** Block names of this prison. */
async function knownBlocks(db: Db): Promise<Set<string>> {
  const rows = await db.selectDistinct({ block: cells.block }).from(cells);
  return new Set(rows.map((row) => row.block));
}

const sameBlocks = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && [...a].sort().every((block, i) => block === [...b].sort()[i]);

/** Who tried, for the audit trail: the provider's username, else its subject. */
function actorName(claims: Claims): string {
  const name = typeof claims.preferred_username === 'string' ? claims.preferred_username : String(claims.sub ?? 'unknown');
  return name.slice(0, 100);
}

/** An error in a few words for the audit trail and the log: its message, the provider's error code, and its cause's. */
function describe(error: unknown): string {
  const parts: string[] = [];
  for (let cause: unknown = error, depth = 0; cause instanceof Error && depth < 3; cause = cause.cause, depth++) {
    const code = (cause as { error?: unknown }).error ?? (cause as { code?: unknown }).code;
    parts.push(`${cause.message}${typeof code === 'string' ? ` (${code})` : ''}`);
  }
  return (parts.join(': ') || 'unknown error').slice(0, 300);
}
