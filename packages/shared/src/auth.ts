// Logging in and the session: the login request and answer, what the account must do first, its role and caseload,
// and the token check.
import { z } from 'zod';
import { role } from './roles';
import { boundedText } from './text';

export const loginRequest = z.object({
  username: boundedText(100).min(1, 'username is required'),
  password: z.string().min(1, 'password is required').max(300),
  /** The 6-digit code of an admin with two-factor login, or one of their recovery codes. */
  totp: z
    .string()
    .trim()
    .max(32, 'totp must be at most 32 characters')
    .regex(/^[\w -]*$/, 'totp may hold letters, digits, spaces and dashes only')
    .optional(),
});
export type LoginRequest = z.infer<typeof loginRequest>;

/** What the admin must do before any other screen: change a too-weak password, or enrol two-factor login. */
export const accountActionFields = {
  passwordChangeRequired: z.boolean(),
  totpEnrolmentRequired: z.boolean(),
};

/** The account's role and caseload: the screens show only what the role may do. */
export const accountAccessFields = {
  role,
  /** Block names; empty means every block. */
  blocks: z.array(z.string()),
};

export const loginResponse = z.object({
  token: z.string(),
  isAuthenticated: z.literal(true),
  name: z.string(),
  username: z.string(),
  adminId: z.number().int(),
  ...accountActionFields,
  ...accountAccessFields,
});
export type LoginResponse = z.infer<typeof loginResponse>;

export const verifyTokenResponse = z.object({
  isAuthenticated: z.literal(true),
  name: z.string(),
  username: z.string(),
  adminId: z.number().int(),
  ...accountActionFields,
  ...accountAccessFields,
});
export type VerifyTokenResponse = z.infer<typeof verifyTokenResponse>;

/** Failed logins per username before a lock, the window they are counted in, and the lock's length. */
export const LOGIN_MAX_FAILURES = 5;
export const LOGIN_WINDOW_MINUTES = 15;
export const LOGIN_LOCK_MINUTES = 15;
export const INVALID_LOGIN_MESSAGE = 'Invalid username or password';
export const LOCKED_LOGIN_MESSAGE = `Too many failed logins: this account is locked for ${LOGIN_LOCK_MINUTES} minutes. Try again later.`;

/** 401 to a right password of an admin with two-factor login and no (or an empty) `totp`. */
export const loginRefusal = z.object({ message: z.string(), totpRequired: z.literal(true).optional() });
export const TOTP_REQUIRED_MESSAGE = 'Enter the 6-digit code from your authenticator app, or a recovery code';
export const INVALID_TOTP_MESSAGE = 'Invalid or already used code';
/** 403 to any other API call while the session must first change its password or enrol two-factor login. */
export const PASSWORD_CHANGE_REQUIRED_MESSAGE =
  'Choose a new password on your profile before going on (it was set by someone else, or is too weak)';
export const TOTP_ENROLMENT_REQUIRED_MESSAGE =
  'Two-factor login is required: set it up on your profile before going on';
