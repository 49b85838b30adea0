// Handovers read by the next shift: an account that logged in after a handover entry was written (within
// HANDOVER_CONFIRM_HOURS before that login) is asked to confirm reading it until it does; the confirmation is kept
// (who, when), audited, and shown on the entry.
import { and, asc, count, eq, isNull, ne, or, sql } from 'drizzle-orm';
import { HANDOVER_CONFIRM_HOURS, HANDOVER_PENDING_MAX, type LogMessage, type PendingHandovers } from '@prison/shared';
import type { DbOrTx } from '../../db/client';
import { messageReads, messages, sessions } from '../../db/schema';
import { recordAudit, type AuditActor } from '../../lib/audit';
import { badRequest, notFound } from '../../lib/http-errors';
import type { AuthenticatedAdmin } from '../../sessions/session-service';
import { withLinksAndReads } from './messages-service';

/**
 * The handovers this session's login owes a confirmation: written before the login and at most a day before it, by
 * someone else, not yet confirmed by this account.
 */
function owed(reader: AuthenticatedAdmin) {
  const loginAt = sql`(select ${sessions.createdAt} from ${sessions} where ${sessions.id} = ${reader.sessionId})`;
  return and(
    eq(messages.type, 'handover'),
    sql`${messages.createdAt} < ${loginAt}`,
    sql`${messages.createdAt} > ${loginAt} - make_interval(hours => ${HANDOVER_CONFIRM_HOURS})`,
    or(isNull(messages.adminId), ne(messages.adminId, reader.id)),
    sql`not exists (select 1 from ${messageReads} mr where mr.message_id = ${messages.id} and mr.admin_id = ${reader.id})`,
  );
}

export async function pendingHandovers(db: DbOrTx, reader: AuthenticatedAdmin): Promise<PendingHandovers> {
  const [rows, [{ total } = { total: 0 }]] = await Promise.all([
    db.select().from(messages).where(owed(reader)).orderBy(asc(messages.id)).limit(HANDOVER_PENDING_MAX),
    db.select({ total: count() }).from(messages).where(owed(reader)),
  ]);
  return { messages: await withLinksAndReads(db, rows, reader.blocks), total };
}

/** Records that this account read a handover entry; a second confirmation keeps the first time. */
export async function confirmHandoverRead(db: DbOrTx, reader: AuthenticatedAdmin, id: number, who: AuditActor): Promise<LogMessage> {
  return db.transaction(async (tx) => {
    const [row] = await tx.select().from(messages).where(eq(messages.id, id));
    if (!row) throw notFound(`Log entry ${id} not found`);
    if (row.type !== 'handover') throw badRequest('id: only a handover entry is confirmed read');
    const inserted = await tx
      .insert(messageReads)
      .values({ messageId: id, adminId: reader.id, readerName: reader.name })
      .onConflictDoNothing()
      .returning();
    if (inserted.length > 0) {
      await recordAudit(tx, who, { action: 'message.read', entity: 'message', entityId: id, after: { read_by: reader.name } });
    }
    const [shown] = await withLinksAndReads(tx, [row], reader.blocks);
    return shown!;
  });
}
