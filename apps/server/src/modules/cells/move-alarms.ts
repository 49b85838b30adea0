// A cell move cannot lift an alarm quietly (decision 091): a move that takes a prisoner out of the scope of a
// Critical or Warning zone (one scoped to his old block), or that is made while he has an open Critical or Warning
// violation, follows the two-person rule. Once a move is made, his open violations of the zones that stop applying
// stay open until someone resolves them: the engine forgets the zone for him, the alert does not end by itself.
import { and, eq, inArray, isNotNull, isNull } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { alerts, cells, geofenceStates, geofences } from '../../db/schema';

/** The levels whose zones a move may not lift without a second person (Informational is "In zone", decision 044). */
const ALARM_LEVELS = ['Critical', 'Warning'];

export interface MoveAlarms {
  /** What the move does to the alarms, in plain words (the pending change's list); empty: nothing lifted. */
  changes: string[];
  /** The Critical and Warning zones that stop applying to him. */
  lifted: string[];
}

async function blockOf(db: DbOrTx, cellId: string | null): Promise<string | null> {
  if (!cellId) return null;
  const [row] = await db.select({ block: cells.block }).from(cells).where(eq(cells.cellId, cellId));
  return row?.block ?? null;
}

/** What moving prisoner `prisonerId` from cell `from` to cell `to` lifts; nothing when the cell stays the same. */
export async function moveAlarms(db: DbOrTx, prisonerId: number, from: string | null, to: string | null): Promise<MoveAlarms> {
  if ((from ?? null) === (to ?? null)) return { changes: [], lifted: [] };
  const [oldBlock, newBlock] = await Promise.all([blockOf(db, from), blockOf(db, to)]);
  const changes = [`Cell: ${from ?? 'none'} → ${to ?? 'none'}`];
  const lifted: string[] = [];
  if (oldBlock !== newBlock) {
    const zones = await db
      .select({ id: geofences.geofenceId, name: geofences.name, level: geofences.alertType, scope: geofences.appliesTo })
      .from(geofences)
      .where(and(inArray(geofences.alertType, ALARM_LEVELS), isNotNull(geofences.appliesTo)));
    const applies = (scope: { blocks?: string[]; prisoner_ids?: number[] }, block: string | null) =>
      (block !== null && (scope.blocks ?? []).includes(block)) || (scope.prisoner_ids ?? []).includes(prisonerId);
    for (const zone of zones) {
      if (zone.scope && applies(zone.scope, oldBlock) && !applies(zone.scope, newBlock)) {
        lifted.push(zone.id);
        changes.push(`No longer in the scope of ${zone.level} zone ${zone.name}`);
      }
    }
  }
  const open = await db
    .select({ level: alerts.alertType, name: geofences.name })
    .from(alerts)
    .innerJoin(geofences, eq(geofences.geofenceId, alerts.geofenceId))
    .where(
      and(
        eq(alerts.prisonerId, prisonerId),
        eq(alerts.kind, 'geofence'),
        isNull(alerts.endedAt),
        inArray(alerts.status, ['New', 'Acknowledged']),
        inArray(alerts.alertType, ALARM_LEVELS),
      ),
    );
  for (const violation of open) changes.push(`Open ${violation.level} violation of ${violation.name}: it stays open until resolved`);
  return { changes: lifted.length > 0 || open.length > 0 ? changes : [], lifted };
}

/**
 * The move is made: the violations of his tracker in the zones that stop applying are let go by the engine, which
 * ends a state's alert when the state ends. Their alerts are detached from the states first, so they stay open.
 */
export async function keepLiftedViolationsOpen(tx: DbOrTx, deviceId: string | null, lifted: readonly string[]): Promise<void> {
  if (!deviceId || lifted.length === 0) return;
  await tx
    .update(geofenceStates)
    .set({ alertId: null })
    .where(and(eq(geofenceStates.deviceId, deviceId), inArray(geofenceStates.geofenceId, [...lifted])));
}
