// Two-factor login (CJIS IA-2): TOTP by RFC 6238 (30 s, 6 digits, SHA-1) through otplib, and single-use recovery
// codes. A code is accepted once per admin: the last accepted time step is stored and only a later one passes, by
// one conditional UPDATE, so two requests racing with the same code cannot both win. Secrets are stored sealed by
// the secret box (decision 054) and opened only to check a code.
import { createHash, randomInt } from 'node:crypto';
import { and, count, eq, gt, isNull, lt, ne, or, sql } from 'drizzle-orm';
import { generateSecret, generateURI, verify } from 'otplib';
import QRCode from 'qrcode';
import { RECOVERY_CODE_COUNT, type TotpSetup, type TotpStatus } from '@prison/shared';
import type { Db, DbOrTx } from '../../db/client';
import { adminRecoveryCodes, admins, sessions } from '../../db/schema';
import { recordAudit, type AuditActor } from '../../lib/audit';
import type { SecretBox } from '../../lib/secret-box';
import { badRequest, conflict } from '../../lib/http-errors';
import { verifyPassword } from './password';
import { endingSessions, sessionsChanged, type AuthenticatedAdmin } from '../../sessions/session-service';

const ISSUER = 'Prisoner Tracking';
/** One step either side of now: a phone clock up to 30 s off still works (RFC 6238 section 5.2). */
const CLOCK_TOLERANCE_SECONDS = 30;
// No 0/o, 1/l/i: a recovery code is typed from paper.
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

const SIX_DIGITS = /^\d{6}$/;

function hashRecoveryCode(code: string): string {
  return createHash('sha256').update(code).digest('hex');
}

/** Recovery codes are shown as `abcde-fghjk`; spaces, dashes and case do not matter when typed back. */
function normaliseRecoveryCode(code: string): string {
  return code.replace(/[\s-]/g, '').toLowerCase();
}

function newRecoveryCode(): string {
  const characters = Array.from({ length: 10 }, () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)]);
  return `${characters.slice(0, 5).join('')}-${characters.slice(5).join('')}`;
}

/** The time step of a valid code for this secret, or null. */
async function matchingTimeStep(secret: string, code: string): Promise<number | null> {
  if (!SIX_DIGITS.test(code)) return null;
  const result = await verify({ secret, token: code, epochTolerance: CLOCK_TOLERANCE_SECONDS });
  return result.valid && 'timeStep' in result ? result.timeStep : null;
}

/** Accepts a 6-digit code at most once: only a time step later than the last accepted one is taken. */
async function acceptTotpCode(
  db: DbOrTx,
  secrets: SecretBox,
  adminId: number,
  storedSecret: string,
  code: string,
): Promise<boolean> {
  const step = await matchingTimeStep(secrets.open(storedSecret), code);
  if (step === null) return false;
  const taken = await db
    .update(admins)
    .set({ totpLastStep: step })
    .where(
      and(
        eq(admins.id, adminId),
        eq(admins.totpSecret, storedSecret),
        or(isNull(admins.totpLastStep), lt(admins.totpLastStep, step)),
      ),
    )
    .returning({ id: admins.id });
  return taken.length === 1;
}

/** Uses up a recovery code: deleting its row is what accepts it, so it works once. */
async function acceptRecoveryCode(db: DbOrTx, adminId: number, code: string): Promise<boolean> {
  const used = await db
    .delete(adminRecoveryCodes)
    .where(
      and(
        eq(adminRecoveryCodes.adminId, adminId),
        eq(adminRecoveryCodes.codeHash, hashRecoveryCode(normaliseRecoveryCode(code))),
      ),
    )
    .returning({ id: adminRecoveryCodes.id });
  return used.length === 1;
}

/** The second factor of an enrolled admin: a 6-digit code not used before, or an unused recovery code. */
export async function acceptSecondFactor(
  db: DbOrTx,
  secrets: SecretBox,
  admin: { id: number; totpSecret: string | null },
  code: string,
): Promise<boolean> {
  if (!admin.totpSecret) return false;
  const trimmed = code.trim();
  if (SIX_DIGITS.test(trimmed)) return acceptTotpCode(db, secrets, admin.id, admin.totpSecret, trimmed);
  return acceptRecoveryCode(db, admin.id, trimmed);
}

export async function getTotpStatus(db: Db, adminId: number, required: boolean): Promise<TotpStatus> {
  const [row] = await db.select({ secret: admins.totpSecret }).from(admins).where(eq(admins.id, adminId));
  const [left] = await db
    .select({ n: count() })
    .from(adminRecoveryCodes)
    .where(eq(adminRecoveryCodes.adminId, adminId));
  const enabled = !!row?.secret;
  return { enabled, recovery_codes_left: enabled ? Number(left?.n ?? 0) : 0, required: required && !enabled };
}

