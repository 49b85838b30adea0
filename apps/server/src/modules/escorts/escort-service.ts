// Escorts (decision 035): created, listed and ended (never deleted), each audited. The tracking core
// watches the escorts in force on live positions (tracking/escort-monitor.ts), loaded through `listLiveEscorts`.
import { prisonerInCaseload, type Caseload } from '../../lib/caseload';
import { and, desc, eq, gt, isNull, lte, or, sql, type SQL } from 'drizzle-orm';
import { ESCORT_DEFAULT_DISTANCE_M, OCCUPYING_STATUSES, type Escort, type EscortInput, type EscortQuery } from '@prison/shared';
import type { DbOrTx } from '../../db/client';
import { escorts, prisoners, staff } from '../../db/schema';
import { recordAudit, type AuditActor } from '../../lib/audit';
import { endOpenAlerts } from '../alerts/alert-store';
import { badRequest, conflict, notFound } from '../../lib/http-errors';
import type { EscortRef } from '../../tracking/escort-monitor';

/** An escort as stored; the route adds whether it is escorting now, which only the live monitor knows. */
export type EscortRecord = Omit<Escort, 'escorting' | 'not_escorting_reason'>;

/** Not ended, and not past `until` (an escort that has not begun yet is still to come). */
const notOver = (now: Date) => and(isNull(escorts.endedAt), or(isNull(escorts.until), gt(escorts.until, now)));
/** In force at `now`. */
const inForce = (now: Date) => and(notOver(now), lte(escorts.startsAt, now));

async function selectEscorts(db: DbOrTx, where: SQL | undefined, now = new Date()): Promise<EscortRecord[]> {
  const rows = await db
    .select({
      id: escorts.id,
      maxDistanceM: escorts.maxDistanceM,
      startsAt: escorts.startsAt,
      until: escorts.until,
      createdAt: escorts.createdAt,
      createdBy: escorts.createdBy,
      endedAt: escorts.endedAt,
      endedBy: escorts.endedBy,
      unmonitored: escorts.unmonitored,
      prisonerId: prisoners.prisonerId,
      prisonerFirst: prisoners.firstName,
      prisonerLast: prisoners.lastName,
      cellId: prisoners.cellId,
      staffId: staff.staffId,
      staffFirst: staff.firstName,
      staffLast: staff.lastName,
      role: staff.role,
    })
    .from(escorts)
    .innerJoin(prisoners, eq(prisoners.prisonerId, escorts.prisonerId))
    .innerJoin(staff, eq(staff.staffId, escorts.staffId))
    .where(where)
    .orderBy(sql`${escorts.endedAt} is not null`, desc(escorts.startsAt), desc(escorts.id));
  return rows.map((r) => ({
    id: r.id,
    prisoner: { prisoner_id: r.prisonerId, first_name: r.prisonerFirst, last_name: r.prisonerLast, cell_id: r.cellId },
    staff: { staff_id: r.staffId, first_name: r.staffFirst, last_name: r.staffLast, role: r.role },
    max_distance_m: r.maxDistanceM,
    from: r.startsAt.toISOString(),
    until: r.until?.toISOString() ?? null,
    created_at: r.createdAt.toISOString(),
    created_by: r.createdBy,
    ended_at: r.endedAt?.toISOString() ?? null,
    ended_by: r.endedBy,
    active: r.endedAt === null && r.startsAt <= now && (r.until === null || r.until > now),
    unmonitored: r.unmonitored,
  }));
}

/**
 * All escorts (those not ended first, newest first); `active=true`: only those in force now, `false`: the others;
 * `prisoner_id`: only that prisoner's.
 */
export async function listEscorts(db: DbOrTx, query: EscortQuery, caseload: Caseload = []): Promise<EscortRecord[]> {
  const now = new Date();
  const byState = query.active === 'true' ? inForce(now) : query.active === 'false' ? sql`not (${inForce(now)})` : undefined;
  const byPrisoner = query.prisoner_id === undefined ? undefined : eq(escorts.prisonerId, query.prisoner_id);
  return selectEscorts(db, and(byState, byPrisoner, prisonerInCaseload(escorts.prisonerId, caseload)), now);
}

async function getEscort(db: DbOrTx, id: number): Promise<EscortRecord> {
  const [found] = await selectEscorts(db, eq(escorts.id, id));
  if (!found) throw notFound(`Escort ${id} not found`);
  return found;
}

/**
 * A prisoner has one escort at a time (not ended and not past its `until`): a second one is refused (409), checked
 * under the prisoner's row lock so two at once cannot both pass. Only a prisoner in custody is escorted, and an
 * officer without a tracker only when the caller says the escort is unmonitored (it then exempts nothing, decision 037).
 */
