// Profile (/profile): the admin's own account and sessions, and the admins list (issue 5).
import { z } from 'zod';
import { nameText } from './text';

export const MIN_ADMIN_PASSWORD_LENGTH = 8;

export const profile = z.object({
  admin_id: z.number().int(),
  username: z.string(),
  name: z.string(),
  created_at: z.string(),
});
export type Profile = z.infer<typeof profile>;

export const passwordChangeRequest = z.object({
  current_password: z.string().min(1, 'current_password is required').max(200),
  new_password: z
    .string()
    .min(MIN_ADMIN_PASSWORD_LENGTH, `new_password must be at least ${MIN_ADMIN_PASSWORD_LENGTH} characters`)
    .max(200, 'new_password must be at most 200 characters'),
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
});
export type AdminAccount = z.infer<typeof adminAccount>;
export const adminList = z.object({ admins: z.array(adminAccount) });

export const adminCreateRequest = z.object({
  username: z
    .string()
    .trim()
    .min(1, 'username is required')
    .max(100, 'username must be at most 100 characters')
    .regex(/^[\w.@-]+$/, 'username may hold letters, digits, . @ - and _ only'),
  name: nameText(100).optional(),
  password: z
    .string()
    .min(MIN_ADMIN_PASSWORD_LENGTH, `password must be at least ${MIN_ADMIN_PASSWORD_LENGTH} characters`)
    .max(200, 'password must be at most 200 characters'),
});
export type AdminCreateRequest = z.infer<typeof adminCreateRequest>;
