// The audit trail as the Audit screen reads it (append-only; no route changes or deletes an entry).
import { z } from 'zod';
import { pageQuery } from './api';
import { boundedText, idText, isoInstant } from './text';

/** One field an entry changed. */
export const auditChange = z.object({ field: z.string(), before: z.unknown(), after: z.unknown() });
export type AuditChange = z.infer<typeof auditChange>;

export const auditEntry = z.object({
  id: z.number().int(),
  /** ISO instant (UTC). */
  at: z.string(),
  admin_id: z.number().int().nullable(),
  actor: z.string(),
  action: z.string(),
  entity: z.string(),
  entity_id: z.string().nullable(),
  before: z.unknown().nullable(),
  after: z.unknown().nullable(),
  ip: z.string().nullable(),
  /** Who, named at read time: "J. Smith (officer)", or the recorded username when the account is gone. */
  actor_label: z.string(),
  /** The record, named at read time: "prisoner A0012 John Brown"; null when the entry names none. */
  entity_label: z.string().nullable(),
  /** Only the fields that differ between before and after (every field of a creation or a deletion). */
  changes: z.array(auditChange),
});
export type AuditEntry = z.infer<typeof auditEntry>;

export const auditQuery = pageQuery.extend({
  /** Exact entity, e.g. prisoner, alert, session. */
  entity: boundedText(100).optional(),
  entity_id: idText(200).optional(),
  /** An action or its prefix: `login` finds login, login.failed and login.locked. */
  action: boundedText(100).optional(),
  /** Part of the actor's username, any case. */
  actor: boundedText(100).optional(),
  from: isoInstant().optional(),
  to: isoInstant().optional(),
});
export type AuditQuery = z.infer<typeof auditQuery>;

/** The audit screen's filters, for its CSV export (every entry they match, in the chain's order). */
export const auditExportQuery = auditQuery.omit({ page: true, limit: true });
export type AuditExportQuery = z.infer<typeof auditExportQuery>;

export const auditPage = z.object({
  entries: z.array(auditEntry),
  currentPage: z.number().int(),
  totalPages: z.number().int(),
  total: z.number().int(),
});
export type AuditPage = z.infer<typeof auditPage>;