export async function createEscort(db: DbOrTx, who: AuditActor, input: EscortInput): Promise<EscortRecord> {
  return db.transaction(async (tx) => {
    const [prisoner] = await tx
      .select({ id: prisoners.prisonerId, status: prisoners.status, archivedAt: prisoners.archivedAt })
      .from(prisoners)
      .where(eq(prisoners.prisonerId, input.prisoner_id))
      .for('update');
    if (!prisoner) throw badRequest(`prisoner_id: prisoner ${input.prisoner_id} does not exist`);
    if (prisoner.archivedAt) throw badRequest(`prisoner_id: prisoner ${input.prisoner_id} is archived`);
    if (!(OCCUPYING_STATUSES as readonly (string | null)[]).includes(prisoner.status))
      throw badRequest(`prisoner_id: prisoner ${input.prisoner_id} is ${prisoner.status ?? 'without a status'}; only a prisoner in custody (${OCCUPYING_STATUSES.join(' or ')}) can be escorted`);
    const [member] = await tx
      .select({ id: staff.staffId, trackerId: staff.trackingDeviceId, archivedAt: staff.archivedAt })
      .from(staff)
      .where(eq(staff.staffId, input.staff_id));
    if (!member) throw badRequest(`staff_id: staff member ${input.staff_id} does not exist`);
    if (member.archivedAt) throw badRequest(`staff_id: staff member ${input.staff_id} is retired`);
    if (!member.trackerId && !input.unmonitored)
      throw badRequest(
        `staff_id: staff member ${input.staff_id} wears no tracker, so the escort could not be watched; assign them a tracker, or record it as unmonitored (it then exempts the prisoner from nothing)`,
      );
    const now = new Date();
    const [existing] = await tx
      .select({ id: escorts.id })
      .from(escorts)
      .where(and(eq(escorts.prisonerId, input.prisoner_id), notOver(now)));
    if (existing) throw conflict(`Prisoner ${input.prisoner_id} is already escorted (escort ${existing.id}); end it first`);
    const [row] = await tx
      .insert(escorts)
      .values({
        prisonerId: input.prisoner_id,
        staffId: input.staff_id,
        maxDistanceM: input.max_distance_m ?? ESCORT_DEFAULT_DISTANCE_M,
        startsAt: input.from ? new Date(input.from) : now,
        until: input.until ? new Date(input.until) : null,
        createdBy: who.actor,
        unmonitored: input.unmonitored ?? false,
      })
      .returning({ id: escorts.id });
    const created = await getEscort(tx, row!.id);
    await recordAudit(tx, who, { action: 'create', entity: 'escort', entityId: created.id, after: created });
    return created;
  });
}

/**
 * Ends an escort now: who and when are kept; an ended escort cannot end again (409). An open "unescorted" alert of
 * the prisoner ends with it: nobody has to be near the officer any more (the alert itself stays to be worked).
 */
export async function endEscort(db: DbOrTx, who: AuditActor, id: number): Promise<EscortRecord> {
  return db.transaction(async (tx) => {
    const [row] = await tx.select().from(escorts).where(eq(escorts.id, id)).for('update');
    if (!row) throw notFound(`Escort ${id} not found`);
    if (row.endedAt) throw conflict(`Escort ${id} already ended on ${row.endedAt.toISOString()}`);
    const before = await getEscort(tx, id);
    const endedAt = new Date();
    await tx.update(escorts).set({ endedAt, endedBy: who.actor }).where(eq(escorts.id, id));
    const [wearer] = await tx
      .select({ deviceId: prisoners.trackingDeviceId })
      .from(prisoners)
      .where(eq(prisoners.prisonerId, row.prisonerId));
    if (wearer?.deviceId) await endOpenAlerts(tx, [wearer.deviceId], 'unescorted', endedAt);
    const after = await getEscort(tx, id);
    await recordAudit(tx, who, { action: 'end', entity: 'escort', entityId: id, before, after });
    return after;
  });
}

/** What the live monitor needs: every escort not ended and not over, with both names. */
export async function listLiveEscorts(db: DbOrTx): Promise<EscortRef[]> {
  const rows = await db
    .select({
      id: escorts.id,
      prisonerId: escorts.prisonerId,
      staffId: escorts.staffId,
      maxDistanceM: escorts.maxDistanceM,
      startsAt: escorts.startsAt,
      until: escorts.until,
      staffName: sql<string>`trim(${staff.firstName} || ' ' || ${staff.lastName})`,
      officerDeviceId: staff.trackingDeviceId,
      unmonitored: escorts.unmonitored,
    })
    .from(escorts)
    .innerJoin(staff, eq(staff.staffId, escorts.staffId))
    .where(notOver(new Date()));
  return rows.map((r) => ({
    id: r.id,
    prisonerId: r.prisonerId,
    staffId: r.staffId,
    maxDistanceM: r.maxDistanceM,
    from: r.startsAt.getTime(),
    until: r.until?.getTime() ?? null,
    staffName: r.staffName,
    officerDeviceId: r.officerDeviceId,
    unmonitored: r.unmonitored,
  }));
}
