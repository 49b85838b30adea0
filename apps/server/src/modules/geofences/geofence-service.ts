// Geofences: list, create (with the shape checks the drawing tool makes), update and delete, each audited in the
// same transaction as the change. The routes reload the engine after every write.
import { and, asc, eq, gt, inArray, isNull, sql } from 'drizzle-orm';
import {
  compareGeofences,
  defaultWeakeningUntil,
  weakensAlarm,
  type PendingChange,
  GEOFENCE_MAX_POINTS,
  GEOFENCE_SHAPES,
  geofenceAnswer,
  isAxisAlignedRectangle,
  normalizeRing,
  polygonEdgesCross,
  polygonPlanarArea,
  preparePolygon,
  type Geofence,
  type GeofenceAppliesTo,
  type GeofenceGeometry,
  type GeofenceInput,
  type GeofenceUpdate,
  type StoredGeofence,
} from '@prison/shared';
import type { DbOrTx } from '../../db/client';
import { alerts, cells, geofenceStates, geofences, pendingChanges, prisoners } from '../../db/schema';
import { recordAudit, SYSTEM_ACTOR, type AuditActor } from '../../lib/audit';
import { prisonerInCaseload, type Caseload } from '../../lib/caseload';
import { badRequest, conflict, notFound } from '../../lib/http-errors';
import { requestChange, type PendingChangeRow } from '../pending-changes/pending-change-service';

/** The drawing tool's own words for a crossing polygon (docs/CLIENT-CONTRACT.md), as a field message. */
export const EDGES_CROSS_MESSAGE = 'coordinates: shape edges cannot cross';
export const MAX_POLYGON_POINTS = GEOFENCE_MAX_POINTS;

type GeofenceRow = typeof geofences.$inferSelect;

/** The stored form: points stay `[lat, lng]` pairs in the table, the engine and the geometry module. */
export function toStoredGeofence(row: GeofenceRow): StoredGeofence {
  return {
    geofence_id: row.geofenceId,
    shape: row.shape as Geofence['shape'],
    name: row.name,
    type: row.type as Geofence['type'],
    alert_type: row.alertType as Geofence['alert_type'],
    radius: row.radius,
    center_lat: row.centerLat,
    center_lng: row.centerLng,
    coordinates: row.coordinates,
    dwell_seconds: row.dwellSeconds,
    buffer_meters: row.bufferMeters,
    applies_to: row.appliesTo ?? null,
    schedule: row.schedule ?? null,
  };
}

/** The answer's form: points as `{ lat, lng }` (docs/CLIENT-CONTRACT.md). */
export const toGeofence = (row: GeofenceRow): Geofence => geofenceAnswer(toStoredGeofence(row));

/**
 * The violations of a geofence that is deleted or changes type are over: their open alerts end now, so nothing
 * (the live map reads "in violation" from geofence alerts with no end) keeps showing a zone that no longer applies.
 */
async function endOpenGeofenceAlerts(tx: DbOrTx, geofenceId: string): Promise<void> {
  await tx
    .update(alerts)
    .set({ endedAt: sql`now()` })
    .where(and(eq(alerts.kind, 'geofence'), eq(alerts.geofenceId, geofenceId), isNull(alerts.endedAt)));
}

const knownShape = (row: GeofenceRow) => (GEOFENCE_SHAPES as readonly string[]).includes(row.shape);

async function knownGeofenceRows(db: DbOrTx): Promise<GeofenceRow[]> {
  const rows = await db.select().from(geofences).orderBy(asc(geofences.createdAt), asc(geofences.geofenceId));
  return rows.filter(knownShape);
}

/** Every geofence, oldest first (the order they were drawn); rows of an unknown shape are dropped (docs/CLIENT-CONTRACT.md). */
export async function listGeofences(db: DbOrTx): Promise<Geofence[]> {
  return (await knownGeofenceRows(db)).map(toGeofence);
}

/** The same list in the stored form, for the geofence engine. */
export async function listStoredGeofences(db: DbOrTx): Promise<StoredGeofence[]> {
  return (await knownGeofenceRows(db)).map(toStoredGeofence);
}

export async function getGeofence(db: DbOrTx, geofenceId: string): Promise<Geofence> {
  const [row] = await db.select().from(geofences).where(eq(geofences.geofenceId, geofenceId));
  if (!row) throw notFound(`Geofence ${geofenceId} not found`);
  return toGeofence(row);
}

