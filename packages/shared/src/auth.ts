import { z } from 'zod';
import { boundedText } from './text';

export const loginRequest = z.object({
  username: boundedText(100).min(1, 'username is required'),
  password: z.string().min(1, 'password is required').max(200),
});
export type LoginRequest = z.infer<typeof loginRequest>;

export const loginResponse = z.object({
  token: z.string(),
  isAuthenticated: z.literal(true),
  name: z.string(),
  username: z.string(),
  adminId: z.number().int(),
});
export type LoginResponse = z.infer<typeof loginResponse>;

export const verifyTokenResponse = z.object({
  isAuthenticated: z.literal(true),
  name: z.string(),
  username: z.string(),
  adminId: z.number().int(),
});
export type VerifyTokenResponse = z.infer<typeof verifyTokenResponse>;

/** Failed logins per username before a lock, the window they are counted in, and the lock's length. */
export const LOGIN_MAX_FAILURES = 5;
export const LOGIN_WINDOW_MINUTES = 15;
export const LOGIN_LOCK_MINUTES = 15;
export const INVALID_LOGIN_MESSAGE = 'Invalid username or password';
export const LOCKED_LOGIN_MESSAGE = `Too many failed logins: this account is locked for ${LOGIN_LOCK_MINUTES} minutes. Try again later.`;
