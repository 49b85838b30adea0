// Block areas (decision 062): one polygon per block, checked like a geofence polygon, listed for the
// live map and read by the roll counts. Every write is audited in its transaction.
import { asc, eq, sql } from 'drizzle-orm';
import { seesEveryBlock, toGeoPoint, type BlockArea, type BlockAreaInput } from '@prison/shared';
import type { DbOrTx } from '../../db/client';
import { blockAreas, cells } from '../../db/schema';
import { recordAudit, type AuditActor } from '../../lib/audit';
import type { Caseload } from '../../lib/caseload';
import { HttpError, notFound } from '../../lib/http-errors';
import { checkShape } from '../geofences/geofence-service';

type BlockAreaRow = typeof blockAreas.$inferSelect;

const toBlockArea = (row: BlockAreaRow): BlockArea => ({
  block: row.block,
  points: row.points.map(toGeoPoint),
  updated_by: row.updatedBy,
  updated_at: row.updatedAt.toISOString(),
});

/** Every block area (a caseload's blocks only), by block name. */
export async function listBlockAreas(db: DbOrTx, caseload: Caseload = []): Promise<BlockArea[]> {
  const rows = await db
    .select()
    .from(blockAreas)
    .where(seesEveryBlock(caseload) ? undefined : sql`${blockAreas.block} = any(${sql.param([...caseload])}::text[])`)
    .orderBy(asc(blockAreas.block));
  return rows.map(toBlockArea);
}

/** The area of each block as stored (`[lat, lng]` rings), for the counts. */
export async function blockAreaRings(db: DbOrTx): Promise<Map<string, [number, number][]>> {
  const rows = await db.select({ block: blockAreas.block, points: blockAreas.points }).from(blockAreas);
  return new Map(rows.map((row) => [row.block, row.points]));
}

/** A block exists while a cell names it; outside a caseload it is answered as unknown (decision 051). */
export async function checkBlockKnown(db: DbOrTx, block: string, caseload: Caseload): Promise<void> {
  const unknown = notFound(`Block ${block} not found`);
  if (!seesEveryBlock(caseload) && !caseload.includes(block)) throw unknown;
  const [cell] = await db.select({ id: cells.cellId }).from(cells).where(eq(cells.block, block)).limit(1);
  if (!cell) throw unknown;
}

/** The polygon checks of a geofence (edges must not cross, not on one line), answered for the field `points`. */
function checkedRing(input: BlockAreaInput): [number, number][] {
  try {
    return checkShape({ shape: 'Polygon', coordinates: input.points.map(({ lat, lng }) => [lat, lng]) })!;
  } catch (error) {
    if (error instanceof HttpError) throw new HttpError(error.statusCode, error.message.replace(/^coordinates:/, 'points:'));
    throw error;
  }
}

/** Sets (or replaces) a block's area. */
export async function setBlockArea(
  db: DbOrTx,
  who: AuditActor,
  block: string,
  input: BlockAreaInput,
  caseload: Caseload,
): Promise<BlockArea> {
  const ring = checkedRing(input);
  return db.transaction(async (tx) => {
    await checkBlockKnown(tx, block, caseload);
    const [before] = await tx.select().from(blockAreas).where(eq(blockAreas.block, block)).for('update');
    const [row] = await tx
      .insert(blockAreas)
      .values({ block, points: ring, updatedBy: who.actor })
      .onConflictDoUpdate({ target: blockAreas.block, set: { points: ring, updatedBy: who.actor, updatedAt: new Date() } })
      .returning();
    const area = toBlockArea(row!);
    await recordAudit(tx, who, {
      action: before ? 'update' : 'create',
      entity: 'block_area',
      entityId: block,
      before: before ? toBlockArea(before) : undefined,
      after: area,
    });
    return area;
  });
}
