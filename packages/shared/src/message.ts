// The control-room log (/communication): timestamped messages between admins on duty.
import { z } from 'zod';

export const MESSAGE_MAX_LENGTH = 2000;

export const logMessage = z.object({
  id: z.number().int(),
  body: z.string(),
  author_id: z.number().int().nullable(),
  author_name: z.string(),
  /** ISO instant (UTC). */
  created_at: z.string(),
});
export type LogMessage = z.infer<typeof logMessage>;

export const messageInput = z.object({
  body: z
    .string()
    .trim()
    .min(1, 'body is required')
    .max(MESSAGE_MAX_LENGTH, `body must be at most ${MESSAGE_MAX_LENGTH} characters`),
});
export type MessageInput = z.infer<typeof messageInput>;

export const messageListQuery = z.object({
  /** Only messages older than this id (the oldest one already shown). */
  before: z.coerce.number().int().positive('before must be a message id').optional(),
  limit: z.coerce.number().int().min(1).max(100).default(50),
});
export type MessageListQuery = z.infer<typeof messageListQuery>;

export const messageList = z.object({ messages: z.array(logMessage), hasMore: z.boolean() });
export type MessageList = z.infer<typeof messageList>;
