// Managing the accounts: create with a role and a caseload, change them, disable (their sessions end at once),
// enable, and lift a login lockout. The last active administrator can be neither demoted nor disabled. A new
// administrator, or an account raised to administrator, takes effect when a second administrator approves; who made
// an account what it is is recorded for the two-person rule (decision 091).
import { and, count, desc, eq, gt, inArray, isNull, ne, sql } from 'drizzle-orm';
import {
  NEEDS_BLOCKS_MESSAGE,
  roleNeedsBlocks,
  type AdminAccount,
  type AdminCreateRequest,
  type AdminUpdateRequest,
  type PendingChange,
  type Role,
} from '@prison/shared';
import { ADMINISTRATORS_LOCK_KEY, type Db, type DbOrTx } from '../../db/client';
import { admins, cells, loginThrottle, pendingChanges, sessions, staff } from '../../db/schema';
import { recordAudit, type AuditActor } from '../../lib/audit';
import { badRequest, conflict, notFound } from '../../lib/http-errors';
import { createAdmin } from '../admin/admin-service';
import { endingSessions, sessionsChanged } from '../../sessions/session-service';
import { recordAccountGrant, requestChange, type PendingChangeRow } from '../pending-changes/pending-change-service';

/** An account write either took effect, or makes an administrator and waits for a second one (decision 091). */
export type AccountWrite = { account: AdminAccount; pending: PendingChange | null };

export async function listAdmins(db: Db): Promise<AdminAccount[]> {
  const live = db
    .select({ adminId: sessions.adminId, n: count().as('n') })
    .from(sessions)
    .where(and(isNull(sessions.revokedAt), gt(sessions.expiresAt, sql`now()`)))
    .groupBy(sessions.adminId)
    .as('live');
  const waiting = db
    .select({ targetId: pendingChanges.targetId, id: pendingChanges.id })
    .from(pendingChanges)
    .where(and(eq(pendingChanges.targetType, 'admin'), isNull(pendingChanges.decision)))
    .as('waiting');
  const rows = await db
    .select({
      id: admins.id,
      username: admins.username,
      name: admins.name,
      disabledAt: admins.disabledAt,
      createdAt: admins.createdAt,
      role: admins.role,
      blocks: admins.blocks,
      staffId: admins.staffId,
      lockedUntil: loginThrottle.lockedUntil,
      sessions: live.n,
      pendingChangeId: waiting.id,
    })
    .from(admins)
    .leftJoin(loginThrottle, eq(loginThrottle.username, admins.username))
    .leftJoin(live, eq(live.adminId, admins.id))
    .leftJoin(waiting, eq(waiting.targetId, sql`${admins.id}::text`))
    .orderBy(admins.username);
  return rows.map(toAccount);
}

function toAccount(row: {
  id: number;
  username: string;
  name: string;
  disabledAt: Date | null;
  createdAt: Date;
  role: Role;
  blocks: string[];
  staffId: number | null;
  lockedUntil: Date | null;
  sessions: number | null;
  pendingChangeId: number | null;
}): AdminAccount {
  const locked = row.lockedUntil && row.lockedUntil.getTime() > Date.now() ? row.lockedUntil.toISOString() : null;
  return {
    id: row.id,
    username: row.username,
    name: row.name,
    disabled: row.disabledAt !== null,
    locked_until: locked,
    active_sessions: Number(row.sessions ?? 0),
    created_at: row.createdAt.toISOString(),
    role: row.role,
    blocks: row.blocks,
    staff_id: row.staffId,
    pending_change_id: row.pendingChangeId ?? null,
  };
}

async function accountById(db: Db, id: number): Promise<AdminAccount> {
  const account = (await listAdmins(db)).find((a) => a.id === id);
  if (!account) throw notFound(`No admin with id ${id}`);
  return account;
}

