// Reading the audit trail, newest first, with filters, its people and records named and its changes field by field.
// There is deliberately no update or delete here.
import { and, count, desc, eq, gte, ilike, lte, or, type SQL } from 'drizzle-orm';
import { totalPages, type AuditEntry, type AuditPage, type AuditQuery } from '@prison/shared';
import type { DbOrTx } from '../../db/client';
import { auditLog } from '../../db/schema';
import { containsPattern, escapeLike } from '../../lib/like-patterns';
import { auditChanges } from './audit-changes';
import { namesFor } from './audit-names';

export function filters(query: Omit<AuditQuery, 'page' | 'limit'>): SQL | undefined {
  const conditions: (SQL | undefined)[] = [];
  if (query.entity) conditions.push(eq(auditLog.entity, query.entity));
  if (query.entity_id) conditions.push(eq(auditLog.entityId, query.entity_id));
  if (query.action) {
    // `login` finds login, login.failed and login.locked.
    conditions.push(or(eq(auditLog.action, query.action), ilike(auditLog.action, `${escapeLike(query.action)}.%`)));
  }
  if (query.actor) conditions.push(ilike(auditLog.actor, containsPattern(query.actor)));
  if (query.from) conditions.push(gte(auditLog.at, new Date(query.from)));
  if (query.to) conditions.push(lte(auditLog.at, new Date(query.to)));
  return and(...conditions);
}

export async function listAudit(db: DbOrTx, query: AuditQuery): Promise<AuditPage> {
  const where = filters(query);
  const [rows, [{ total } = { total: 0 }]] = await Promise.all([
    db
      .select()
      .from(auditLog)
      .where(where)
      .orderBy(desc(auditLog.at), desc(auditLog.id))
      .limit(query.limit)
      .offset((query.page - 1) * query.limit),
    db.select({ total: count() }).from(auditLog).where(where),
  ]);
  const names = await namesFor(db, rows);
  const entries: AuditEntry[] = rows.map((row) => ({
    id: row.id,
    at: row.at.toISOString(),
    admin_id: row.adminId,
    actor: row.actor,
    action: row.action,
    entity: row.entity,
    entity_id: row.entityId,
    before: row.before ?? null,
    after: row.after ?? null,
    ip: row.ip,
    actor_label: names.actor(row),
    entity_label: names.record(row),
    changes: auditChanges(row.before, row.after),
  }));
  return { entries, currentPage: query.page, totalPages: totalPages(total, query.limit), total };
}
