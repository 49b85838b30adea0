// The audit trail: append-only rows of who did what to which record, before and after, when and from where.
import { drizzle } from 'drizzle-orm/node-postgres';
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

function auditRow(who: AuditActor, entry: AuditEntry) {
  return {
    adminId: who.adminId,
    actor: who.actor,
    ip: who.ip ?? null,
    action: entry.action,
    entity: entry.entity,
    entityId: entry.entityId == null ? null : String(entry.entityId),
    before: entry.before ?? null,
    after: entry.after ?? null,
  };
}

export async function recordAudit(db: DbOrTx, who: AuditActor, entry: AuditEntry): Promise<void> {
  await db.insert(auditLog).values(auditRow(who, entry));
}

// Builds statements only; never connected.
const statements = drizzle.mock();

/** recordAudit's insert as SQL text and parameters, for code that holds a plain connection (backup and restore). */
export function auditInsert(who: AuditActor, entry: AuditEntry): { sql: string; params: unknown[] } {
  return statements.insert(auditLog).values(auditRow(who, entry)).toSQL();
}

export const SYSTEM_ACTOR: AuditActor = { adminId: null, actor: 'system' };