/** The checks zod cannot make: polygon edges must not cross, a rectangle's corners must form one. Returns the ring to store. */
export function checkShape(input: GeofenceGeometry): [number, number][] | null {
  if (input.shape === 'Circle') return null;
  if (input.shape === 'Rectangle') {
    if (!isAxisAlignedRectangle(input.coordinates)) {
      throw badRequest('coordinates: the 4 corners must form a rectangle aligned with latitude and longitude');
    }
    return input.coordinates.map(([lat, lng]) => [lat, lng]);
  }
  const ring = normalizeRing(input.coordinates);
  if (ring.length < 3) throw badRequest('coordinates: a polygon needs at least 3 points');
  if (ring.length > MAX_POLYGON_POINTS)
    throw badRequest(`coordinates: a polygon has at most ${MAX_POLYGON_POINTS} points`);
  const { minLng, maxLng } = preparePolygon(ring);
  if (maxLng - minLng >= 180) throw badRequest('coordinates: a polygon must span less than 180 degrees of longitude');
  if (polygonEdgesCross(ring)) throw badRequest(EDGES_CROSS_MESSAGE);
  if (polygonPlanarArea(ring) === 0)
    throw badRequest('coordinates: the points of a polygon must not all lie on one line');
  return ring;
}

/** The columns of a checked shape; the fields of the other shapes are cleared (a circle has no coordinates). */
function shapeColumns(geometry: GeofenceGeometry) {
  const ring = checkShape(geometry);
  const circle = geometry.shape === 'Circle' ? geometry : null;
  return {
    shape: geometry.shape,
    radius: circle?.radius ?? null,
    centerLat: circle?.center_lat ?? null,
    centerLng: circle?.center_lng ?? null,
    coordinates: ring,
  };
}

const sameShape = (a: StoredGeofence, b: StoredGeofence) =>
  a.shape === b.shape &&
  a.radius === b.radius &&
  a.center_lat === b.center_lat &&
  a.center_lng === b.center_lng &&
  JSON.stringify(a.coordinates) === JSON.stringify(b.coordinates);

/**
 * The blocks and prisoners a geofence names must exist: a typo would silently apply the zone to nobody. A prisoner
 * outside the account's caseload is answered as one that does not exist (decision 051: no probing another block).
 */
async function checkAppliesTo(db: DbOrTx, appliesTo: GeofenceAppliesTo | null | undefined, caseload: Caseload = []): Promise<void> {
  if (!appliesTo) return;
  const blocks = appliesTo.blocks ?? [];
  if (blocks.length) {
    const found = new Set(
      (await db.selectDistinct({ block: cells.block }).from(cells).where(inArray(cells.block, blocks))).map((r) => r.block),
    );
    const missing = blocks.find((block) => !found.has(block));
    if (missing !== undefined) throw badRequest(`applies_to.blocks: there is no block ${missing}`);
  }
  const ids = appliesTo.prisoner_ids ?? [];
  if (ids.length) {
    const found = new Set(
      (
        await db
          .select({ id: prisoners.prisonerId })
          .from(prisoners)
          .where(and(inArray(prisoners.prisonerId, ids), prisonerInCaseload(prisoners.prisonerId, caseload)))
      ).map((r) => r.id),
    );
    const missing = ids.find((id) => !found.has(id));
    if (missing !== undefined) throw badRequest(`applies_to.prisoner_ids: there is no prisoner ${missing}`);
  }
}

/** Same prisoners and same times (decisions 033 and 034). */
export const sameRules = (a: StoredGeofence, b: StoredGeofence) =>
  JSON.stringify(a.applies_to ?? null) === JSON.stringify(b.applies_to ?? null) &&
  JSON.stringify(a.schedule ?? null) === JSON.stringify(b.schedule ?? null);

export async function createGeofence(db: DbOrTx, who: AuditActor, input: GeofenceInput, caseload: Caseload = []): Promise<Geofence> {
  const shape = shapeColumns(input);
  await checkAppliesTo(db, input.applies_to, caseload);
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(geofences)
      .values({
        geofenceId: input.geofence_id,
        name: input.name,
        ...shape,
        type: input.type,
        alertType: input.alert_type,
        dwellSeconds: input.dwell_seconds,
        bufferMeters: input.buffer_meters,
        appliesTo: input.applies_to ?? null,
        schedule: input.schedule ?? null,
      })
      .onConflictDoNothing({ target: geofences.geofenceId })
      .returning();
    if (!row) throw conflict(`geofence_id: ${input.geofence_id} already exists`);
    const created = toGeofence(row);
    await recordAudit(tx, who, { action: 'create', entity: 'geofence', entityId: created.geofence_id, after: created });
    return created;
  });
}

/** A geofence write either took effect, or weakens the alarm and waits for a second person (decision 041). */
export type GeofenceWrite = { geofence: Geofence; pending: PendingChange | null };

