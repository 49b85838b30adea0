// Incidents of the home page's "Recent Incidents" (docs/CLIENT-CONTRACT.md): stored, newest first by date and time. A
// caseload sees only the incidents about its prisoners, named by its own prisoners only (decision 093).
import { and, desc } from 'drizzle-orm';
import type { Incident, IncidentInput } from '@prison/shared';
import type { DbOrTx } from '../../db/client';
import { incidentLinks, incidents } from '../../db/schema';
import { recordAudit, type AuditActor } from '../../lib/audit';
import { incidentInCaseload, type Caseload } from '../../lib/caseload';
import { caseloadPrisonerNames, prisonerNamed } from './incident-links';

const incidentColumns = {
  id: incidents.id,
  prisonerName: incidents.prisonerName,
  guardName: incidents.guardName,
  date: incidents.date,
  time: incidents.time,
  description: incidents.description,
  actionTaken: incidents.actionTaken,
};

export async function listRecentIncidents(db: DbOrTx, limit: number, caseload: Caseload = []): Promise<Incident[]> {
  const rows = await db
    .select(incidentColumns)
    .from(incidents)
    .where(and(incidentInCaseload(incidents.id, incidents.windowFrom, caseload)))
    .orderBy(desc(incidents.date), desc(incidents.time), desc(incidents.id))
    .limit(limit);
  const names = await caseloadPrisonerNames(db, rows.map((row) => row.id), caseload);
  return names ? rows.map((row) => ({ ...row, prisonerName: names.get(row.id)! })) : rows;
}

/**
 * Records an incident as the spec's client sends it, its prisoner in words; when the words are the full name of
 * exactly one prisoner in custody, the incident is linked to him, so his block's caseload sees it (decision 093).
 */
export async function createIncident(db: DbOrTx, who: AuditActor, input: IncidentInput): Promise<Incident> {
  return db.transaction(async (tx) => {
    const [created] = await tx.insert(incidents).values(input).returning(incidentColumns);
    const prisonerId = await prisonerNamed(tx, input.prisonerName);
    if (prisonerId !== null) await tx.insert(incidentLinks).values({ incidentId: created!.id, kind: 'prisoner', targetId: prisonerId });
    await recordAudit(tx, who, {
      action: 'create',
      entity: 'incident',
      entityId: created!.id,
      after: { ...created, prisoner_ids: prisonerId === null ? [] : [prisonerId] },
    });
    return created!;
  });
}
