// A log entry's links: the prisoners, alerts and incidents it is about, checked to exist within the author's caseload
// when written, and named for a reader within the reader's caseload (a link outside it is left out, as unknown).
import { and, inArray } from 'drizzle-orm';
import type { MessageInput, MessageLink, MessageLinkKind } from '@prison/shared';
import type { DbOrTx } from '../../db/client';
import { alerts, incidents, messageLinks, prisoners } from '../../db/schema';
import { incidentInCaseload, nobodyOrInCaseload, prisonerInCaseload, type Caseload } from '../../lib/caseload';
import { badRequest } from '../../lib/http-errors';

const FIELDS: Record<MessageLinkKind, 'prisoner_ids' | 'alert_ids' | 'incident_ids'> = {
  prisoner: 'prisoner_ids',
  alert: 'alert_ids',
  incident: 'incident_ids',
};

const NOUN: Record<MessageLinkKind, string> = { prisoner: 'prisoner', alert: 'alert', incident: 'incident' };

const shortened = (text: string, max = 60) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** The records of one kind among `ids` the caseload sees, with their names. */
async function named(db: DbOrTx, kind: MessageLinkKind, ids: number[], caseload: Caseload): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  switch (kind) {
    case 'prisoner': {
      const rows = await db
        .select({ id: prisoners.prisonerId, number: prisoners.prisonNumber, first: prisoners.firstName, last: prisoners.lastName })
        .from(prisoners)
        .where(and(inArray(prisoners.prisonerId, ids), prisonerInCaseload(prisoners.prisonerId, caseload)));
      return new Map(rows.map((r) => [r.id, `${r.number} ${r.first} ${r.last}`]));
    }
    case 'alert': {
      const rows = await db
        .select({ id: alerts.id, level: alerts.alertType, details: alerts.details })
        .from(alerts)
        .where(and(inArray(alerts.id, ids), nobodyOrInCaseload(alerts.prisonerId, caseload)));
      return new Map(rows.map((r) => [r.id, shortened(`${r.level} alert #${r.id}: ${r.details ?? ''}`.replace(/: $/, ''))]));
    }
    case 'incident': {
      const rows = await db
        .select({ id: incidents.id, description: incidents.description })
        .from(incidents)
        .where(and(inArray(incidents.id, ids), incidentInCaseload(incidents.id, incidents.windowFrom, caseload)));
      return new Map(rows.map((r) => [r.id, shortened(`Incident #${r.id}: ${r.description}`)]));
    }
  }
}

/** The links of a new entry: every id names a record the author's caseload sees, else 400 naming the field and id. */
export async function checkedLinks(db: DbOrTx, input: MessageInput, caseload: Caseload) {
  const rows: { kind: MessageLinkKind; targetId: number }[] = [];
  for (const kind of Object.keys(FIELDS) as MessageLinkKind[]) {
    const ids = [...new Set(input[FIELDS[kind]])];
    const known = await named(db, kind, ids, caseload);
    const unknown = ids.find((id) => !known.has(id));
    if (unknown !== undefined) throw badRequest(`${FIELDS[kind]}: no ${NOUN[kind]} with id ${unknown}`);
    rows.push(...ids.map((targetId) => ({ kind, targetId })));
  }
  return rows;
}

/** The links of these entries a reader's caseload sees, named, per entry id. */
export async function linksOf(db: DbOrTx, messageIds: number[], caseload: Caseload): Promise<Map<number, MessageLink[]>> {
  const result = new Map<number, MessageLink[]>();
  if (messageIds.length === 0) return result;
  const rows = await db.select().from(messageLinks).where(inArray(messageLinks.messageId, messageIds));
  const names = new Map<MessageLinkKind, Map<number, string>>();
  for (const kind of Object.keys(FIELDS) as MessageLinkKind[]) {
    const ids = [...new Set(rows.filter((r) => r.kind === kind).map((r) => r.targetId))];
    names.set(kind, await named(db, kind, ids, caseload));
  }
  for (const row of rows) {
    const label = names.get(row.kind)?.get(row.targetId);
    if (label === undefined) continue;
    const list = result.get(row.messageId) ?? [];
    list.push({ kind: row.kind, id: row.targetId, label });
    result.set(row.messageId, list);
  }
  return result;
}
