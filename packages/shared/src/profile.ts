// Profile (/profile): the admin's own account and sessions, and the admins list.
import { z } from 'zod';
import { int32, nameText } from './text';
import { NEEDS_BLOCKS_MESSAGE, caseloadBlocks, role, roleMay, roleNeedsBlocks, type Role } from './roles';
import { MAX_PASSWORD_LENGTH, passwordProblem } from './password-policy';
import { pendingChange } from './pending-change';

/** A new password under the shared rule (the server also refuses the common ones); `field` starts each message. */
function newPassword(field: string) {
  return z
    .string()
    .max(MAX_PASSWORD_LENGTH * 2, `${field} must be at most ${MAX_PASSWORD_LENGTH} characters`)
    .superRefine((value, ctx) => {
      const problem = passwordProblem(value);
      if (problem) ctx.addIssue({ code: 'custom', message: `${field} ${problem}` });
    });
}

export const profile = z.object({
  admin_id: z.number().int(),
  username: z.string(),
  name: z.string(),
  created_at: z.string(),
});
export type Profile = z.infer<typeof profile>;

export const passwordChangeRequest = z.object({
  current_password: z.string().min(1, 'current_password is required').max(200),
  new_password: newPassword('new_password'),
});
export type PasswordChangeRequest = z.infer<typeof passwordChangeRequest>;

export const sessionInfo = z.object({
  id: z.string(),
  created_at: z.string(),
  last_seen_at: z.string(),
  expires_at: z.string(),
  ip: z.string().nullable(),
  user_agent: z.string().nullable(),
  /** The session this request came from. */
  current: z.boolean(),
});
export type SessionInfo = z.infer<typeof sessionInfo>;
export const sessionList = z.object({ sessions: z.array(sessionInfo) });

export const adminAccount = z.object({
  id: z.number().int(),
  username: z.string(),
  name: z.string(),
  disabled: z.boolean(),
  /** Set while failed logins lock the username. */
  locked_until: z.string().nullable(),
  active_sessions: z.number().int(),
  created_at: z.string(),
  /** What the account may do (packages/shared/src/roles.ts). */
  role,
  /** Its caseload: block names; empty means every block. */
  blocks: z.array(z.string()),
  /** The police or guard record of the person using it (observation checks, duress alarms; decisions 063 and 100). */
  staff_id: z.number().int().nullable(),
  /**
   * A new administrator account, or an account raised to administrator, waiting for a second administrator's approval
   * (decision 091): the pending change's id, or null.
   */
  pending_change_id: z.number().int().nullable(),
});
export type AdminAccount = z.infer<typeof adminAccount>;
export const adminList = z.object({ admins: z.array(adminAccount) });
/**
 * A new administrator account, or a raise to administrator, answered 202: the account as it stands (a new one is
 * disabled until approved, a raised one keeps its role) and the change waiting for a second administrator.
 */
export const adminAccountPending = adminAccount.extend({ pending: pendingChange });

export const adminCreateRequest = z
  .object({
    username: z
      .string()
      .trim()
      .min(1, 'username is required')
      .max(100, 'username must be at most 100 characters')
      .regex(/^[\w.@-]+$/, 'username may hold letters, digits, . @ - and _ only'),
    name: nameText(100).optional(),
    password: newPassword('password'),
    /** Absent: administrator, as every account was before roles (only an administrator creates accounts). */
    role: role.optional(),
    /** Absent or empty: every block (not for a wing officer: at least one). Each must be a block that exists. */
    blocks: caseloadBlocks.optional(),
  })
  .superRefine((value, ctx) => {
    if (passwordProblem(value.password, value.username) === 'must not contain the username')
      ctx.addIssue({ code: 'custom', path: ['password'], message: 'password must not contain the username' });
    if (value.role && roleNeedsBlocks(value.role) && (value.blocks ?? []).length === 0)
      ctx.addIssue({ code: 'custom', path: ['blocks'], message: NEEDS_BLOCKS_MESSAGE });
  });
export type AdminCreateRequest = z.infer<typeof adminCreateRequest>;

/** Changes an account's name, role or caseload; what is absent stays as it is. */
export const adminUpdateRequest = z
  .object({
    name: nameText(100).optional(),
    role: role.optional(),
    blocks: caseloadBlocks.optional(),
    /** The staff record of the person using the account (whose tracker verifies observation checks, decision 063); null unlinks. */
    staff_id: int32().nullable().optional(),
  })
  .refine((value) => value.name !== undefined || value.role !== undefined || value.blocks !== undefined || value.staff_id !== undefined, {
    message: 'name, role, blocks or staff_id is required',
  });
export type AdminUpdateRequest = z.infer<typeof adminUpdateRequest>;

/** Two-factor login (TOTP, RFC 6238: 30 s steps, 6 digits, SHA-1) and its single-use recovery codes. */
export const RECOVERY_CODE_COUNT = 10;

export const totpStatus = z.object({
  enabled: z.boolean(),
  /** Unused recovery codes left. */
  recovery_codes_left: z.number().int(),
  /** REQUIRE_TOTP is on: this admin must enrol before anything else. */
  required: z.boolean(),
});
export type TotpStatus = z.infer<typeof totpStatus>;

/** A new secret, waiting for its first code: the QR code (a data: URL of a PNG) and the secret as text. */
export const totpSetup = z.object({
  secret: z.string(),
  otpauth_url: z.string(),
  qr_code: z.string(),
});
export type TotpSetup = z.infer<typeof totpSetup>;

/** A 6-digit code from the authenticator app, or (where accepted) one of the recovery codes. */
export const totpCode = z
  .string()
  .trim()
  .min(1, 'code is required')
  .max(32, 'code must be at most 32 characters')
  .regex(/^[\w -]+$/, 'code may hold letters, digits, spaces and dashes only');

/** Turning two-factor login on asks for the password too: a stolen session alone cannot lock the owner out (decision 043). */
export const totpConfirmRequest = z.object({
  code: totpCode.regex(/^\d{6}$/, 'code must be the 6 digits your app shows'),
  current_password: z.string({ error: 'current_password is required' }).min(1, 'current_password is required').max(200),
});
export type TotpConfirmRequest = z.infer<typeof totpConfirmRequest>;

/** Shown once, at enrolment. */
export const totpRecoveryCodes = z.object({ recovery_codes: z.array(z.string()) });
export type TotpRecoveryCodes = z.infer<typeof totpRecoveryCodes>;

export const totpDisableRequest = z.object({ code: totpCode });
export type TotpDisableRequest = z.infer<typeof totpDisableRequest>;

/**
 * GET and PUT /profile/critical-sound: whether this account hears the Critical alert sound (decision 105). Each account
 * chooses its own; until it does, `on` is its role's default (`default_on`): on for the roles that work alerts, off
 * for the auditor and the records clerk, who cannot act on one.
 */
export const criticalSoundSetting = z.object({ on: z.boolean(), default_on: z.boolean() });
export type CriticalSoundSetting = z.infer<typeof criticalSoundSetting>;
export const criticalSoundRequest = z.object({ on: z.boolean({ message: 'on must be true or false' }) });
export type CriticalSoundRequest = z.infer<typeof criticalSoundRequest>;
export const criticalSoundByDefault = (who: Role): boolean => roleMay(who, 'alerts.work');