/** A caseload as stored: each name once, each a block that has cells (400 naming `blocks` otherwise). */
async function existingBlocks(db: DbOrTx, blocks: readonly string[]): Promise<string[]> {
  const wanted = [...new Set(blocks)];
  if (wanted.length === 0) return [];
  const found = await db.selectDistinct({ block: cells.block }).from(cells).where(inArray(cells.block, wanted));
  const known = new Set(found.map((row) => row.block));
  const missing = wanted.filter((block) => !known.has(block));
  if (missing.length > 0) throw badRequest(`blocks: no block named ${missing.map((b) => `"${b}"`).join(', ')}`);
  return wanted;
}

/** A wing officer's caseload holds at least one block: none would mean every block (decision 093). */
function checkNeedsBlocks(role: Role, blocks: readonly string[]): void {
  if (roleNeedsBlocks(role) && blocks.length === 0) throw badRequest(`blocks: ${NEEDS_BLOCKS_MESSAGE}`);
}

/**
 * Refuses (409) a change that would leave no active administrator: demoting or disabling account `id` when it is
 * the only one. Holds a lock to the end of the transaction, so two such changes run one after the other.
 */
async function keepAnActiveAdministrator(tx: DbOrTx, id: number, username: string): Promise<void> {
  if (!(await anotherActiveAdministrator(tx, id))) {
    throw conflict(`${username} is the last active administrator: make another account an administrator first`);
  }
}

/**
 * Whether an active administrator other than account `id` exists. Takes the administrators' lock to the end of the
 * transaction, so a demotion decided on this answer cannot race another (also single sign-on's, decision 052).
 */
export async function anotherActiveAdministrator(tx: DbOrTx, id: number): Promise<boolean> {
  await tx.execute(sql`select pg_advisory_xact_lock(${ADMINISTRATORS_LOCK_KEY})`);
  const [{ n } = { n: 0 }] = await tx
    .select({ n: count() })
    .from(admins)
    .where(and(eq(admins.role, 'administrator'), isNull(admins.disabledAt), ne(admins.id, id)));
  return Number(n) > 0;
}

/**
 * Creates an account (audited; who created it recorded). A new administrator is created disabled, with a change
 * waiting for a second administrator: it takes effect when approved (`applyAdminChange`).
 */
export async function addAdmin(db: Db, input: AdminCreateRequest, who: AuditActor): Promise<AccountWrite> {
  const { id, pending } = await db.transaction(async (tx) => {
    const blocks = await existingBlocks(tx, input.blocks ?? []);
    const role = input.role ?? 'administrator';
    checkNeedsBlocks(role, blocks);
    // Another administrator chose this password: the new account replaces it at its first login (decision 054).
    const created = await createAdmin(tx, { ...input, passwordChangeRequired: true });
    const waits = role === 'administrator';
    await tx
      .update(admins)
      .set({ role, blocks, ...(waits && { disabledAt: new Date() }) })
      .where(eq(admins.id, created.id));
    await recordAccountGrant(tx, created.id, who, 'created');
    await recordAudit(tx, who, {
      action: 'admin.create',
      entity: 'admin',
      entityId: created.id,
      after: { username: created.username, name: created.name, role, blocks, ...(waits && { awaiting_approval: true }) },
    });
    const change = waits
      ? await requestChange(tx, who, {
          targetType: 'admin',
          targetId: String(created.id),
          targetName: created.username,
          kind: 'create',
          changes: [`New administrator account ${created.username} (${created.name})`],
          reason: `Asked by ${who.actor}: a new administrator takes effect when a second administrator approves`,
        })
      : null;
    return { id: created.id, pending: change };
  });
  return { account: await accountById(db, id), pending };
}

/**
 * Changes an account's name, role or caseload (audited). Its sessions answer with the new role at once in this
 * process and within the session cache's 2 s in the others. Raising an account to administrator waits, as a whole,
 * for a second administrator's approval.
 */
export async function updateAdmin(db: Db, id: number, input: AdminUpdateRequest, who: AuditActor): Promise<AccountWrite> {
  const pending = await db.transaction((tx) => writeAdminUpdate(tx, id, input, who, false));
  // The role and caseload are read with the session: cached lookups must not keep the old ones.
  if (!pending) sessionsChanged();
  return { account: await accountById(db, id), pending };
}

