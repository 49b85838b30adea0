// The cell rules (decision 031) on the server: gathered and enforced inside the write's transaction, after the cell
// row (and the prisoner's active keep-apart pairs) are locked, and answered ahead of time for every cell at once
// (GET /cell_controls/check). What is refused, and in which words, is decided by `cellRefusals` in packages/shared.
import { and, eq, inArray, isNull, ne, or, sql } from 'drizzle-orm';
import {
  cellRefusals,
  isOccupyingStatus,
  seesEveryBlock,
  type CellCheck,
  type CellCheckQuery,
  type CellRefusal,
  type KeepApartScope,
  type RuleOccupant,
  type RulePartner,
  type RulePrisoner,
} from '@prison/shared';
import type { DbOrTx, Tx } from '../../db/client';
import { cells, keepApartPairs, prisoners } from '../../db/schema';
import { recordAudit, type AuditActor } from '../../lib/audit';
import type { Caseload } from '../../lib/caseload';
import { badRequest, notFound, ruleConflict } from '../../lib/http-errors';
import { lockCell, occupyingStatuses, prisonerOccupies } from './occupancy';

/** The prisoner's side of a write, as the record is before and will be after it. */
export interface PlacementState {
  firstName: string;
  lastName: string;
  gender: string | null;
  status: string | null;
  cellId: string | null;
}

/** The cell's occupants other than `prisonerId`. */
async function occupantsOf(tx: DbOrTx, cellId: string, prisonerId: number | null): Promise<RuleOccupant[]> {
  return tx
    .select({
      prisoner_id: prisoners.prisonerId,
      first_name: prisoners.firstName,
      last_name: prisoners.lastName,
      gender: prisoners.gender,
    })
    .from(prisoners)
    .where(
      and(
        eq(prisoners.cellId, cellId),
        prisonerOccupies(),
        prisonerId == null ? undefined : ne(prisoners.prisonerId, prisonerId),
      ),
    );
}

/**
 * The prisoner's active keep-apart partners who occupy a cell. The pair rows are locked first (`FOR UPDATE`), so two
 * prisoners of one pair moving at the same time queue on their pair even when they go to different cells of a block.
 */
async function lockPartners(tx: Tx, prisonerId: number): Promise<RulePartner[]> {
  const pairs = await tx
    .select({ a: keepApartPairs.prisonerA, b: keepApartPairs.prisonerB, scope: keepApartPairs.scope })
    .from(keepApartPairs)
    .where(
      and(
        isNull(keepApartPairs.endedAt),
        or(eq(keepApartPairs.prisonerA, prisonerId), eq(keepApartPairs.prisonerB, prisonerId)),
      ),
    )
    .orderBy(keepApartPairs.id)
    .for('update');
  if (pairs.length === 0) return [];
  const scopeOf = new Map(pairs.map((p) => [p.a === prisonerId ? p.b : p.a, p.scope as KeepApartScope]));
  const rows = await tx
    .select({
      prisoner_id: prisoners.prisonerId,
      first_name: prisoners.firstName,
      last_name: prisoners.lastName,
      cell_id: prisoners.cellId,
      block: cells.block,
    })
    .from(prisoners)
    .innerJoin(cells, eq(cells.cellId, prisoners.cellId))
    .where(and(inArray(prisoners.prisonerId, [...scopeOf.keys()]), prisonerOccupies()));
  return rows.map((r) => ({ ...r, cell_id: r.cell_id!, scope: scopeOf.get(r.prisoner_id)! }));
}

/**
 * Checks a write that gives a prisoner a cell, inside its transaction. Refuses with 409 `{ message, rule }`; with an
 * override reason only a full cell is refused. Answers the refusals that were overridden (to be audited).
 * - A prisoner who will occupy a cell they did not occupy: every rule (the cell row is locked, then counted).
 * - One who stays but whose gender changes: the sex rule.
 * - A new cell for a prisoner who takes no place (Released, Transferred): the status rule.
 */
export async function checkPlacement(
  tx: Tx,
  prisonerId: number | null,
  before: PlacementState | null,
  after: PlacementState,
  overrideReason: string | null | undefined,
): Promise<CellRefusal[]> {
  if (!after.cellId) return [];
  const occupying = isOccupyingStatus(after.status);
  const alreadyThere = before !== null && before.cellId === after.cellId && isOccupyingStatus(before.status);
  const genderChanged = before !== null && before.gender !== after.gender;
  if (occupying && alreadyThere && !genderChanged) return [];
  if (!occupying && before?.cellId === after.cellId) return []; // a released prisoner's record keeps their last cell
  const cell = await lockCell(tx, after.cellId);
  if (!cell) throw badRequest(`cell_id: cell ${after.cellId} does not exist`);
  const prisoner: RulePrisoner = {
    prisoner_id: prisonerId,
    first_name: after.firstName,
    last_name: after.lastName,
    gender: after.gender,
    status: after.status,
  };
  const occupants = await occupantsOf(tx, cell.cellId, prisonerId);
  const partners = prisonerId != null && occupying ? await lockPartners(tx, prisonerId) : [];
  let refusals = cellRefusals(prisoner, { cell_id: cell.cellId, block: cell.block, capacity: cell.capacity }, occupants, partners);
  if (!occupying) refusals = refusals.filter((r) => r.rule === 'status');
  else if (alreadyThere) refusals = refusals.filter((r) => r.rule === 'sex');
  const blocking = refusals.find((r) => r.rule === 'capacity') ?? (overrideReason ? undefined : refusals[0]);
  if (blocking) throw ruleConflict(blocking.message, blocking.rule);
  return refusals;
}

