// The audit trail as a CSV file an inspector can take away (decision 104): the filtered entries in the chain's order,
// each with its place in the chain and its hash, under a preamble stating the whole chain's state as verified at the
// moment of export (intact or the first problem, its span, head and anchor).
import { asc, count, sql } from 'drizzle-orm';
import type { AuditExportQuery } from '@prison/shared';
import type { DbOrTx } from '../../db/client';
import { auditLog } from '../../db/schema';
import { describeChainReport, drizzleRunner, verifyAuditChain, type ChainReport } from '../../lib/audit-chain';
import { csvLine } from '../../lib/csv';
import { filters } from './audit-service';

/** The most entries one file holds; the preamble says when the filters matched more. */
export const AUDIT_EXPORT_MAX_ROWS = 100_000;
const BATCH = 2_000;

export const AUDIT_CSV_COLUMNS = ['seq', 'id', 'at', 'actor', 'admin_id', 'ip', 'action', 'entity', 'entity_id', 'before', 'after', 'hash'];

const json = (value: unknown) => (value === null || value === undefined ? null : JSON.stringify(value));

function filterText(query: AuditExportQuery): string {
  const given = Object.entries(query).filter(([, value]) => value !== undefined && value !== '');
  return given.length ? given.map(([name, value]) => `${name}=${String(value)}`).join('; ') : 'none (the whole trail)';
}

/** The chain's state, verified now, and how many entries the filters match. */
export async function auditExportHead(db: DbOrTx, query: AuditExportQuery): Promise<{ report: ChainReport; matched: number }> {
  const report = await verifyAuditChain(drizzleRunner(db));
  const [row] = await db.select({ matched: count() }).from(auditLog).where(filters(query));
  return { report, matched: row?.matched ?? 0 };
}

/** The file, line by line: the preamble, a blank line, the header and the entries. */
export async function* auditCsvLines(
  db: DbOrTx,
  query: AuditExportQuery,
  head: { report: ChainReport; matched: number },
  now = new Date(),
): AsyncGenerator<string> {
  const { report, matched } = head;
  const written = Math.min(matched, AUDIT_EXPORT_MAX_ROWS);
  yield `${csvLine(['Audit trail export', now.toISOString()])}\n`;
  yield `${csvLine(['Filters', filterText(query)])}\n`;
  yield `${csvLine(['Entries', matched > written ? `${written} of ${matched} (the oldest; narrow the filters for the rest)` : String(written)])}\n`;
  yield `${csvLine(['Chain', report.intact ? 'intact' : 'BROKEN'])}\n`;
  yield `${csvLine(['Chain checked', describeChainReport(report)[0]!])}\n`;
  yield `${csvLine(['Chain span', `#${report.anchorSeq + 1} to #${report.headSeq}`])}\n`;
  yield `${csvLine(['Chain head', report.headHash])}\n`;
  yield `${csvLine(['Chain anchor', report.anchorSeq > 0 ? `#${report.anchorSeq} (entries up to it deleted by retention)` : 'none'])}\n`;
  yield '\n';
  yield `${csvLine(AUDIT_CSV_COLUMNS)}\n`;
  for (let offset = 0; offset < written; offset += BATCH) {
    const rows = await db
      .select()
      .from(auditLog)
      .where(filters(query))
      .orderBy(sql`${auditLog.seq} asc nulls last`, asc(auditLog.id))
      .limit(Math.min(BATCH, written - offset))
      .offset(offset);
    if (!rows.length) return;
    yield rows
      .map(
        (r) =>
          `${csvLine([r.seq ?? null, r.id, r.at.toISOString(), r.actor, r.adminId, r.ip, r.action, r.entity, r.entityId, json(r.before), json(r.after), r.hash])}\n`,
      )
      .join('');
  }
}
