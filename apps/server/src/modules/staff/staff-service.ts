// Police officers and guards: one table, `role` says which (docs/CLIENT-CONTRACT.md).
import { and, desc, eq, ilike, isNotNull, isNull, ne, or, sql, type SQL } from 'drizzle-orm';
import type { StaffInput, StaffListQuery, StaffMember, StaffRole } from '@prison/shared';
import { totalPages } from '@prison/shared';
import type { DbOrTx } from '../../db/client';
import { escorts, geofenceStates, positions, staff } from '../../db/schema';
import { recordAudit, type AuditActor } from '../../lib/audit';
import { conflict, notFound } from '../../lib/http-errors';
import { containsPattern, startsWithPattern } from '../../lib/like-patterns';

export const STAFF_DELETED_MESSAGE = 'Staff member deleted successfully.';

const staffColumns = {
  staff_id: staff.staffId,
  first_name: staff.firstName,
  last_name: staff.lastName,
  role: staff.role,
  badge_number: staff.badgeNumber,
  rank: staff.rank,
  department: staff.department,
  contact_info: staff.contactInfo,
  archived_at: staff.archivedAt,
  archived_by: staff.archivedBy,
  created_at: staff.createdAt,
  updated_at: staff.updatedAt,
};

type StaffRow = Omit<StaffMember, 'role' | 'archived_at' | 'created_at' | 'updated_at'> & {
  role: string;
  archived_at: Date | null;
  created_at: Date;
  updated_at: Date;
};

