// Starting controlled movements (decisions 064 and 099): checks who and where, records each prisoner's
// leg with the geofences he is in now (his origin), audited in the same transaction; ending or cancelling one.
import { and, eq, inArray, isNull } from 'drizzle-orm';
import { OCCUPYING_STATUSES, type Movement, type MovementInput } from '@prison/shared';
import type { DbOrTx } from '../../db/client';
import { movementPrisoners, movements, prisoners, staff } from '../../db/schema';
import { recordAudit, type AuditActor } from '../../lib/audit';
import { prisonerInCaseloadOrTrue, type Caseload } from '../../lib/caseload';
import { badRequest, conflict, notFound } from '../../lib/http-errors';
import { checkPlaces } from './movement-destination';
import { selectMovements } from './movement-repository';

/** Where a prisoner's tracker last was, as geofence ids (null: no position known). */
export type OriginOf = (deviceId: string | null) => string[] | null;

export async function startMovement(db: DbOrTx, who: AuditActor, input: MovementInput, caseload: Caseload, originOf: OriginOf, timeZone: string): Promise<Movement> {
  return db.transaction(async (tx) => {
    const { destination, via, closed } = await checkPlaces(tx, input, timeZone);
    if (input.escort_staff_id != null) {
      const [member] = await tx.select({ archivedAt: staff.archivedAt }).from(staff).where(eq(staff.staffId, input.escort_staff_id));
      if (!member) throw badRequest(`escort_staff_id: staff member ${input.escort_staff_id} does not exist`);
      if (member.archivedAt) throw badRequest(`escort_staff_id: staff member ${input.escort_staff_id} is retired`);
    }
    // A prisoner outside the caseload is answered as one that does not exist (decision 051).
    const found = await tx
      .select({ id: prisoners.prisonerId, status: prisoners.status, deviceId: prisoners.trackingDeviceId })
      .from(prisoners)
      .where(and(inArray(prisoners.prisonerId, input.prisoner_ids), isNull(prisoners.archivedAt), prisonerInCaseloadOrTrue(prisoners.prisonerId, caseload)));
    const byId = new Map(found.map((p) => [p.id, p]));
    for (const id of input.prisoner_ids) {
      const prisoner = byId.get(id);
      if (!prisoner) throw badRequest(`prisoner_ids: prisoner ${id} does not exist`);
      if (!(OCCUPYING_STATUSES as readonly (string | null)[]).includes(prisoner.status))
        throw badRequest(`prisoner_ids: prisoner ${id} is ${prisoner.status ?? 'without a status'}; only a prisoner in custody (${OCCUPYING_STATUSES.join(' or ')}) is moved`);
    }
    const [row] = await tx
      .insert(movements)
      .values({
        destinationGeofenceId: destination.id,
        destinationName: destination.name,
        dueBy: new Date(input.due_by),
        escortStaffId: input.escort_staff_id ?? null,
        createdBy: who.actor,
        viaGeofenceIds: via.map((zone) => zone.id),
        // A reason given for an open destination is not needed, so not kept.
        closedReason: closed ? input.reason! : null,
      })
      .returning({ id: movements.id });
    await tx.insert(movementPrisoners).values(
      input.prisoner_ids.map((prisonerId) => ({
        movementId: row!.id,
        prisonerId,
        originGeofenceIds: originOf(byId.get(prisonerId)!.deviceId)?.filter((id) => id !== destination.id) ?? null,
      })),
    );
    const [created] = await selectMovements(tx, { ids: [row!.id] });
    await recordAudit(tx, who, { action: 'create', entity: 'movement', entityId: created!.id, after: created });
    return created!;
  });
}

/**
 * Ends a movement (the prisoners are back) or cancels it: from then on its zones alarm for them again. One outside the
 * caseload (none of its prisoners is the caseload's) is answered as one that does not exist.
 */
export async function endMovement(db: DbOrTx, who: AuditActor, id: number, cancel: boolean, caseload: Caseload, now = new Date()): Promise<Movement> {
  return db.transaction(async (tx) => {
    const [visible] = await selectMovements(tx, { ids: [id], caseload });
    if (!visible) throw notFound(`Movement ${id} not found`);
    const [row] = await tx.select({ endedAt: movements.endedAt, cancelled: movements.cancelled }).from(movements).where(eq(movements.id, id)).for('update');
    if (row!.endedAt) throw conflict(`Movement ${id} was ${row!.cancelled ? 'cancelled' : 'ended'} already`);
    await tx.update(movements).set({ endedAt: now, endedBy: who.actor, cancelled: cancel }).where(eq(movements.id, id));
    const [after] = await selectMovements(tx, { ids: [id], caseload });
    await recordAudit(tx, who, { action: cancel ? 'cancel' : 'end', entity: 'movement', entityId: id, before: visible, after });
    return after!;
  });
}
