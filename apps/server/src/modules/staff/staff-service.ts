// Police officers and guards: one table, `role` says which (DECISIONS.md item 10).
import { and, desc, eq, ilike, ne, or, sql, type SQL } from 'drizzle-orm';
import type { StaffInput, StaffListQuery, StaffMember, StaffRole } from '@prison/shared';
import { totalPages } from '@prison/shared';
import type { DbOrTx } from '../../db/client';
import { staff } from '../../db/schema';
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
  created_at: staff.createdAt,
  updated_at: staff.updatedAt,
};

type StaffRow = Omit<StaffMember, 'role' | 'created_at' | 'updated_at'> & {
  role: string;
  created_at: Date;
  updated_at: Date;
};

function toStaffMember(row: StaffRow): StaffMember {
  return {
    ...row,
    role: row.role as StaffRole,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

function listConditions(role: StaffRole, query: StaffListQuery): SQL {
  const conditions: SQL[] = [eq(staff.role, role)];
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

export async function deleteStaffMember(db: DbOrTx, who: AuditActor, staffId: number): Promise<void> {
  await db.transaction(async (tx) => {
    const before = await findStaffMember(tx, staffId);
    if (!before) throw notFound(`Staff member ${staffId} not found`);
    await tx.delete(staff).where(eq(staff.staffId, staffId));
    await recordAudit(tx, who, { action: 'delete', entity: 'staff', entityId: staffId, before });
  });
}
