// The control-room log (/communication): timestamped messages between admins on duty.
import { z } from 'zod';
import { boundedText, intText } from './text';

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
  body: boundedText(MESSAGE_MAX_LENGTH, { multiline: true }).min(1, 'body is required'),
});
export type MessageInput = z.infer<typeof messageInput>;

export const messageListQuery = z.object({
  /** Only messages older than this id (the oldest one already shown). */
  before: intText().optional(),
  limit: intText(1, 100).default(50),
});
export type MessageListQuery = z.infer<typeof messageListQuery>;

export const messageList = z.object({ messages: z.array(logMessage), hasMore: z.boolean() });
export type MessageList = z.infer<typeof messageList>;