/** The override and the rules it overrode go to the audit trail, in the write's transaction. */
export async function auditOverride(
  tx: Tx,
  who: AuditActor,
  prisonerId: number,
  cellId: string | null,
  overridden: CellRefusal[],
  reason: string | null | undefined,
): Promise<void> {
  if (overridden.length === 0) return;
  await recordAudit(tx, who, {
    action: 'override_cell_rule',
    entity: 'prisoner',
    entityId: prisonerId,
    after: {
      cell_id: cellId,
      rules: overridden.map((r) => r.rule),
      refusals: overridden.map((r) => r.message),
      override_reason: reason,
    },
  });
}

interface CheckRow extends Record<string, unknown> {
  cell_id: string;
  block: string;
  capacity: number;
  occupants: { prisoner_id: number; first_name: string; last_name: string; gender: string | null; scope: string | null }[];
}

/**
 * GET /cell_controls/check: placing one prisoner (as recorded, or with the form's gender and status) in each cell, in
 * one query over the cells, their occupants and the prisoner's active keep-apart partners.
 */
export async function checkCells(db: DbOrTx, query: CellCheckQuery, caseload: Caseload = []): Promise<CellCheck[]> {
  const id = query.prisoner_id ?? null;
  let prisoner: RulePrisoner = {
    prisoner_id: null,
    first_name: 'The new prisoner',
    last_name: '',
    gender: query.gender ?? null,
    status: query.status ?? null,
  };
  let currentCell: string | null = null;
  if (id != null) {
    const [row] = await db.select().from(prisoners).where(eq(prisoners.prisonerId, id));
    if (!row) throw notFound(`Prisoner ${id} not found`);
    prisoner = {
      prisoner_id: id,
      first_name: row.firstName,
      last_name: row.lastName,
      gender: query.gender ?? row.gender,
      status: query.status ?? row.status,
    };
    if (isOccupyingStatus(row.status)) currentCell = row.cellId;
  }
  const statuses = sql.join(
    occupyingStatuses.map((s) => sql`${s}`),
    sql`, `,
  );
  const result = (await db.execute(sql`
    with partners as (
      select case when k.prisoner_a = ${id ?? -1}::int then k.prisoner_b else k.prisoner_a end as pid, k.scope
      from keep_apart_pairs k
      where k.ended_at is null and (k.prisoner_a = ${id ?? -1}::int or k.prisoner_b = ${id ?? -1}::int)
    )
    select c.cell_id, c.block, c.capacity,
      coalesce(json_agg(json_build_object('prisoner_id', o.prisoner_id, 'first_name', o.first_name,
        'last_name', o.last_name, 'gender', o.gender, 'scope', pa.scope) order by o.prisoner_id)
        filter (where o.prisoner_id is not null), '[]'::json) as occupants
    from cells c
    left join prisoners o on o.cell_id = c.cell_id and o.status in (${statuses}) and o.archived_at is null
      and o.prisoner_id <> ${id ?? -1}::int
    left join partners pa on pa.pid = o.prisoner_id
    group by c.cell_id, c.block, c.capacity
    order by c.block, c.cell_id`)) as unknown as { rows: CheckRow[] };
  const rows = result.rows.map((r) => ({
    ...r,
    occupants: typeof r.occupants === 'string' ? (JSON.parse(r.occupants) as CheckRow['occupants']) : r.occupants,
  }));
  const partners: RulePartner[] = rows.flatMap((r) =>
    r.occupants
      .filter((o) => o.scope != null)
      .map((o) => ({ ...o, cell_id: r.cell_id, block: r.block, scope: o.scope as KeepApartScope })),
  );
  // Partners are read in every block (a rule may reach across blocks); only the caseload's cells are
  // answered (decision 093).
  return rows.filter((r) => seesEveryBlock(caseload) || caseload.includes(r.block)).map((r) => {
    const current = r.cell_id === currentCell;
    return {
      cell_id: r.cell_id,
      block: r.block,
      current,
      refusals: current ? [] : cellRefusals(prisoner, { cell_id: r.cell_id, block: r.block, capacity: Number(r.capacity) }, r.occupants, partners),
    };
  });
}
