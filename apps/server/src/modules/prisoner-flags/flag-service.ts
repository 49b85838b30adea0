// Prisoner flags (decision 101): self-harm, escape and violence risks and medical alerts, each with who set it, from
// and until, and a note; cleared with a reason, never deleted; every change audited. This module owns prisoner_flags.
import { and, desc, eq, isNull } from 'drizzle-orm';
import type { PrisonerFlag, PrisonerFlagInput, PrisonerFlagKind } from '@prison/shared';
import type { DbOrTx } from '../../db/client';
import { prisonerFlags, prisoners } from '../../db/schema';
import { recordAudit, type AuditActor } from '../../lib/audit';
import { conflict, notFound } from '../../lib/http-errors';

type FlagRow = typeof prisonerFlags.$inferSelect;

function toFlag(row: FlagRow, now = new Date()): PrisonerFlag {
  return {
    id: row.id,
    prisoner_id: row.prisonerId,
    kind: row.kind as PrisonerFlagKind,
    note: row.note,
    set_by: row.setBy,
    starts_at: row.startsAt.toISOString(),
    ends_at: row.endsAt?.toISOString() ?? null,
    cleared_at: row.clearedAt?.toISOString() ?? null,
    cleared_by: row.clearedBy,
    clear_reason: row.clearReason,
    active: !row.clearedAt && row.startsAt <= now && (!row.endsAt || row.endsAt > now),
  };
}

/** A prisoner's flags, those not cleared first, newest first; the route has checked his caseload. */
export async function listFlags(db: DbOrTx, prisonerId: number): Promise<PrisonerFlag[]> {
  const rows = await db.select().from(prisonerFlags).where(eq(prisonerFlags.prisonerId, prisonerId)).orderBy(desc(prisonerFlags.startsAt), desc(prisonerFlags.id));
  const flags = rows.map((row) => toFlag(row));
  return [...flags.filter((flag) => !flag.cleared_at), ...flags.filter((flag) => flag.cleared_at)];
}

export async function setFlag(db: DbOrTx, who: AuditActor, prisonerId: number, input: PrisonerFlagInput): Promise<PrisonerFlag> {
  return db.transaction(async (tx) => {
    const [prisoner] = await tx.select({ archivedAt: prisoners.archivedAt }).from(prisoners).where(eq(prisoners.prisonerId, prisonerId));
    if (!prisoner) throw notFound(`Prisoner ${prisonerId} not found`);
    if (prisoner.archivedAt) throw conflict(`Prisoner ${prisonerId} is archived: restore the record before flagging him`);
    const [row] = await tx
      .insert(prisonerFlags)
      .values({
        prisonerId,
        kind: input.kind,
        note: input.note || null,
        setBy: who.actor,
        startsAt: input.starts_at ? new Date(input.starts_at) : new Date(),
        endsAt: input.ends_at ? new Date(input.ends_at) : null,
      })
      .returning();
    const flag = toFlag(row!);
    await recordAudit(tx, who, { action: 'flag_set', entity: 'prisoner', entityId: prisonerId, after: flag });
    return flag;
  });
}

export async function clearFlag(db: DbOrTx, who: AuditActor, prisonerId: number, flagId: number, reason: string): Promise<PrisonerFlag> {
  return db.transaction(async (tx) => {
    const [current] = await tx
      .select()
      .from(prisonerFlags)
      .where(and(eq(prisonerFlags.id, flagId), eq(prisonerFlags.prisonerId, prisonerId)))
      .for('update');
    if (!current) throw notFound(`Flag ${flagId} of prisoner ${prisonerId} not found`);
    if (current.clearedAt) throw conflict(`Flag ${flagId} was already cleared`);
    const [row] = await tx
      .update(prisonerFlags)
      .set({ clearedAt: new Date(), clearedBy: who.actor, clearReason: reason })
      .where(and(eq(prisonerFlags.id, flagId), isNull(prisonerFlags.clearedAt)))
      .returning();
    const flag = toFlag(row!);
    await recordAudit(tx, who, { action: 'flag_clear', entity: 'prisoner', entityId: prisonerId, before: toFlag(current), after: flag });
    return flag;
  });
}
