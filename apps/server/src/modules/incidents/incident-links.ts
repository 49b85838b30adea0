// An incident's links (issue 26 item 5): the alerts, prisoners and staff it names, checked to exist (and, for the
// prisoners and alerts, to be in the account's caseload: one outside it is as unknown, decision 051), stored once each,
// and taken back one at a time.
import { and, eq, inArray, sql, type SQLWrapper } from 'drizzle-orm';
import type { IncidentLinkKind as LinkKind, IncidentLinksInput } from '@prison/shared';
import type { DbOrTx } from '../../db/client';
import { alerts, incidentLinks, prisoners, staff } from '../../db/schema';
import { nobodyOrInCaseload, prisonerInCaseload, type Caseload } from '../../lib/caseload';
import { badRequest } from '../../lib/http-errors';

export type { LinkKind };

export interface CheckedLinks {
  alert: number[];
  prisoner: number[];
  staff: number[];
}

async function missing(found: Promise<{ id: number }[]>, asked: number[]): Promise<number | undefined> {
  const known = new Set((await found).map((row) => row.id));
  return asked.find((id) => !known.has(id));
}

/** Every id named exists and is seen by the account, else 400 naming the field and the first unknown id. */
export async function checkLinks(db: DbOrTx, input: IncidentLinksInput, caseload: Caseload): Promise<CheckedLinks> {
  const links: CheckedLinks = { alert: input.alert_ids ?? [], prisoner: input.prisoner_ids ?? [], staff: input.staff_ids ?? [] };
  if (links.alert.length > 0) {
    const id = await missing(
      db.select({ id: alerts.id }).from(alerts).where(and(inArray(alerts.id, links.alert), nobodyOrInCaseload(alerts.prisonerId, caseload))),
      links.alert,
    );
    if (id !== undefined) throw badRequest(`alert_ids: no alert with id ${id}`);
  }
  if (links.prisoner.length > 0) {
    const id = await missing(
      db
        .select({ id: prisoners.prisonerId })
        .from(prisoners)
        .where(and(inArray(prisoners.prisonerId, links.prisoner), prisonerInCaseload(prisoners.prisonerId, caseload))),
      links.prisoner,
    );
    if (id !== undefined) throw badRequest(`prisoner_ids: no prisoner with id ${id}`);
  }
  if (links.staff.length > 0) {
    const id = await missing(db.select({ id: staff.staffId }).from(staff).where(inArray(staff.staffId, links.staff)), links.staff);
    if (id !== undefined) throw badRequest(`staff_ids: no staff member with id ${id}`);
  }
  return links;
}

/** Stores the links not stored yet; answers how many were new. */
export async function storeLinks(tx: DbOrTx, incidentId: number, links: CheckedLinks): Promise<number> {
  const rows = (Object.keys(links) as LinkKind[]).flatMap((kind) => links[kind].map((targetId) => ({ incidentId, kind, targetId })));
  if (rows.length === 0) return 0;
  const added = await tx.insert(incidentLinks).values(rows).onConflictDoNothing().returning({ id: incidentLinks.id });
  return added.length;
}

/** The names of linked people, for the incident's own prisonerName and guardName. */
export async function personNames(db: DbOrTx, links: CheckedLinks): Promise<{ prisoners: string[]; staff: string[] }> {
  const name = (first: SQLWrapper, last: SQLWrapper) => sql<string>`trim(${first} || ' ' || ${last})`;
  const [prisonerRows, staffRows] = await Promise.all([
    links.prisoner.length === 0
      ? []
      : db.select({ name: name(prisoners.firstName, prisoners.lastName) }).from(prisoners).where(inArray(prisoners.prisonerId, links.prisoner)),
    links.staff.length === 0
      ? []
      : db.select({ name: name(staff.firstName, staff.lastName) }).from(staff).where(inArray(staff.staffId, links.staff)),
  ]);
  return { prisoners: prisonerRows.map((row) => row.name), staff: staffRows.map((row) => row.name) };
}

/** The stored links of an incident by kind. */
export async function linksOf(db: DbOrTx, incidentId: number): Promise<CheckedLinks> {
  const rows = await db.select({ kind: incidentLinks.kind, targetId: incidentLinks.targetId }).from(incidentLinks).where(eq(incidentLinks.incidentId, incidentId));
  const links: CheckedLinks = { alert: [], prisoner: [], staff: [] };
  for (const row of rows) links[row.kind as LinkKind].push(row.targetId);
  return links;
}

/**
 * Takes one link back; answers whether there was one the account sees (a prisoner or an alert outside the caseload
 * is as not linked, decision 051).
 */
export async function removeLink(tx: DbOrTx, incidentId: number, kind: LinkKind, targetId: number, caseload: Caseload): Promise<boolean> {
  const seen =
    kind === 'prisoner'
      ? prisonerInCaseload(incidentLinks.targetId, caseload)
      : kind === 'alert'
        ? sql`${incidentLinks.targetId} in (select ${alerts.id} from ${alerts} where ${alerts.id} = ${targetId} and ${nobodyOrInCaseload(alerts.prisonerId, caseload) ?? sql`true`})`
        : undefined;
  const removed = await tx
    .delete(incidentLinks)
    .where(and(eq(incidentLinks.incidentId, incidentId), eq(incidentLinks.kind, kind), eq(incidentLinks.targetId, targetId), seen))
    .returning({ id: incidentLinks.id });
  return removed.length > 0;
}