async function writeAdminUpdate(
  tx: DbOrTx,
  id: number,
  input: AdminUpdateRequest,
  who: AuditActor,
  approved: boolean,
  /** Who asked, when it is applied on approval: the account was given its role by them. */
  asker: AuditActor = who,
): Promise<PendingChange | null> {
  // The administrators' lock before the row's, in the same order as disableAdmin.
  if (input.role !== undefined && input.role !== 'administrator') {
    await tx.execute(sql`select pg_advisory_xact_lock(${ADMINISTRATORS_LOCK_KEY})`);
  }
  const [row] = await tx
    .select({ username: admins.username, name: admins.name, role: admins.role, blocks: admins.blocks, disabledAt: admins.disabledAt, staffId: admins.staffId })
    .from(admins)
    .where(eq(admins.id, id))
    .for('update');
  if (!row) throw notFound(`No admin with id ${id}`);
  if (input.staff_id != null) await linkableStaff(tx, input.staff_id, id);
  const blocks = input.blocks === undefined ? undefined : await existingBlocks(tx, input.blocks);
  checkNeedsBlocks(input.role ?? (row.role as Role), blocks ?? row.blocks);
  const raised = input.role === 'administrator' && row.role !== 'administrator';
  if (raised && !approved) {
    return requestChange(tx, who, {
      targetType: 'admin',
      targetId: String(id),
      targetName: row.username,
      kind: 'role',
      payload: input,
      changes: [`Role: ${row.role} → administrator`],
      reason: `Asked by ${who.actor}: an account raised to administrator takes effect when a second administrator approves`,
    });
  }
  const demoted = row.role === 'administrator' && input.role !== undefined && input.role !== 'administrator';
  if (demoted && !row.disabledAt) await keepAnActiveAdministrator(tx, id, row.username);
  const after = {
    ...(input.name !== undefined && { name: input.name.trim() || row.username }),
    ...(input.role !== undefined && { role: input.role }),
    ...(blocks !== undefined && { blocks }),
    ...(input.staff_id !== undefined && { staffId: input.staff_id }),
  };
  await tx.update(admins).set({ ...after, updatedAt: new Date() }).where(eq(admins.id, id));
  if (input.role !== undefined && input.role !== row.role) await recordAccountGrant(tx, id, asker, 'role');
  const before = Object.fromEntries(Object.keys(after).map((key) => [key, row[key as keyof typeof after]]));
  await recordAudit(tx, who, { action: 'admin.update', entity: 'admin', entityId: id, before, after });
  return null;
}

/**
 * Applies an approved account change, as the approver: a new administrator is enabled; a raise is written as asked.
 * The account was made what it is by the one who asked.
 */
export async function applyAdminChange(tx: DbOrTx, approver: AuditActor, change: PendingChangeRow): Promise<void> {
  const id = Number(change.targetId);
  const asker: AuditActor = { adminId: change.requestedByAdminId, actor: change.requestedBy };
  if (change.kind === 'role') {
    await writeAdminUpdate(tx, id, change.payload as AdminUpdateRequest, approver, true, asker);
  } else {
    const [row] = await tx.update(admins).set({ disabledAt: null, updatedAt: new Date() }).where(eq(admins.id, id)).returning({ id: admins.id });
    if (!row) throw notFound(`No admin with id ${id}`);
    await recordAudit(tx, approver, { action: 'admin.enable', entity: 'admin', entityId: id, before: { disabled: true }, after: { disabled: false } });
  }
  sessionsChanged();
}

/** A staff member an account may be linked to: one that exists and no other account is linked to (400 naming staff_id). */
async function linkableStaff(tx: DbOrTx, staffId: number, accountId: number): Promise<void> {
  const [member] = await tx.select({ id: staff.staffId }).from(staff).where(eq(staff.staffId, staffId));
  if (!member) throw badRequest(`staff_id: staff member ${staffId} does not exist`);
  const [other] = await tx.select({ username: admins.username }).from(admins).where(and(eq(admins.staffId, staffId), ne(admins.id, accountId)));
  if (other) throw badRequest(`staff_id: staff member ${staffId} is linked to the account ${other.username} already`);
}

