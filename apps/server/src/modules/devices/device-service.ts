// Tracking devices: registered records with a secret (only its sha256 is stored), worn by at most one prisoner or
// one staff member.
import { nobodyOrInCaseload, type Caseload } from '../../lib/caseload';
import { randomBytes, randomUUID } from 'node:crypto';
import { asc, eq, sql } from 'drizzle-orm';
import { DEFAULT_DEVICE_NAME, type Device, type DeviceCreated, type DeviceInput } from '@prison/shared';
import type { DbOrTx, Tx } from '../../db/client';
import { devices, geofenceStates, prisoners, staff } from '../../db/schema';
import { recordAudit, type AuditActor } from '../../lib/audit';
import { badRequest, conflict, notFound } from '../../lib/http-errors';
import { hashSecret } from '../../tracking/device-registry';

/** 32 random bytes, URL-safe: typed into a phone app or a gateway's configuration once. */
export function newDeviceSecret(): string {
  return randomBytes(32).toString('base64url');
}

function selectDevices(db: DbOrTx) {
  return db
    .select({
      id: devices.id,
      name: devices.name,
      kind: devices.kind,
      lastSeenAt: devices.lastSeenAt,
      lastFixAt: devices.lastFixAt,
      lastBattery: devices.lastBattery,
      online: devices.online,
      latitude: devices.lastLatitude,
      longitude: devices.lastLongitude,
      secretRequired: devices.secretRequired,
      prisonerId: prisoners.prisonerId,
      prisonerName: sql<string | null>`nullif(trim(${prisoners.firstName} || ' ' || ${prisoners.lastName}), '')`,
      prisonerCellId: prisoners.cellId,
      prisonerNumber: prisoners.prisonNumber,
      staffId: staff.staffId,
      staffName: sql<string | null>`nullif(trim(${staff.firstName} || ' ' || ${staff.lastName}), '')`,
    })
    .from(devices)
    .leftJoin(prisoners, eq(prisoners.trackingDeviceId, devices.id))
    .leftJoin(staff, eq(staff.trackingDeviceId, devices.id));
}

type DeviceRow = Awaited<ReturnType<typeof selectDevices>>[number];

function toDevice(row: DeviceRow): Device {
  return {
    id: row.id,
    name: row.name,
    kind: row.kind,
    prisoner_id: row.prisonerId ?? null,
    prisoner_name: row.prisonerId ? (row.prisonerName ?? '') : null,
    prisoner_cell_id: row.prisonerCellId ?? null,
    prisoner_number: row.prisonerNumber ?? null,
    staff_id: row.staffId ?? null,
    staff_name: row.staffId ? (row.staffName ?? '') : null,
    last_seen_at: row.lastSeenAt?.toISOString() ?? null,
    last_fix_at: row.lastFixAt?.toISOString() ?? null,
    last_battery: row.lastBattery,
    online: row.online,
    latitude: row.latitude,
    longitude: row.longitude,
    secret_required: row.secretRequired,
  };
}

/** Every tracker a caseload sees: those of its prisoners, of staff and of nobody (decision 051). */
export async function listDevices(db: DbOrTx, caseload: Caseload = []): Promise<Device[]> {
  const rows = await selectDevices(db).where(nobodyOrInCaseload(prisoners.prisonerId, caseload)).orderBy(asc(devices.name), asc(devices.id));
  return rows.map(toDevice);
}

export async function getDevice(db: DbOrTx, id: string): Promise<Device> {
  const [row] = await selectDevices(db).where(eq(devices.id, id));
  if (!row) throw notFound(`Device ${id} not found`);
  return toDevice(row);
}

/** Who wears a device: a prisoner or a staff member (police officer or guard), never both; null: nobody. */
export type Wearer = { prisonerId: number } | { staffId: number } | null;

export function wearerOf(input: { prisoner_id?: number | null; staff_id?: number | null }): Wearer {
  if (input.prisoner_id != null) return { prisonerId: input.prisoner_id };
  if (input.staff_id != null) return { staffId: input.staff_id };
  return null;
}

/**
 * Points the prisoner or staff member at this device (or at nothing). Both sides stay one-to-one: the unique columns
 * guarantee it, and the device leaves any other wearer first. Answers the device the wearer had until now, if another
 * one: it is free from now on, and the tracking service's registry must hear of it too, or its next fixes would still
 * be filed under this wearer.
 */
