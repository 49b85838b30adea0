// Incidents of the home page's "Recent Incidents" (DECISIONS.md item 14): stored, newest first by date and time.
import { desc } from 'drizzle-orm';
import type { Incident, IncidentInput } from '@prison/shared';
import type { DbOrTx } from '../../db/client';
import { incidents } from '../../db/schema';
import { recordAudit, type AuditActor } from '../../lib/audit';

const incidentColumns = {
  id: incidents.id,
  prisonerName: incidents.prisonerName,
  guardName: incidents.guardName,
  date: incidents.date,
  time: incidents.time,
  description: incidents.description,
  actionTaken: incidents.actionTaken,
};

export async function listRecentIncidents(db: DbOrTx, limit: number): Promise<Incident[]> {
  return db
    .select(incidentColumns)
    .from(incidents)
    .orderBy(desc(incidents.date), desc(incidents.time), desc(incidents.id))
    .limit(limit);
}

export async function createIncident(db: DbOrTx, who: AuditActor, input: IncidentInput): Promise<Incident> {
  return db.transaction(async (tx) => {
    const [created] = await tx.insert(incidents).values(input).returning(incidentColumns);
    await recordAudit(tx, who, { action: 'create', entity: 'incident', entityId: created!.id, after: created });
    return created!;
  });
}
