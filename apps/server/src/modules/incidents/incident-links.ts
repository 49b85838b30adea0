// An incident's links: the alerts, prisoners and staff it names, checked to exist (and, for the
// prisoners and alerts, to be in the account's caseload: one outside it is as unknown, decision 051), stored once each,
// and taken back one at a time; and the prisoners' names a caseload is shown (decision 093).
import { and, asc, eq, inArray, isNull, sql, type SQLWrapper } from 'drizzle-orm';
import { seesEveryBlock, type IncidentLinkKind as LinkKind, type IncidentLinksInput } from '@prison/shared';
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

/** Names for the spec's text fields, so the home page's card reads well: "A, B and 2 more". */
export function listed(names: string[], none: string): string {
  if (names.length === 0) return none;
  if (names.length <= 2) return names.join(' and ');
  return `${names.slice(0, 2).join(', ')} and ${names.length - 2} more`;
}

/** What `prisonerName` says when an incident's links name no prisoner. */
export const NO_PRISONER_NAMED = 'No prisoner named';

const fullName = (first: SQLWrapper, last: SQLWrapper) => sql<string>`trim(${first} || ' ' || ${last})`;

/**
 * The `prisonerName` a caseload is shown for each of these incidents (decision 093): its linked prisoners of the
 * caseload only, by name; none for every block (the stored text stands, as the spec's client reads it).
 */
export async function caseloadPrisonerNames(db: DbOrTx, incidentIds: number[], caseload: Caseload): Promise<Map<number, string> | null> {
  if (seesEveryBlock(caseload)) return null;
  const name = fullName(prisoners.firstName, prisoners.lastName);
  const rows =
    incidentIds.length === 0
      ? []
      : await db
          .select({ incidentId: incidentLinks.incidentId, name })
          .from(incidentLinks)
          .innerJoin(prisoners, eq(prisoners.prisonerId, incidentLinks.targetId))
          .where(
            and(
              inArray(incidentLinks.incidentId, incidentIds),
              eq(incidentLinks.kind, 'prisoner'),
              prisonerInCaseload(prisoners.prisonerId, caseload),
            ),
          )
          .orderBy(asc(name), asc(prisoners.prisonerId));
  const names = new Map<number, string[]>();
  for (const row of rows) names.set(row.incidentId, [...(names.get(row.incidentId) ?? []), row.name]);
  return new Map(incidentIds.map((id) => [id, listed(names.get(id) ?? [], NO_PRISONER_NAMED)]));
}

/**
 * The one prisoner in custody whose full name is this text (any case), or null when none or several are: an incident
 * recorded with its prisoner in words is linked to him, so it reaches his block's caseload (decision 093).
 */
export async function prisonerNamed(db: DbOrTx, text: string): Promise<number | null> {
  const rows = await db
    .select({ id: prisoners.prisonerId })
    .from(prisoners)
    .where(and(isNull(prisoners.archivedAt), sql`lower(${fullName(prisoners.firstName, prisoners.lastName)}) = lower(${text.trim()})`))
    .limit(2);
  return rows.length === 1 ? rows[0]!.id : null;
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
  const name = fullName;
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
