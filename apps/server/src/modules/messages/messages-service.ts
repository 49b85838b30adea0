// The control-room log: append-only entries between staff on duty, newest first, searched by text, type, time and
// the record they are about; each answer names the links the reader's caseload sees and who confirmed a handover.
import { and, asc, desc, eq, gte, inArray, lt, lte, sql, type SQL } from 'drizzle-orm';
import type { LogMessage, MessageInput, MessageLinkKind, MessageList, MessageListQuery, MessageRead, PostedMessage } from '@prison/shared';
import type { DbOrTx } from '../../db/client';
import { messageLinks, messageReads, messages } from '../../db/schema';
import { recordAudit, type AuditActor } from '../../lib/audit';
import type { Caseload } from '../../lib/caseload';
import { containsPattern } from '../../lib/like-patterns';
import type { AuthenticatedAdmin } from '../../sessions/session-service';
import { checkedLinks, linksOf } from './message-links';

type MessageRow = typeof messages.$inferSelect;

export const toPostedMessage = (row: MessageRow): PostedMessage => ({
  id: row.id,
  body: row.body,
  author_id: row.adminId,
  author_name: row.authorName,
  created_at: row.createdAt.toISOString(),
  type: row.type,
});

/** Who confirmed reading each of these entries, first first. */
async function readsOf(db: DbOrTx, ids: number[]): Promise<Map<number, MessageRead[]>> {
  const result = new Map<number, MessageRead[]>();
  if (ids.length === 0) return result;
  const rows = await db
    .select()
    .from(messageReads)
    .where(inArray(messageReads.messageId, ids))
    .orderBy(asc(messageReads.readAt), asc(messageReads.readerName));
  for (const row of rows) {
    const list = result.get(row.messageId) ?? [];
    list.push({ admin_id: row.adminId, name: row.readerName, at: row.readAt.toISOString() });
    result.set(row.messageId, list);
  }
  return result;
}

/** Entries as a reader is shown them: with the links the reader's caseload sees and a handover's confirmations. */
export async function withLinksAndReads(db: DbOrTx, rows: MessageRow[], caseload: Caseload): Promise<LogMessage[]> {
  const ids = rows.map((row) => row.id);
  const handovers = rows.filter((row) => row.type === 'handover').map((row) => row.id);
  const [links, reads] = await Promise.all([linksOf(db, ids, caseload), readsOf(db, handovers)]);
  return rows.map((row) => ({ ...toPostedMessage(row), links: links.get(row.id) ?? [], reads: reads.get(row.id) ?? [] }));
}

const linkedTo = (kind: MessageLinkKind, id: number) =>
  sql`exists (select 1 from ${messageLinks} ml where ml.message_id = ${messages.id} and ml.kind = ${kind} and ml.target_id = ${id})`;

function searchConditions(query: MessageListQuery): SQL | undefined {
  const conditions: (SQL | undefined)[] = [];
  // Ids grow with time, so `before` is a stable cursor even when two messages share a timestamp.
  if (query.before) conditions.push(lt(messages.id, query.before));
  if (query.type) conditions.push(eq(messages.type, query.type));
  if (query.q) conditions.push(sql`lower(${messages.body}) like ${containsPattern(query.q.toLowerCase())}`);
  if (query.from) conditions.push(gte(messages.createdAt, new Date(query.from)));
  if (query.to) conditions.push(lte(messages.createdAt, new Date(query.to)));
  if (query.prisoner_id) conditions.push(linkedTo('prisoner', query.prisoner_id));
  if (query.alert_id) conditions.push(linkedTo('alert', query.alert_id));
  if (query.incident_id) conditions.push(linkedTo('incident', query.incident_id));
  return and(...conditions);
}

export async function listMessages(db: DbOrTx, query: MessageListQuery, caseload: Caseload): Promise<MessageList> {
  const rows = await db
    .select()
    .from(messages)
    .where(searchConditions(query))
    .orderBy(desc(messages.id))
    .limit(query.limit + 1);
  const page = rows.slice(0, query.limit);
  return { messages: await withLinksAndReads(db, page, caseload), hasMore: rows.length > query.limit };
}

export async function postMessage(
  db: DbOrTx,
  author: AuthenticatedAdmin,
  input: MessageInput,
  who: AuditActor,
): Promise<LogMessage> {
  return db.transaction(async (tx) => {
    const links = await checkedLinks(tx, input, author.blocks);
    const [row] = await tx
      .insert(messages)
      .values({ adminId: author.id, authorName: author.name, body: input.body, type: input.type })
      .returning();
    if (links.length > 0) await tx.insert(messageLinks).values(links.map((link) => ({ ...link, messageId: row!.id })));
    await recordAudit(tx, who, {
      action: 'message.create',
      entity: 'message',
      entityId: row!.id,
      after: {
        body: row!.body,
        type: row!.type,
        ...Object.fromEntries(
          (['prisoner', 'alert', 'incident'] as const)
            .map((kind) => [`${kind}_ids`, links.filter((l) => l.kind === kind).map((l) => l.targetId)] as const)
            .filter(([, ids]) => ids.length > 0),
        ),
      },
    });
    const [shown] = await withLinksAndReads(tx, [row!], author.blocks);
    return shown!;
  });
}