/** The columns of a patch, checked: bad geometry or an unknown block answers 400 and changes nothing. */
async function patchColumns(db: DbOrTx, patch: GeofenceUpdate, caseload: Caseload = []) {
  const columns = {
    ...(patch.shape !== undefined && shapeColumns(patch)),
    ...(patch.name !== undefined && { name: patch.name }),
    ...(patch.type !== undefined && { type: patch.type }),
    ...(patch.alert_type !== undefined && { alertType: patch.alert_type }),
    ...(patch.dwell_seconds !== undefined && { dwellSeconds: patch.dwell_seconds }),
    ...(patch.buffer_meters !== undefined && { bufferMeters: patch.buffer_meters }),
    ...(patch.applies_to !== undefined && { appliesTo: patch.applies_to }),
    ...(patch.schedule !== undefined && { schedule: patch.schedule }),
  };
  if (Object.keys(columns).length === 0) throw badRequest('body: no field to update');
  await checkAppliesTo(db, patch.applies_to, caseload);
  return columns;
}

type PatchColumns = Awaited<ReturnType<typeof patchColumns>>;

const NEEDS_REASON = 'reason: this weakens the alarm and needs a reason for the second person who approves it';

/**
 * When a weakening ends (decision 091): a Critical or Warning zone's always does, at `until` or 8 hours from now; an
 * Informational zone's only when an end time is given. The zone as it is now is kept for the revert.
 */
async function weakeningEnd(tx: DbOrTx, current: Geofence, until: string | undefined): Promise<{ until: Date | null; restore: Geofence }> {
  // A zone weakened already goes back to how it was before the first weakening still in force, not to its weakened
  // state: its level is that one's too.
  const [earlier] = await tx
    .select({ restore: pendingChanges.restore })
    .from(pendingChanges)
    .where(
      and(
        eq(pendingChanges.targetType, 'geofence'),
        eq(pendingChanges.targetId, current.geofence_id),
        eq(pendingChanges.decision, 'approved'),
        isNull(pendingChanges.revertedAt),
        gt(pendingChanges.until, sql`now()`),
      ),
    )
    .orderBy(asc(pendingChanges.decidedAt))
    .limit(1);
  const before = (earlier?.restore as Geofence | undefined) ?? current;
  const ends = until !== undefined || before.alert_type === 'Critical' || before.alert_type === 'Warning';
  return { until: ends ? (until ? new Date(until) : defaultWeakeningUntil()) : null, restore: before };
}

/**
 * PUT /geofence/update: a change that makes the zone alert less (compareGeofences) is stored as pending with its reason
 * and the geofence stays as it is; any other change applies at once. A change mixing both waits as a whole.
 */
export async function updateGeofence(
  db: DbOrTx,
  who: AuditActor,
  geofenceId: string,
  { reason, until, ...patch }: GeofenceUpdate,
  caseload: Caseload = [],
): Promise<GeofenceWrite> {
  const columns = await patchColumns(db, patch, caseload);
  return db.transaction(async (tx) => {
    const [current] = await tx.select().from(geofences).where(eq(geofences.geofenceId, geofenceId)).for('update');
    if (!current) throw notFound(`Geofence ${geofenceId} not found`);
    const before = toGeofence(current);
    const changes = compareGeofences(before, toGeofence({ ...current, ...columns }));
    if (weakensAlarm(changes)) {
      if (!reason) throw badRequest(NEEDS_REASON);
      const pending = await requestChange(tx, who, {
        targetType: 'geofence',
        targetId: geofenceId,
        targetName: current.name,
        kind: 'update',
        payload: patch,
        changes: changes.map((change) => change.text),
        reason,
        ...(await weakeningEnd(tx, before, until)),
      });
      return { geofence: before, pending };
    }
    return { geofence: await writeGeofenceUpdate(tx, who, current, columns), pending: null };
  });
}

/** Applies an approved pending update (the payload is the patch as asked), as the approver. */
export async function applyGeofenceUpdate(tx: DbOrTx, who: AuditActor, geofenceId: string, patch: GeofenceUpdate) {
  const columns = await patchColumns(tx, patch);
  const [current] = await tx.select().from(geofences).where(eq(geofences.geofenceId, geofenceId)).for('update');
  if (!current) throw notFound(`Geofence ${geofenceId} no longer exists`);
  return writeGeofenceUpdate(tx, who, current, columns);
}

async function writeGeofenceUpdate(tx: DbOrTx, who: AuditActor, current: GeofenceRow, columns: PatchColumns) {
  const geofenceId = current.geofenceId;
  const [row] = await tx
    .update(geofences)
    .set({ ...columns, updatedAt: new Date() })
    .where(eq(geofences.geofenceId, geofenceId))
    .returning();
  const before = toStoredGeofence(current);
  const after = toStoredGeofence(row!);
  // A Positive zone turned Negative (or back), given a new shape, other prisoners or other times, is a different
  // zone: its running violations no longer apply (the engine drops their states on reload too), and the next fix
  // is judged afresh.
  if (after.type !== before.type || !sameShape(before, after) || !sameRules(before, after)) {
    await tx.delete(geofenceStates).where(eq(geofenceStates.geofenceId, geofenceId));
    await endOpenGeofenceAlerts(tx, geofenceId);
  }
  const answer = geofenceAnswer(after);
  await recordAudit(tx, who, {
    action: 'update',
    entity: 'geofence',
    entityId: geofenceId,
    before: geofenceAnswer(before),
    after: answer,
  });
  return answer;
}

