// Every registered device in memory: credentials (sha256 of the secret) and live state, so a fix costs no
// database read. Device changes through the API refresh the entry; a periodic refresh picks up prisoner renames.
import { createHash, timingSafeEqual } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';
import { cells, devices, prisoners, staff } from '../db/schema';
import { FixRefused } from './fix';

export interface TrackedDevice {
  id: string;
  name: string;
  secretHash: string;
  prisonerId: number | null;
  prisonerName: string | null;
  /** The wearer's cell, beside the name wherever a prisoner appears (names are not unique); refreshed with the name. */
  cellId: string | null;
  /** The block of that cell: with the prisoner, decides which geofences apply (decision 033). */
  block: string | null;
  /** A staff member's tracker (decision 035): stored like a prisoner's, raises no geofence or keep-apart alert. */
  staffId: number | null;
  staffName: string | null;
  /** Receive time of the last fix (ms), what the offline watcher measures silence against. */
  lastSeenAt: number | null;
  /**
   * Time of the newest fix (ms): its device time, or its receive time when the device clock was ahead. Never later
   * than the server's clock, so no fix from the future keeps later ones from counting. Older fixes go to history only.
   */
  lastFixAt: number | null;
  latitude: number | null;
  longitude: number | null;
  battery: number | null;
  online: boolean;
  lowBatteryAlerted: boolean;
  /**
   * Cluster mode (decision 036): the `devices.revision` this process's memory of the device (here and in the
   * engine) reflects. Another process's write bumps it in the database; a mismatch under the row lock means reload.
   */
  revision: number;
}

/** The live columns of a device row, as locked in cluster mode before its fixes are evaluated. */
export interface LockedDeviceRow {
  id: string;
  revision: number;
  lastSeenAt: Date | null;
  lastFixAt: Date | null;
  latitude: number | null;
  longitude: number | null;
  battery: number | null;
  online: boolean;
  lowBatteryAlerted: boolean;
}

export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

/** The name operators see: the prisoner's or staff member's, or the device's own for an unassigned device. */
export function displayName(device: Pick<TrackedDevice, 'id' | 'name' | 'prisonerName'> & { staffName?: string | null }): string {
  return device.prisonerName ?? device.staffName ?? `${device.name} (${device.id.slice(0, 8)})`;
}

type DeviceRow = Awaited<ReturnType<typeof selectDevices>>[number];

/** What an API change or a refresh re-reads; the live state stays as held in memory. */
function assignment(row: DeviceRow): Pick<TrackedDevice, 'name' | 'secretHash' | 'prisonerId' | 'prisonerName' | 'cellId' | 'block' | 'staffId' | 'staffName'> {
  return {
    name: row.name,
    secretHash: row.secretHash,
    prisonerId: row.prisonerId ?? null,
    prisonerName: row.prisonerName ?? null,
    cellId: row.cellId ?? null,
    block: row.block ?? null,
    staffId: row.staffId ?? null,
    staffName: row.staffId ? (row.staffName ?? '') : null,
  };
}

function selectDevices(db: DbOrTx, id?: string) {
  const query = db
    .select({
      ...liveColumns,
      name: devices.name,
      secretHash: devices.secretHash,
      prisonerId: prisoners.prisonerId,
      prisonerName: sql<string | null>`nullif(trim(${prisoners.firstName} || ' ' || ${prisoners.lastName}), '')`,
      cellId: prisoners.cellId,
      block: cells.block,
      staffId: staff.staffId,
      staffName: sql<string | null>`nullif(trim(${staff.firstName} || ' ' || ${staff.lastName}), '')`,
    })
    .from(devices)
    .leftJoin(prisoners, eq(prisoners.trackingDeviceId, devices.id))
    .leftJoin(cells, eq(cells.cellId, prisoners.cellId))
    .leftJoin(staff, eq(staff.trackingDeviceId, devices.id));
  return id === undefined ? query : query.where(eq(devices.id, id));
}

