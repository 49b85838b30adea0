// The control-room log: append-only messages between admins on duty, newest first.
import { desc, lt } from 'drizzle-orm';
import type { LogMessage, MessageInput, MessageList, MessageListQuery } from '@prison/shared';
import type { Db } from '../../db/client';
import { messages } from '../../db/schema';
import { recordAudit, type AuditActor } from '../../lib/audit';
import type { AuthenticatedAdmin } from '../../sessions/session-service';

const toMessage = (row: typeof messages.$inferSelect): LogMessage => ({
  id: row.id,
  body: row.body,
  author_id: row.adminId,
  author_name: row.authorName,
  created_at: row.createdAt.toISOString(),
});

export async function listMessages(db: Db, query: MessageListQuery): Promise<MessageList> {
  // Ids grow with time, so `before` is a stable cursor even when two messages share a timestamp.
  const rows = await db
    .select()
    .from(messages)
    .where(query.before ? lt(messages.id, query.before) : undefined)
    .orderBy(desc(messages.id))
    .limit(query.limit + 1);
  return { messages: rows.slice(0, query.limit).map(toMessage), hasMore: rows.length > query.limit };
}

export async function postMessage(
  db: Db,
  author: AuthenticatedAdmin,
  input: MessageInput,
  who: AuditActor,
): Promise<LogMessage> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(messages)
      .values({ adminId: author.id, authorName: author.name, body: input.body })
      .returning();
    await recordAudit(tx, who, {
      action: 'message.create',
      entity: 'message',
      entityId: row!.id,
      after: { body: row!.body },
    });
    return toMessage(row!);
  });
}
