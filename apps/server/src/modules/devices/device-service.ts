// Tracking devices: registered records with a secret (only its sha256 is stored), assigned to at most one prisoner.
import { randomBytes, randomUUID } from 'node:crypto';
import { asc, eq, sql } from 'drizzle-orm';
import { DEFAULT_DEVICE_NAME, type Device, type DeviceCreated, type DeviceInput } from '@prison/shared';
import type { DbOrTx, Tx } from '../../db/client';
import { devices, geofenceStates, prisoners } from '../../db/schema';
import { recordAudit, type AuditActor } from '../../lib/audit';
import { conflict, notFound } from '../../lib/http-errors';
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
      lastSeenAt: devices.lastSeenAt,
      lastFixAt: devices.lastFixAt,
      lastBattery: devices.lastBattery,
      online: devices.online,
      latitude: devices.lastLatitude,
      longitude: devices.lastLongitude,
      prisonerId: prisoners.prisonerId,
      prisonerName: sql<string | null>`nullif(trim(${prisoners.firstName} || ' ' || ${prisoners.lastName}), '')`,
      prisonerCellId: prisoners.cellId,
    })
    .from(devices)
    .leftJoin(prisoners, eq(prisoners.trackingDeviceId, devices.id));
}

type DeviceRow = Awaited<ReturnType<typeof selectDevices>>[number];

function toDevice(row: DeviceRow): Device {
  return {
    id: row.id,
    name: row.name,
    prisoner_id: row.prisonerId ?? null,
    prisoner_name: row.prisonerId ? (row.prisonerName ?? '') : null,
    prisoner_cell_id: row.prisonerCellId ?? null,
    last_seen_at: row.lastSeenAt?.toISOString() ?? null,
    last_fix_at: row.lastFixAt?.toISOString() ?? null,
    last_battery: row.lastBattery,
    online: row.online,
    latitude: row.latitude,
    longitude: row.longitude,
  };
}

export async function listDevices(db: DbOrTx): Promise<Device[]> {
  const rows = await selectDevices(db).orderBy(asc(devices.name), asc(devices.id));
  return rows.map(toDevice);
}

export async function getDevice(db: DbOrTx, id: string): Promise<Device> {
  const [row] = await selectDevices(db).where(eq(devices.id, id));
  if (!row) throw notFound(`Device ${id} not found`);
  return toDevice(row);
}

/**
 * Points the prisoner at this device (or at nothing). Both sides stay one-to-one: the unique column guarantees it.
 * Answers the device the prisoner wore until now, if another one: it is free from now on, and the tracking service's
 * registry must hear of it too, or its next fixes would still be filed under this prisoner.
 */
async function assignInTx(tx: Tx, deviceId: string, prisonerId: number | null): Promise<string | null> {
  let displaced: string | null = null;
  if (prisonerId !== null) {
    const [prisoner] = await tx
      .select({ id: prisoners.prisonerId, deviceId: prisoners.trackingDeviceId })
      .from(prisoners)
      .where(eq(prisoners.prisonerId, prisonerId))
      .for('update');
    if (!prisoner) throw notFound(`prisoner_id: prisoner ${prisonerId} not found`);
    if (prisoner.deviceId && prisoner.deviceId !== deviceId) displaced = prisoner.deviceId;
  }
  await tx.update(prisoners).set({ trackingDeviceId: null, updatedAt: new Date() }).where(eq(prisoners.trackingDeviceId, deviceId));
  if (prisonerId !== null) {
    await tx.update(prisoners).set({ trackingDeviceId: deviceId, updatedAt: new Date() }).where(eq(prisoners.prisonerId, prisonerId));
  }
  // Geofence states belong to whoever wore the device: a new wearer starts clean.
  await tx.delete(geofenceStates).where(eq(geofenceStates.deviceId, deviceId));
  if (displaced) await tx.delete(geofenceStates).where(eq(geofenceStates.deviceId, displaced));
  return displaced;
}

/** `displaced` receives the id of the device the prisoner wore before, when this one replaces it. */
export async function registerDevice(
  db: DbOrTx,
  who: AuditActor,
  input: DeviceInput,
  displaced: string[] = [],
): Promise<DeviceCreated> {
  const id = input.id ?? randomUUID();
  const secret = newDeviceSecret();
  return db.transaction(async (tx) => {
    const [existing] = await tx.select({ id: devices.id }).from(devices).where(eq(devices.id, id));
    if (existing) throw conflict(`A device with id ${id} already exists`);
    await tx.insert(devices).values({ id, name: input.name ?? DEFAULT_DEVICE_NAME, secretHash: hashSecret(secret) });
    if (input.prisoner_id != null) {
      const before = await assignInTx(tx, id, input.prisoner_id);
      if (before) displaced.push(before);
    }
    const device = await getDevice(tx, id);
    // The secret itself never reaches the audit trail.
    await recordAudit(tx, who, { action: 'create', entity: 'device', entityId: id, after: device });
    return { ...device, secret };
  });
}

/** `displaced` receives the id of the device the prisoner wore before, when this one replaces it. */
export async function assignDevice(
  db: DbOrTx,
  who: AuditActor,
  id: string,
  prisonerId: number | null,
  displaced: string[] = [],
): Promise<Device> {
  return db.transaction(async (tx) => {
    const before = await getDevice(tx, id);
    const previous = await assignInTx(tx, id, prisonerId);
    if (previous) displaced.push(previous);
    const after = await getDevice(tx, id);
    await recordAudit(tx, who, { action: prisonerId === null ? 'unassign' : 'assign', entity: 'device', entityId: id, before, after });
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

/** Removes the device; its fixes stay in the location history, its prisoner is left without a device. */
export async function removeDevice(db: DbOrTx, who: AuditActor, id: string): Promise<void> {
  await db.transaction(async (tx) => {
    const before = await getDevice(tx, id);
    await tx.delete(geofenceStates).where(eq(geofenceStates.deviceId, id));
    await tx.delete(devices).where(eq(devices.id, id));
    await recordAudit(tx, who, { action: 'delete', entity: 'device', entityId: id, before });
  });
}