async function assignInTx(tx: Tx, deviceId: string, wearer: Wearer): Promise<string | null> {
  let displaced: string | null = null;
  if (wearer && 'prisonerId' in wearer) {
    const [prisoner] = await tx
      .select({ id: prisoners.prisonerId, deviceId: prisoners.trackingDeviceId, archivedAt: prisoners.archivedAt })
      .from(prisoners)
      .where(eq(prisoners.prisonerId, wearer.prisonerId))
      .for('update');
    if (!prisoner) throw notFound(`prisoner_id: prisoner ${wearer.prisonerId} not found`);
    if (prisoner.archivedAt) throw badRequest(`prisoner_id: prisoner ${wearer.prisonerId} is archived`);
    if (prisoner.deviceId && prisoner.deviceId !== deviceId) displaced = prisoner.deviceId;
  } else if (wearer) {
    const [member] = await tx
      .select({ id: staff.staffId, deviceId: staff.trackingDeviceId, archivedAt: staff.archivedAt })
      .from(staff)
      .where(eq(staff.staffId, wearer.staffId))
      .for('update');
    if (!member) throw notFound(`staff_id: staff member ${wearer.staffId} not found`);
    if (member.archivedAt) throw badRequest(`staff_id: staff member ${wearer.staffId} is retired`);
    if (member.deviceId && member.deviceId !== deviceId) displaced = member.deviceId;
  }
  await tx.update(prisoners).set({ trackingDeviceId: null, updatedAt: new Date() }).where(eq(prisoners.trackingDeviceId, deviceId));
  await tx.update(staff).set({ trackingDeviceId: null, updatedAt: new Date() }).where(eq(staff.trackingDeviceId, deviceId));
  if (wearer && 'prisonerId' in wearer) {
    await tx.update(prisoners).set({ trackingDeviceId: deviceId, updatedAt: new Date() }).where(eq(prisoners.prisonerId, wearer.prisonerId));
  } else if (wearer) {
    await tx.update(staff).set({ trackingDeviceId: deviceId, updatedAt: new Date() }).where(eq(staff.staffId, wearer.staffId));
  }
  // Geofence states belong to whoever wore the device: a new wearer starts clean.
  await tx.delete(geofenceStates).where(eq(geofenceStates.deviceId, deviceId));
  if (displaced) await tx.delete(geofenceStates).where(eq(geofenceStates.deviceId, displaced));
  return displaced;
}

/** `displaced` receives the id of the device the wearer had before, when this one replaces it. */
export async function registerDevice(
  db: DbOrTx,
  who: AuditActor,
  input: DeviceInput,
  displaced: string[] = [],
): Promise<DeviceCreated> {
  const id = input.id ?? randomUUID();
  const secret = newDeviceSecret();
  return db.transaction(async (tx) => {
    // An unknown wearer first, as the caseload guard answers one outside the caseload before any other check.
    if (input.prisoner_id != null) {
      const [prisoner] = await tx.select({ id: prisoners.prisonerId }).from(prisoners).where(eq(prisoners.prisonerId, input.prisoner_id));
      if (!prisoner) throw notFound(`prisoner_id: prisoner ${input.prisoner_id} not found`);
    }
    const [existing] = await tx.select({ id: devices.id }).from(devices).where(eq(devices.id, id));
    if (existing) throw conflict(`A device with id ${id} already exists`);
    await tx.insert(devices).values({ id, name: input.name ?? DEFAULT_DEVICE_NAME, kind: input.kind, secretHash: hashSecret(secret), secretRequired: input.secret_required ?? false });
    const wearer = wearerOf(input);
    if (wearer) {
      const before = await assignInTx(tx, id, wearer);
      if (before) displaced.push(before);
    }
    const device = await getDevice(tx, id);
    // The secret itself never reaches the audit trail.
    await recordAudit(tx, who, { action: 'create', entity: 'device', entityId: id, after: device });
    return { ...device, secret };
  });
}

/** `displaced` receives the id of the device the wearer had before, when this one replaces it. */
export async function assignDevice(
  db: DbOrTx,
  who: AuditActor,
  id: string,
  wearer: Wearer,
  displaced: string[] = [],
): Promise<Device> {
  return db.transaction(async (tx) => {
    const before = await getDevice(tx, id);
    const previous = await assignInTx(tx, id, wearer);
    if (previous) displaced.push(previous);
    const after = await getDevice(tx, id);
    await recordAudit(tx, who, { action: wearer === null ? 'unassign' : 'assign', entity: 'device', entityId: id, before, after });
    return after;
  });
}

export async function rotateDeviceSecret(db: DbOrTx, who: AuditActor, id: string): Promise<DeviceCreated> {
  const secret = newDeviceSecret();
  return db.transaction(async (tx) => {
    const device = await getDevice(tx, id);
    await tx.update(devices).set({ secretHash: hashSecret(secret) }).where(eq(devices.id, id));
    await recordAudit(tx, who, { action: 'rotate-secret', entity: 'device', entityId: id });
    return { ...device, secret };
  });
}

/** Whether this device must send its secret even while DEVICE_SECRET_REQUIRED is off (decision 038); audited. */
export async function setSecretRequired(db: DbOrTx, who: AuditActor, id: string, required: boolean): Promise<Device> {
  return db.transaction(async (tx) => {
    const before = await getDevice(tx, id);
    await tx.update(devices).set({ secretRequired: required }).where(eq(devices.id, id));
    const after = await getDevice(tx, id);
    await recordAudit(tx, who, { action: 'update', entity: 'device', entityId: id, before, after });
    return after;
  });
}

/** Removes the device; its fixes stay in the location history, its prisoner is left without a device. */
export async function removeDevice(db: DbOrTx, who: AuditActor, id: string): Promise<void> {
  await db.transaction(async (tx) => {
    const before = await getDevice(tx, id);
    await tx.delete(geofenceStates).where(eq(geofenceStates.deviceId, id));
    await tx.delete(devices).where(eq(devices.id, id));
    await recordAudit(tx, who, { action: 'delete', entity: 'device', entityId: id, before });
  });
}
