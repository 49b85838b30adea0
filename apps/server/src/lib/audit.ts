// The audit trail: append-only rows of who did what to which record, before and after, when and from where. Every
// entry is appended to the hash chain (audit-chain.ts), in the caller's transaction when it has one.
import type { DbOrTx } from '../db/client';
import { appendChained, drizzleRunner, sessionRunner, type NewAuditRow } from './audit-chain';

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

function auditRow(who: AuditActor, entry: AuditEntry): NewAuditRow {
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

/** Appends one entry; inside a transaction (a savepoint of it), so the chain's lock is held until that commits. */
export async function recordAudit(db: DbOrTx, who: AuditActor, entry: AuditEntry): Promise<void> {
  await db.transaction((tx) => appendChained(drizzleRunner(tx), auditRow(who, entry)));
}

/** recordAudit for code that holds a plain connection (backup and restore): runs in that session's transaction. */
export async function recordAuditOnSession(
  session: { query<Row>(text: string, params?: unknown[]): Promise<Row[]> },
  who: AuditActor,
  entry: AuditEntry,
): Promise<void> {
  await appendChained(sessionRunner(session), auditRow(who, entry));
}

export const SYSTEM_ACTOR: AuditActor = { adminId: null, actor: 'system' };
