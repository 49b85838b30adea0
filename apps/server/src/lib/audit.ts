// The audit trail: append-only rows of who did what to which record, before and after, when and from where.
import type { DbOrTx } from '../db/client';
import { auditLog } from '../db/schema';

export interface AuditActor {
  adminId: number | null;
  actor: string;
  ip?: string | null;
}

export interface AuditEntry {
  action: string;
  entity: string;
  entityId?: string | number | null;
  before?: unknown;
  after?: unknown;
}

export async function recordAudit(db: DbOrTx, who: AuditActor, entry: AuditEntry): Promise<void> {
  await db.insert(auditLog).values({
    adminId: who.adminId,
    actor: who.actor,
    ip: who.ip ?? null,
    action: entry.action,
    entity: entry.entity,
    entityId: entry.entityId == null ? null : String(entry.entityId),
    before: entry.before ?? null,
    after: entry.after ?? null,
  });
}

export const SYSTEM_ACTOR: AuditActor = { adminId: null, actor: 'system' };