function toStaffMember(row: StaffRow): StaffMember {
  return {
    ...row,
    role: row.role as StaffRole,
    archived_at: row.archived_at?.toISOString() ?? null,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

function listConditions(role: StaffRole, query: StaffListQuery): SQL {
  // Retired members (decision 042) only in the "archived" list, never in the others or the pickers built on them.
  const conditions: SQL[] = [
    eq(staff.role, role),
    query.archived === 'true' ? isNotNull(staff.archivedAt) : isNull(staff.archivedAt),
  ];
  if (query.q) {
    const pattern = containsPattern(query.q);
    conditions.push(
      or(
        ilike(staff.firstName, pattern),
        ilike(staff.lastName, pattern),
        ilike(sql`${staff.firstName} || ' ' || ${staff.lastName}`, pattern),
        ilike(staff.badgeNumber, pattern),
        ilike(staff.rank, pattern),
        ilike(staff.department, pattern),
        ilike(staff.contactInfo, pattern),
      )!,
    );
  }
  // Name filters match from the start of the name, like the prisoner filters.
  if (query.firstName) conditions.push(ilike(staff.firstName, startsWithPattern(query.firstName)));
  if (query.lastName) conditions.push(ilike(staff.lastName, startsWithPattern(query.lastName)));
  // For guards the UI's "role" filter (Security, Supervisor) arrives here as rank.
  if (query.rank) conditions.push(ilike(staff.rank, containsPattern(query.rank)));
  if (query.department) conditions.push(eq(staff.department, query.department));
  if (query.badgeNumber) conditions.push(ilike(staff.badgeNumber, startsWithPattern(query.badgeNumber)));
  return and(...conditions)!;
}

export async function listStaffPage(db: DbOrTx, role: StaffRole, query: StaffListQuery) {
  const where = listConditions(role, query);
  const [rows, [counted]] = await Promise.all([
    db
      .select(staffColumns)
      .from(staff)
      .where(where)
      .orderBy(desc(staff.createdAt), desc(staff.staffId))
      .limit(query.limit)
      .offset((query.page - 1) * query.limit),
    db
      .select({ n: sql<number>`count(*)::int` })
      .from(staff)
      .where(where),
  ]);
  const total = Number(counted?.n ?? 0);
  return {
    staffMembers: rows.map(toStaffMember),
    currentPage: query.page,
    totalPages: totalPages(total, query.limit),
    totalStaff: total,
  };
}

async function findStaffMember(db: DbOrTx, staffId: number): Promise<StaffMember | null> {
  const [row] = await db.select(staffColumns).from(staff).where(eq(staff.staffId, staffId));
  return row ? toStaffMember(row) : null;
}

export async function getStaffMember(db: DbOrTx, staffId: number): Promise<StaffMember> {
  const found = await findStaffMember(db, staffId);
  if (!found) throw notFound(`Staff member ${staffId} not found`);
  return found;
}

const badgeInUse = (badge: string) => conflict(`badge_number: ${badge} is already in use`);

async function checkBadgeFree(db: DbOrTx, badge: string, exceptStaffId?: number) {
  const taken = await db
    .select({ id: staff.staffId })
    .from(staff)
    .where(
      exceptStaffId
        ? and(eq(staff.badgeNumber, badge), ne(staff.staffId, exceptStaffId))
        : eq(staff.badgeNumber, badge),
    );
  if (taken.length > 0) throw badgeInUse(badge);
}

/** Two writes racing for one badge: the unique index refuses the second; answer it as the check would. */
async function withBadgeConflict<T>(badge: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause ?? error;
    if ((cause as { code?: string }).code === '23505') throw badgeInUse(badge);
    throw error;
  }
}

function toColumns(input: StaffInput) {
  return {
    firstName: input.first_name,
    lastName: input.last_name,
    role: input.role,
    badgeNumber: input.badge_number,
    rank: input.rank || null,
    department: input.department ?? null,
    contactInfo: input.contact_info || null,
  };
}

export async function createStaffMember(db: DbOrTx, who: AuditActor, input: StaffInput): Promise<StaffMember> {
  return withBadgeConflict(input.badge_number, () =>
    db.transaction(async (tx) => {
      await checkBadgeFree(tx, input.badge_number);
      const [row] = await tx.insert(staff).values(toColumns(input)).returning({ id: staff.staffId });
      const created = (await findStaffMember(tx, row!.id))!;
      await recordAudit(tx, who, { action: 'create', entity: 'staff', entityId: created.staff_id, after: created });
      return created;
    }),
  );
}

export async function updateStaffMember(
  db: DbOrTx,
  who: AuditActor,
  staffId: number,
  input: StaffInput,
): Promise<StaffMember> {
  return withBadgeConflict(input.badge_number, () =>
    db.transaction(async (tx) => {
      const before = await findStaffMember(tx, staffId);
      if (!before) throw notFound(`Staff member ${staffId} not found`);
      if (before.archived_at) throw conflict(`Staff member ${staffId} is retired: restore the record before changing it`);
      await checkBadgeFree(tx, input.badge_number, staffId);
      await tx
        .update(staff)
        .set({ ...toColumns(input), updatedAt: new Date() })
        .where(eq(staff.staffId, staffId));
      const after = (await findStaffMember(tx, staffId))!;
      await recordAudit(tx, who, { action: 'update', entity: 'staff', entityId: staffId, before, after });
      return after;
    }),
  );
}

/**
 * The spec's staff Delete (decision 042). A member with history (any escort, or a tracker with stored fixes) is
 * retired: archived, tracker unassigned, escorts kept with their officer. One without history is deleted. One who
 * escorts a prisoner now is refused: ending that escort is the operator's decision. Answers what happened and the
 * tracker freed, so the route can tell the live registry.
 */
export async function deleteStaffMember(
  db: DbOrTx,
  who: AuditActor,
  staffId: number,
): Promise<{ retired: boolean; freedDevice: string | null }> {
  return db.transaction(async (tx) => {
    const [row] = await tx.select().from(staff).where(eq(staff.staffId, staffId)).for('update');
    if (!row) throw notFound(`Staff member ${staffId} not found`);
    if (row.archivedAt) throw conflict(`Staff member ${staffId} is already retired`);
    const before = (await findStaffMember(tx, staffId))!;
    const escortRows = await tx
      .select({ ended: escorts.endedAt })
      .from(escorts)
      .where(eq(escorts.staffId, staffId));
    if (escortRows.some((e) => e.ended === null)) {
      throw conflict(`Staff member ${staffId} is escorting a prisoner: end the escort first`);
    }
    const device = row.trackingDeviceId;
    const [fix] = device
      ? await tx.select({ at: positions.recordedAt }).from(positions).where(eq(positions.deviceId, device)).limit(1)
      : [];
    if (escortRows.length === 0 && !fix) {
      await tx.delete(staff).where(eq(staff.staffId, staffId));
      await recordAudit(tx, who, { action: 'delete', entity: 'staff', entityId: staffId, before });
      return { retired: false, freedDevice: device };
    }
    await tx
      .update(staff)
      .set({ archivedAt: new Date(), archivedBy: who.actor, trackingDeviceId: null, updatedAt: new Date() })
      .where(eq(staff.staffId, staffId));
    if (device) await tx.delete(geofenceStates).where(eq(geofenceStates.deviceId, device));
    const after = (await findStaffMember(tx, staffId))!;
    await recordAudit(tx, who, { action: 'retire', entity: 'staff', entityId: staffId, before, after });
    return { retired: true, freedDevice: device };
  });
}

/** Brings a retired member back into the lists (without their former tracker). */
export async function restoreStaffMember(db: DbOrTx, who: AuditActor, staffId: number): Promise<StaffMember> {
  return db.transaction(async (tx) => {
    const [row] = await tx.select().from(staff).where(eq(staff.staffId, staffId)).for('update');
    if (!row) throw notFound(`Staff member ${staffId} not found`);
    if (!row.archivedAt) throw conflict(`Staff member ${staffId} is not retired`);
    const before = (await findStaffMember(tx, staffId))!;
    await tx.update(staff).set({ archivedAt: null, archivedBy: null, updatedAt: new Date() }).where(eq(staff.staffId, staffId));
    const after = (await findStaffMember(tx, staffId))!;
    await recordAudit(tx, who, { action: 'restore', entity: 'staff', entityId: staffId, before, after });
    return after;
  });
}