/** Starts enrolment: a new secret waits, unused, until a first code from the app confirms it. */
export async function startTotpEnrolment(db: Db, secrets: SecretBox, admin: AuthenticatedAdmin): Promise<TotpSetup> {
  const [row] = await db.select({ secret: admins.totpSecret }).from(admins).where(eq(admins.id, admin.id));
  if (row?.secret) throw conflict('Two-factor login is already on: turn it off first to enrol a new phone');
  const secret = generateSecret();
  await db.update(admins).set({ totpPendingSecret: secrets.seal(secret) }).where(eq(admins.id, admin.id));
  const otpauthUrl = generateURI({ issuer: ISSUER, label: admin.username, secret });
  return { secret, otpauth_url: otpauthUrl, qr_code: await QRCode.toDataURL(otpauthUrl, { margin: 1, width: 240 }) };
}

export interface TotpEnabled {
  /** Shown this once, stored only hashed. */
  recoveryCodes: string[];
  /** The admin's other sessions, ended: they were opened with the password alone (their sockets are to be closed). */
  endedSessionIds: string[];
}

/**
 * Confirms enrolment with the current password and a first code (decision 043: a stolen session alone cannot turn
 * it on and lock the owner out). Every other session of the admin ends, the one that asked stays.
 */
export async function confirmTotpEnrolment(
  db: Db,
  secrets: SecretBox,
  admin: AuthenticatedAdmin,
  input: { code: string; current_password: string },
  who: AuditActor,
): Promise<TotpEnabled> {
  const code = input.code;
  const [row] = await db
    .select({ pending: admins.totpPendingSecret, secret: admins.totpSecret, passwordHash: admins.passwordHash })
    .from(admins)
    .where(eq(admins.id, admin.id));
  if (row?.secret) throw conflict('Two-factor login is already on');
  if (!row || !(await verifyPassword(row.passwordHash, input.current_password))) {
    throw badRequest('current_password: is not correct');
  }
  if (!row?.pending) throw badRequest('code: start the set-up first, then enter the code your app shows');
  const step = await matchingTimeStep(secrets.open(row.pending), code.trim());
  if (step === null) throw badRequest('code: is not the code your app shows now; check the phone clock and try again');
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  const pending = row.pending;
  const endedSessionIds = await endingSessions(() => db.transaction(async (tx) => {
    // Only the secret that was shown: a set-up started again in another tab makes this one fail.
    const [enabled] = await tx
      .update(admins)
      .set({ totpSecret: pending, totpPendingSecret: null, totpLastStep: step, updatedAt: new Date() })
      .where(and(eq(admins.id, admin.id), eq(admins.totpPendingSecret, pending), isNull(admins.totpSecret)))
      .returning({ id: admins.id });
    if (!enabled) throw conflict('The set-up changed meanwhile: start it again');
    await tx.delete(adminRecoveryCodes).where(eq(adminRecoveryCodes.adminId, admin.id));
    await tx
      .insert(adminRecoveryCodes)
      .values(codes.map((c) => ({ adminId: admin.id, codeHash: hashRecoveryCode(normaliseRecoveryCode(c)) })));
    const ended = await tx
      .update(sessions)
      .set({ revokedAt: sql`now()`, endReason: 'two_factor_enabled' })
      .where(
        and(
          eq(sessions.adminId, admin.id),
          ne(sessions.id, admin.sessionId),
          isNull(sessions.revokedAt),
          gt(sessions.expiresAt, sql`now()`),
        ),
      )
      .returning({ id: sessions.id });
    await recordAudit(tx, who, {
      action: 'admin.totp_enable',
      entity: 'admin',
      entityId: admin.id,
      after: { ended_sessions: ended.length },
    });
    return ended.map((s) => s.id);
  })); // endingSessions drops the cached lookups: the session's "must enrol" flag is read with the session
  return { recoveryCodes: codes, endedSessionIds };
}

/** Turns two-factor login off, proven by a current code or a recovery code. */
export async function disableTotp(
  db: Db,
  secrets: SecretBox,
  admin: AuthenticatedAdmin,
  code: string,
  who: AuditActor,
): Promise<void> {
  await db.transaction(async (tx) => {
    const [row] = await tx
      .select({ secret: admins.totpSecret })
      .from(admins)
      .where(eq(admins.id, admin.id))
      .for('update');
    if (!row?.secret) throw badRequest('code: two-factor login is not on');
    if (!(await acceptSecondFactor(tx, secrets, { id: admin.id, totpSecret: row.secret }, code)))
      throw badRequest('code: is not a valid code, or was already used');
    await tx
      .update(admins)
      .set({ totpSecret: null, totpPendingSecret: null, totpLastStep: null, updatedAt: new Date() })
      .where(eq(admins.id, admin.id));
    await tx.delete(adminRecoveryCodes).where(eq(adminRecoveryCodes.adminId, admin.id));
    await recordAudit(tx, who, { action: 'admin.totp_disable', entity: 'admin', entityId: admin.id });
  });
  sessionsChanged();
}
