// When the newest built-in (logical) backup was completed: its `backup.create` audit entry, written once the file was
// whole (decision 113). The audit trail is the one record every process and the backup command share, on either
// engine, so no table or file of its own is needed; the entity's index keeps the read to the backups' entries.
import { and, eq, max } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';
import { auditLog } from '../db/schema';
import { BACKUP_AUDIT_ENTITY, BACKUP_CREATED } from './write-backup';

export async function newestLogicalBackupAt(db: DbOrTx): Promise<Date | null> {
  const [row] = await db
    .select({ at: max(auditLog.at) })
    .from(auditLog)
    .where(and(eq(auditLog.entity, BACKUP_AUDIT_ENTITY), eq(auditLog.action, BACKUP_CREATED)));
  return row?.at ?? null;
}