/** Disables an admin and ends every session; returns the ended session ids so their sockets are disconnected. */
export async function disableAdmin(
  db: Db,
  id: number,
  byAdminId: number,
  who: AuditActor,
): Promise<{ account: AdminAccount; endedSessions: string[] }> {
  if (id === byAdminId) throw badRequest('id: you cannot disable your own account');
  const endedSessions = await endingSessions(() =>
    db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(${ADMINISTRATORS_LOCK_KEY})`);
      const [row] = await tx
        .select({ disabledAt: admins.disabledAt, role: admins.role, username: admins.username })
        .from(admins)
        .where(eq(admins.id, id))
        .for('update');
      if (!row) throw notFound(`No admin with id ${id}`);
      if (row.role === 'administrator' && !row.disabledAt) await keepAnActiveAdministrator(tx, id, row.username);
      if (!row.disabledAt)
        await tx.update(admins).set({ disabledAt: new Date(), updatedAt: new Date() }).where(eq(admins.id, id));
      const ended = await tx
        .update(sessions)
        .set({ revokedAt: sql`now()`, endReason: 'disabled' })
        .where(and(eq(sessions.adminId, id), isNull(sessions.revokedAt)))
        .returning({ id: sessions.id });
      await recordAudit(tx, who, {
        action: 'admin.disable',
        entity: 'admin',
        entityId: id,
        before: { disabled: row.disabledAt !== null },
        after: { disabled: true, ended_sessions: ended.length },
      });
      return ended.map((s) => s.id);
    }),
  );
  return { account: await accountById(db, id), endedSessions };
}

export async function enableAdmin(db: Db, id: number, who: AuditActor): Promise<AdminAccount> {
  await db.transaction(async (tx) => {
    const [row] = await tx
      .select({ disabledAt: admins.disabledAt, role: admins.role })
      .from(admins)
      .where(eq(admins.id, id))
      .for('update');
    if (!row) throw notFound(`No admin with id ${id}`);
    // A new administrator takes effect by approval only: not by enabling it while it waits, or after a refusal.
    const [created] = await tx
      .select({ decision: pendingChanges.decision })
      .from(pendingChanges)
      .where(and(eq(pendingChanges.targetType, 'admin'), eq(pendingChanges.targetId, String(id)), eq(pendingChanges.kind, 'create')))
      .orderBy(desc(pendingChanges.id))
      .limit(1);
    if (row.role === 'administrator' && created && created.decision !== 'approved') {
      throw conflict(
        created.decision === 'refused'
          ? 'This administrator account was refused by a second administrator: it cannot be enabled'
          : "This administrator account waits for a second administrator's approval: it is enabled when approved",
      );
    }
    if (row.disabledAt) await recordAccountGrant(tx, id, who, 'enabled');
    await tx.update(admins).set({ disabledAt: null, updatedAt: new Date() }).where(eq(admins.id, id));
    await recordAudit(tx, who, {
      action: 'admin.enable',
      entity: 'admin',
      entityId: id,
      before: { disabled: row.disabledAt !== null },
      after: { disabled: false },
    });
  });
  return accountById(db, id);
}

/** Clears the failed-login counter and lock of the admin's username. */
export async function unlockAdmin(db: Db, id: number, who: AuditActor): Promise<AdminAccount> {
  await db.transaction(async (tx) => {
    const [row] = await tx.select({ username: admins.username }).from(admins).where(eq(admins.id, id));
    if (!row) throw notFound(`No admin with id ${id}`);
    const [throttle] = await tx.delete(loginThrottle).where(eq(loginThrottle.username, row.username)).returning();
    await recordAudit(tx, who, {
      action: 'admin.unlock',
      entity: 'admin',
      entityId: id,
      before: { locked_until: throttle?.lockedUntil?.toISOString() ?? null, failures: throttle?.failures ?? 0 },
      after: { locked_until: null, failures: 0 },
    });
  });
  return accountById(db, id);
}
