// Incidents with a workflow: opened with a time window and links, moved reported -> investigating
// -> closed (a closed one reopened) with who and when in incident_steps, read with their steps and links. Every
// write is audited in the same transaction.
import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import {
  INCIDENT_STATUS_LABELS,
  INCIDENT_TRANSITIONS,
  type IncidentDetail,
  type IncidentLinksInput,
  type IncidentOpenInput,
  type IncidentStatus,
  type IncidentStatusInput,
  type IncidentSummary,
} from '@prison/shared';
import type { DbOrTx } from '../../db/client';
import { alerts, incidentSteps, incidents, prisoners, staff } from '../../db/schema';
import { recordAudit, type AuditActor } from '../../lib/audit';
import { incidentInCaseload, nobodyOrInCaseload, prisonerInCaseload, type Caseload } from '../../lib/caseload';
import { badRequest, conflict, notFound } from '../../lib/http-errors';
import { acknowledgeCriticalsForIncident } from '../alerts/workflow-service';
import { NO_PRISONER_NAMED, caseloadPrisonerNames, checkLinks, linksOf, listed, personNames, removeLink, storeLinks, type LinkKind } from './incident-links';

const summaryColumns = {
  id: incidents.id,
  prisonerName: incidents.prisonerName,
  guardName: incidents.guardName,
  date: incidents.date,
  time: incidents.time,
  description: incidents.description,
  actionTaken: incidents.actionTaken,
  status: incidents.status,
  windowFrom: incidents.windowFrom,
  windowTo: incidents.windowTo,
};

interface SummaryRow {
  id: number;
  prisonerName: string;
  guardName: string;
  date: string;
  time: string;
  description: string;
  actionTaken: string;
  status: string;
  windowFrom: Date | null;
  windowTo: Date | null;
}

function toSummary({ windowFrom, windowTo, ...row }: SummaryRow): IncidentSummary {
  return {
    ...row,
    status: row.status as IncidentStatus,
    window: windowFrom && windowTo ? { from: windowFrom.toISOString(), to: windowTo.toISOString() } : null,
  };
}

const pad = (n: number) => String(n).padStart(2, '0');
/** The incident's date and time (the spec's fields) are when its window starts, on the prison's clock (TZ). */
const localDate = (at: Date) => `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}`;
const localTime = (at: Date) => `${pad(at.getHours())}:${pad(at.getMinutes())}`;

/**
 * Opens an incident; the open Critical alerts it links are acknowledged in the same transaction with the incident as
 * their note (decision 105). Answers the incident and the ids of the alerts so acknowledged.
 */
export async function openIncident(
  db: DbOrTx,
  who: AuditActor & { name: string },
  input: IncidentOpenInput,
  caseload: Caseload,
): Promise<{ incident: IncidentDetail; acknowledged: number[] }> {
  const links = await checkLinks(db, input, caseload);
  const names = await personNames(db, links);
  const from = new Date(input.window.from);
  const { id, acknowledged } = await db.transaction(async (tx) => {
    const [created] = await tx
      .insert(incidents)
      .values({
        prisonerName: listed(names.prisoners, NO_PRISONER_NAMED),
        guardName: listed(names.staff, who.name),
        date: localDate(from),
        time: localTime(from),
        description: input.description,
        actionTaken: 'Under investigation',
        status: 'reported',
        windowFrom: from,
        windowTo: new Date(input.window.to),
      })
      .returning(summaryColumns);
    const incidentId = created!.id;
    await tx.insert(incidentSteps).values({ incidentId, status: 'reported', adminId: who.adminId, actor: who.actor });
    await storeLinks(tx, incidentId, links);
    await recordAudit(tx, who, {
      action: 'create',
      entity: 'incident',
      entityId: incidentId,
      after: { ...toSummary(created!), alert_ids: links.alert, prisoner_ids: links.prisoner, staff_ids: links.staff },
    });
    const acknowledged =
      who.adminId === null ? [] : await acknowledgeCriticalsForIncident(tx, links.alert, incidentId, { adminId: who.adminId, caseload }, who);
    return { id: incidentId, acknowledged };
  });
  return { incident: await getIncident(db, id, caseload), acknowledged };
}

export async function changeIncidentStatus(
  db: DbOrTx,
  who: AuditActor,
  id: number,
  input: IncidentStatusInput,
  caseload: Caseload,
): Promise<IncidentDetail> {
  await db.transaction(async (tx) => {
    const [current] = await tx.select({ status: incidents.status }).from(incidents).where(eq(incidents.id, id)).for('update');
    if (!current) throw notFound(`No incident with id ${id}`);
    const from = current.status as IncidentStatus;
    if (from === input.status) throw conflict(`status: the incident is already ${INCIDENT_STATUS_LABELS[from].toLowerCase()}`);
    if (!INCIDENT_TRANSITIONS[from].includes(input.status)) {
      throw conflict(`status: a ${INCIDENT_STATUS_LABELS[from].toLowerCase()} incident cannot move to ${input.status}`);
    }
    await tx.update(incidents).set({ status: input.status }).where(eq(incidents.id, id));
    await tx.insert(incidentSteps).values({ incidentId: id, status: input.status, adminId: who.adminId, actor: who.actor, note: input.note ?? null });
    await recordAudit(tx, who, {
      action: 'status',
      entity: 'incident',
      entityId: id,
      before: { status: from },
      after: { status: input.status, note: input.note ?? null },
    });
  });
  return getIncident(db, id, caseload);
}

