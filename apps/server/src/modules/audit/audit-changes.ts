// What an audit entry changed, field by field: only the fields whose value differs between before and after (all of
// them for a creation or a deletion), so a reader sees the change and not the record around it.
import type { AuditChange } from '@prison/shared';

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Equal as stored: both sides come from jsonb, which keeps one order of keys. */
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

export function auditChanges(before: unknown, after: unknown): AuditChange[] {
  if (before == null && after == null) return [];
  if (!isRecord(before ?? {}) || !isRecord(after ?? {})) {
    return same(before, after) ? [] : [{ field: 'value', before: before ?? null, after: after ?? null }];
  }
  const b = (before ?? {}) as Record<string, unknown>;
  const a = (after ?? {}) as Record<string, unknown>;
  const fields = [...new Set([...Object.keys(b), ...Object.keys(a)])];
  return fields
    .filter((field) => !same(b[field], a[field]))
    .map((field) => ({ field, before: b[field] ?? null, after: a[field] ?? null }));
}
