// The control-room log (/communication): timestamped entries between staff on duty, each of a type, linked to the
// prisoners, alerts and incidents it is about, searchable; a handover entry is confirmed read by the next shift.
import { z } from 'zod';
import { boundedText, int32, intText, isoInstant } from './text';
import { MESSAGE_TYPES } from './message-types';

export * from './message-types';

export const MESSAGE_MAX_LENGTH = 2000;

/** What an entry is (message-types.ts). `note` is every entry written before entries had a type. */
export const messageType = z.enum(MESSAGE_TYPES, {
  message: `type must be one of ${MESSAGE_TYPES.join(', ')}`,
});

/** The most records of one kind an entry links to. */
export const MESSAGE_MAX_LINKS = 20;
/** The longest date range one search may span. */
export const MESSAGE_SEARCH_MAX_DAYS = 366;
/**
 * A handover is for the next shift: an account is asked to confirm the handovers written in the day before its
 * login; older ones are history, read through the log, not a banner for someone back from leave.
 */
export const HANDOVER_CONFIRM_HOURS = 24;

export const MESSAGE_LINK_KINDS = ['prisoner', 'alert', 'incident'] as const;
export type MessageLinkKind = (typeof MESSAGE_LINK_KINDS)[number];

/** A record an entry is about, named for people ("A0012 John Brown", "Critical alert #7"). */
export const messageLink = z.object({
  kind: z.enum(MESSAGE_LINK_KINDS),
  id: z.number().int(),
  label: z.string(),
});
export type MessageLink = z.infer<typeof messageLink>;

/** An account that confirmed reading a handover entry, and when. */
export const messageRead = z.object({
  admin_id: z.number().int().nullable(),
  name: z.string(),
  /** ISO instant (UTC). */
  at: z.string(),
});
export type MessageRead = z.infer<typeof messageRead>;

/** An entry as `messagePosted` sends it to every browser: no links, which each account reads through its caseload. */
export const postedMessage = z.object({
  id: z.number().int(),
  body: z.string(),
  author_id: z.number().int().nullable(),
  author_name: z.string(),
  /** ISO instant (UTC). */
  created_at: z.string(),
  type: messageType,
});
export type PostedMessage = z.infer<typeof postedMessage>;

export const logMessage = postedMessage.extend({
  /** The linked records the reader's caseload sees. */
  links: z.array(messageLink),
  /** Handover entries: who confirmed reading it, first first; empty for the other types. */
  reads: z.array(messageRead),
});
export type LogMessage = z.infer<typeof logMessage>;

const linkIds = (field: string) =>
  z
    .array(int32(), { message: `${field} must be a list of ids` })
    .max(MESSAGE_MAX_LINKS, `${field} may hold at most ${MESSAGE_MAX_LINKS} ids`)
    .default([]);

export const messageInput = z.object({
  body: boundedText(MESSAGE_MAX_LENGTH, { multiline: true }).min(1, 'body is required'),
  type: messageType.default('note'),
  prisoner_ids: linkIds('prisoner_ids'),
  alert_ids: linkIds('alert_ids'),
  incident_ids: linkIds('incident_ids'),
});
export type MessageInput = z.infer<typeof messageInput>;
/** What a browser sends: every field but the body may be left out. */
export type MessageDraft = z.input<typeof messageInput>;

export const messageListQuery = z
  .object({
    /** Only messages older than this id (the oldest one already shown). */
    before: intText().optional(),
    limit: intText(1, 100).default(50),
    /** Words the entry's text holds, any case. */
    q: boundedText(100).optional(),
    type: messageType.optional(),
    from: isoInstant().optional(),
    to: isoInstant().optional(),
    /** Only the entries linked to this record. */
    prisoner_id: intText().optional(),
    alert_id: intText().optional(),
    incident_id: intText().optional(),
  })
  .superRefine((value, ctx) => {
    if (!value.from || !value.to) return;
    const from = Date.parse(value.from);
    const to = Date.parse(value.to);
    if (!(from <= to)) ctx.addIssue({ code: 'custom', path: ['to'], message: 'to must not be before from' });
    else if (to - from > MESSAGE_SEARCH_MAX_DAYS * 86_400_000) {
      ctx.addIssue({ code: 'custom', path: ['to'], message: `the range may span at most ${MESSAGE_SEARCH_MAX_DAYS} days` });
    }
  });
export type MessageListQuery = z.infer<typeof messageListQuery>;

export const messageList = z.object({ messages: z.array(logMessage), hasMore: z.boolean() });
export type MessageList = z.infer<typeof messageList>;

/** The handovers this account has still to confirm reading, oldest first (at most `HANDOVER_PENDING_MAX`). */
export const HANDOVER_PENDING_MAX = 20;
export const pendingHandovers = z.object({ messages: z.array(logMessage), total: z.number().int() });
export type PendingHandovers = z.infer<typeof pendingHandovers>;

export const messageIdParams = z.object({ id: intText() });