/** The live columns of a device row (`LockedDeviceRow`), as cluster mode reads them under the row lock. */
export const liveColumns = {
  id: devices.id,
  revision: devices.revision,
  lastSeenAt: devices.lastSeenAt,
  lastFixAt: devices.lastFixAt,
  latitude: devices.lastLatitude,
  longitude: devices.lastLongitude,
  battery: devices.lastBattery,
  online: devices.online,
  lowBatteryAlerted: devices.lowBatteryAlerted,
};

/** `now` caps the newest fix time: one stored ahead of the clock (before MAX_FUTURE_SECONDS) must not block the device. */
export function liveState(row: LockedDeviceRow, now = Date.now()): Omit<TrackedDevice, keyof ReturnType<typeof assignment> | 'id'> {
  return {
    lastSeenAt: row.lastSeenAt?.getTime() ?? null,
    lastFixAt: row.lastFixAt ? Math.min(row.lastFixAt.getTime(), now) : null,
    latitude: row.latitude,
    longitude: row.longitude,
    battery: row.battery,
    online: row.online,
    lowBatteryAlerted: row.lowBatteryAlerted,
    revision: row.revision,
  };
}

function fromRow(row: DeviceRow, now = Date.now()): TrackedDevice {
  return { id: row.id, ...assignment(row), ...liveState(row, now) };
}

export class DeviceRegistry {
  private readonly byId = new Map<string, TrackedDevice>();

  /** Loads every device. Silence is measured from `startedAt` at the earliest: the server could not listen before. */
  async load(db: DbOrTx, startedAt: number): Promise<void> {
    this.byId.clear();
    for (const row of await selectDevices(db)) {
      const device = fromRow(row, startedAt);
      if (device.online) device.lastSeenAt = Math.max(device.lastSeenAt ?? 0, startedAt);
      this.byId.set(device.id, device);
    }
  }

  /** Re-reads credentials, name and assignment of all devices, keeping the live state held in memory. */
  async refreshAll(db: DbOrTx): Promise<void> {
    const rows = await selectDevices(db);
    const seen = new Set<string>();
    for (const row of rows) {
      seen.add(row.id);
      const current = this.byId.get(row.id);
      if (current) Object.assign(current, assignment(row));
      else this.byId.set(row.id, fromRow(row));
    }
    for (const id of this.byId.keys()) if (!seen.has(id)) this.byId.delete(id);
  }

  /** After an API change to one device: returns the entry, or null when the device no longer exists. */
  async refresh(db: DbOrTx, id: string): Promise<TrackedDevice | null> {
    const [row] = await selectDevices(db, id);
    if (!row) {
      this.byId.delete(id);
      return null;
    }
    const current = this.byId.get(id);
    if (!current) {
      const device = fromRow(row);
      this.byId.set(id, device);
      return device;
    }
    Object.assign(current, assignment(row));
    return current;
  }

  get(id: string): TrackedDevice | undefined {
    return this.byId.get(id);
  }

  all(): IterableIterator<TrackedDevice> {
    return this.byId.values();
  }

  get size(): number {
    return this.byId.size;
  }

  /**
   * The device named by a fix. `secret` must match when given; `secretRequired` is false only for the OsmAnd
   * protocol, whose Traccar Client sends nothing but the id (docs/decisions: OsmAnd device identity).
   */
  authenticate(id: string, secret: string | undefined, options: { secretRequired: boolean; unknownStatus?: number }): TrackedDevice {
    const device = this.byId.get(id);
    if (!device) throw new FixRefused(`Unknown device ${id}`, options.unknownStatus ?? 400);
    if (secret === undefined || secret === '') {
      if (options.secretRequired) throw new FixRefused('The device secret is required', 401);
      return device;
    }
    const given = Buffer.from(hashSecret(secret), 'hex');
    const stored = Buffer.from(device.secretHash, 'hex');
    if (given.length !== stored.length || !timingSafeEqual(given, stored)) throw new FixRefused('Wrong device secret', 401);
    return device;
  }
}