/** A delete always weakens the alarm: it is stored as pending with its reason (decision 041). */
export async function deleteGeofence(
  db: DbOrTx,
  who: AuditActor,
  geofenceId: string,
  reason: string | undefined,
  until?: string,
): Promise<GeofenceWrite> {
  return db.transaction(async (tx) => {
    const [row] = await tx.select().from(geofences).where(eq(geofences.geofenceId, geofenceId));
    if (!row) throw notFound(`Geofence ${geofenceId} not found`);
    if (!reason) throw badRequest(NEEDS_REASON);
    const pending = await requestChange(tx, who, {
      targetType: 'geofence',
      targetId: geofenceId,
      targetName: row.name,
      kind: 'delete',
      changes: [`Delete the geofence ${row.name}`],
      reason,
      ...(await weakeningEnd(tx, toGeofence(row), until)),
    });
    return { geofence: toGeofence(row), pending };
  });
}

/** Deletes the geofence (an approved delete); its engine states go with it (foreign key cascade) and its open alerts end. */
export async function applyGeofenceDelete(tx: DbOrTx, who: AuditActor, geofenceId: string): Promise<Geofence> {
  const [row] = await tx.delete(geofences).where(eq(geofences.geofenceId, geofenceId)).returning();
  if (!row) throw notFound(`Geofence ${geofenceId} no longer exists`);
  await endOpenGeofenceAlerts(tx, geofenceId);
  const before = toGeofence(row);
  await recordAudit(tx, who, { action: 'delete', entity: 'geofence', entityId: geofenceId, before });
  return before;
}

/** The columns of a geofence as it was answered (points `{ lat, lng }`), for a revert. */
function columnsOf(before: Geofence) {
  return {
    shape: before.shape,
    radius: before.radius,
    centerLat: before.center_lat,
    centerLng: before.center_lng,
    coordinates: before.coordinates?.map((point) => [point.lat, point.lng] as [number, number]) ?? null,
  };
}

/**
 * A weakening's end time came (decision 091): the fields the change wrote are written back as they were (an update),
 * or the zone is drawn again (a delete), by the system and audited. A zone deleted since, or an id taken since, is
 * left as it is and said so.
 */
export async function revertGeofenceWeakening(tx: DbOrTx, change: PendingChangeRow): Promise<string> {
  const before = change.restore as Geofence;
  if (change.kind === 'delete') {
    const [row] = await tx
      .insert(geofences)
      .values({
        geofenceId: before.geofence_id,
        name: before.name,
        ...columnsOf(before),
        type: before.type,
        alertType: before.alert_type,
        dwellSeconds: before.dwell_seconds,
        bufferMeters: before.buffer_meters,
        appliesTo: before.applies_to ?? null,
        schedule: before.schedule ?? null,
      })
      .onConflictDoNothing({ target: geofences.geofenceId })
      .returning();
    if (!row) return `not drawn again: the id ${before.geofence_id} is taken`;
    await recordAudit(tx, SYSTEM_ACTOR, { action: 'create', entity: 'geofence', entityId: before.geofence_id, after: toGeofence(row) });
    return `${before.name} drawn again as it was`;
  }
  const patch = change.payload as GeofenceUpdate;
  const [current] = await tx.select().from(geofences).where(eq(geofences.geofenceId, change.targetId)).for('update');
  if (!current) return `not reverted: ${before.name} no longer exists`;
  const columns = {
    ...(patch.shape !== undefined && columnsOf(before)),
    ...(patch.name !== undefined && { name: before.name }),
    ...(patch.type !== undefined && { type: before.type }),
    ...(patch.alert_type !== undefined && { alertType: before.alert_type }),
    ...(patch.dwell_seconds !== undefined && { dwellSeconds: before.dwell_seconds }),
    ...(patch.buffer_meters !== undefined && { bufferMeters: before.buffer_meters }),
    ...(patch.applies_to !== undefined && { appliesTo: before.applies_to ?? null }),
    ...(patch.schedule !== undefined && { schedule: before.schedule ?? null }),
  } as PatchColumns;
  await writeGeofenceUpdate(tx, SYSTEM_ACTOR, current, columns);
  return `${before.name} reverted to how it was`;
}
