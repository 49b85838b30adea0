// What every API answer shares: the error and message bodies, and the list screens' page query and page count.
import { z } from 'zod';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from './constants';
import { intText } from './text';

/** Every 4xx and 5xx body: one sentence naming what was wrong. */
export const errorResponse = z.object({ message: z.string() });
export type ErrorResponse = z.infer<typeof errorResponse>;

export const messageResponse = z.object({ message: z.string() });
/** Logout's answer: after a single sign-on login, where the browser goes to end its session at the provider too. */
export const logoutResponse = messageResponse.extend({ end_session_url: z.string().url().optional() });
export type LogoutResponse = z.infer<typeof logoutResponse>;

/** `?page=&limit=` as the list screens send it; page starts at 1 (docs/CLIENT-CONTRACT.md). */
export const pageQuery = z.object({
  page: intText(1).default(1),
  limit: intText(1, MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE),
});
export type PageQuery = z.infer<typeof pageQuery>;

export function totalPages(total: number, limit: number): number {
  return Math.max(1, Math.ceil(total / limit));
}