export async function linkToIncident(
  db: DbOrTx,
  who: AuditActor,
  id: number,
  input: IncidentLinksInput,
  caseload: Caseload,
): Promise<IncidentDetail> {
  if ((input.alert_ids?.length ?? 0) + (input.prisoner_ids?.length ?? 0) + (input.staff_ids?.length ?? 0) === 0) {
    throw badRequest('body: name at least one of alert_ids, prisoner_ids or staff_ids');
  }
  const [known] = await db.select({ id: incidents.id }).from(incidents).where(eq(incidents.id, id));
  if (!known) throw notFound(`No incident with id ${id}`);
  const links = await checkLinks(db, input, caseload);
  await db.transaction(async (tx) => {
    const added = await storeLinks(tx, id, links);
    if (added === 0) return;
    await recordAudit(tx, who, {
      action: 'link',
      entity: 'incident',
      entityId: id,
      after: { alert_ids: links.alert, prisoner_ids: links.prisoner, staff_ids: links.staff },
    });
  });
  return getIncident(db, id, caseload);
}

/** Takes back one link made by mistake (audited); a closed incident keeps its links until it is reopened. */
export async function unlinkFromIncident(
  db: DbOrTx,
  who: AuditActor,
  id: number,
  kind: LinkKind,
  targetId: number,
  caseload: Caseload,
): Promise<IncidentDetail> {
  await db.transaction(async (tx) => {
    const [current] = await tx.select({ status: incidents.status }).from(incidents).where(eq(incidents.id, id)).for('update');
    if (!current) throw notFound(`No incident with id ${id}`);
    if (current.status === 'closed') throw conflict('status: a closed incident keeps its links; reopen it first');
    if (!(await removeLink(tx, id, kind, targetId, caseload))) throw notFound(`No ${kind} ${targetId} is linked to incident ${id}`);
    // Its last prisoner of the caseload taken back while it names others: it would leave the caseload under the
    // account's hands (decision 093); an account of their blocks, or of every block, takes it back.
    const [stillSeen] = await tx
      .select({ id: incidents.id })
      .from(incidents)
      .where(and(eq(incidents.id, id), incidentInCaseload(incidents.id, incidents.windowFrom, caseload)));
    if (!stillSeen) throw conflict(`target_id: incident ${id} names prisoners of other blocks too; it would no longer be one of yours`);
    await recordAudit(tx, who, { action: 'unlink', entity: 'incident', entityId: id, before: { kind, target_id: targetId } });
  });
  return getIncident(db, id, caseload);
}

/** The incidents the caseload sees (decision 093), each named by the caseload's own prisoners only. */
export async function listIncidents(db: DbOrTx, status: IncidentStatus | undefined, limit: number, caseload: Caseload = []): Promise<IncidentSummary[]> {
  const rows = await db
    .select(summaryColumns)
    .from(incidents)
    .where(and(status ? eq(incidents.status, status) : undefined, incidentInCaseload(incidents.id, incidents.windowFrom, caseload)))
    .orderBy(desc(incidents.createdAt), desc(incidents.id))
    .limit(limit);
  const names = await caseloadPrisonerNames(db, rows.map((row) => row.id), caseload);
  return rows.map((row) => toSummary(names ? { ...row, prisonerName: names.get(row.id)! } : row));
}

/**
 * The incident with its steps and links; one the caseload does not see is unknown, and linked prisoners and alerts
 * outside the caseload are left out, its `prisonerName` too (decisions 051 and 093).
 */
export async function getIncident(db: DbOrTx, id: number, caseload: Caseload): Promise<IncidentDetail> {
  const [found] = await db
    .select(summaryColumns)
    .from(incidents)
    .where(and(eq(incidents.id, id), incidentInCaseload(incidents.id, incidents.windowFrom, caseload)));
  if (!found) throw notFound(`No incident with id ${id}`);
  const names = await caseloadPrisonerNames(db, [id], caseload);
  const row = names ? { ...found, prisonerName: names.get(id)! } : found;
  const links = await linksOf(db, id);
  const name = sql<string>`trim(${prisoners.firstName} || ' ' || ${prisoners.lastName})`;
  const staffName = sql<string>`trim(${staff.firstName} || ' ' || ${staff.lastName})`;
  const [steps, alertRows, prisonerRows, staffRows] = await Promise.all([
    db
      .select({ status: incidentSteps.status, at: incidentSteps.at, by: incidentSteps.actor, note: incidentSteps.note })
      .from(incidentSteps)
      .where(eq(incidentSteps.incidentId, id))
      .orderBy(asc(incidentSteps.at), asc(incidentSteps.id)),
    links.alert.length === 0
      ? []
      : db
          .select({ id: alerts.id, alert_type: alerts.alertType, details: alerts.details, timestamp: alerts.timestamp, prisoner_id: alerts.prisonerId })
          .from(alerts)
          .where(and(inArray(alerts.id, links.alert), nobodyOrInCaseload(alerts.prisonerId, caseload)))
          .orderBy(asc(alerts.timestamp)),
    links.prisoner.length === 0
      ? []
      : db
          .select({ id: prisoners.prisonerId, name })
          .from(prisoners)
          .where(and(inArray(prisoners.prisonerId, links.prisoner), prisonerInCaseload(prisoners.prisonerId, caseload)))
          .orderBy(asc(name)),
    links.staff.length === 0
      ? []
      : db.select({ id: staff.staffId, name: staffName }).from(staff).where(inArray(staff.staffId, links.staff)).orderBy(asc(staffName)),
  ]);
  return {
    ...toSummary(row),
    steps: steps.map((step) => ({ status: step.status as IncidentStatus, at: step.at.toISOString(), by: step.by, note: step.note })),
    alerts: alertRows.map((alert) => ({ ...alert, timestamp: alert.timestamp.toISOString() })),
    prisoners: prisonerRows,
    staff: staffRows,
  };
}
