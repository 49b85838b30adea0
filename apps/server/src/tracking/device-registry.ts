// Every registered device in memory: credentials (sha256 of the secret) and live state, so a fix costs no
// database read. Device changes through the API refresh the entry; a periodic refresh picks up prisoner renames.
import { createHash, timingSafeEqual } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import type { DeviceKind } from '@prison/shared';
import type { DbOrTx } from '../db/client';
import { cells, devices, prisoners, staff } from '../db/schema';
import { FixRefused } from './fix';

export interface TrackedDevice {
  id: string;
  name: string;
  /** A phone reports its own position; a tag is placed only by a reader's sighting (decision 092). Fixed. */
  kind: DeviceKind;
  secretHash: string;
  /** The device's own "secret required" (decision 038); DEVICE_SECRET_REQUIRED makes it so for every device. */
  secretRequired: boolean;
  prisonerId: number | null;
  prisonerName: string | null;
  /** The wearer's prison number (decision 101), shown with the name on the live toast; absent in older fixtures. */
  prisonNumber?: string | null;
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

/** The one answer to an unknown device id and a missing or wrong secret while the secret is required (decision 038). */
export const DEVICE_REFUSED_MESSAGE = 'Unknown device or wrong secret';

/** Compared against when the id is unknown, so an unknown id costs what a known one does; no secret hashes to it. */
const UNKNOWN_DEVICE_HASH = '0'.repeat(64);

function secretMatches(secret: string, storedHash: string): boolean {
  const given = Buffer.from(hashSecret(secret), 'hex');
  const stored = Buffer.from(storedHash, 'hex');
  return given.length === stored.length && timingSafeEqual(given, stored);
}

/** The name operators see: the prisoner's or staff member's, or the device's own for an unassigned device. */
export function displayName(device: Pick<TrackedDevice, 'id' | 'name' | 'prisonerName'> & { staffName?: string | null }): string {
  return device.prisonerName ?? device.staffName ?? `${device.name} (${device.id.slice(0, 8)})`;
}

type DeviceRow = Awaited<ReturnType<typeof selectDevices>>[number];

/** What an API change or a refresh re-reads; the live state stays as held in memory. */
function assignment(row: DeviceRow): Pick<TrackedDevice, 'name' | 'kind' | 'secretHash' | 'secretRequired' | 'prisonerId' | 'prisonerName' | 'prisonNumber' | 'cellId' | 'block' | 'staffId' | 'staffName'> {
  return {
    name: row.name,
    kind: row.kind,
    secretHash: row.secretHash,
    secretRequired: row.secretRequired,
    prisonerId: row.prisonerId ?? null,
    prisonerName: row.prisonerName ?? null,
    prisonNumber: row.prisonNumber ?? null,
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
      kind: devices.kind,
      secretHash: devices.secretHash,
      secretRequired: devices.secretRequired,
      prisonerId: prisoners.prisonerId,
      prisonerName: sql<string | null>`nullif(trim(${prisoners.firstName} || ' ' || ${prisoners.lastName}), '')`,
      prisonNumber: prisoners.prisonNumber,
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
  private wearerReads = 0;

  /**
   * Counts the reads of the devices' wearers (load, refresh): a wearer's prisoner, cell and block change only there,
   * so what depends on them (the live map's audiences) is checked again only when this moved (decision 075).
   */
  get wearersRead(): number {
    return this.wearerReads;
  }

  /** Loads every device. Silence is measured from `startedAt` at the earliest: the server could not listen before. */
  async load(db: DbOrTx, startedAt: number): Promise<void> {
    this.byId.clear();
    this.wearerReads++;
    for (const row of await selectDevices(db)) {
      const device = fromRow(row, startedAt);
      if (device.online) device.lastSeenAt = Math.max(device.lastSeenAt ?? 0, startedAt);
      this.byId.set(device.id, device);
    }
  }

  /** Re-reads credentials, name and assignment of all devices, keeping the live state held in memory. */
  async refreshAll(db: DbOrTx): Promise<void> {
    const rows = await selectDevices(db);
    this.wearerReads++;
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
    this.wearerReads++;
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
   * The device named by a fix, or a refusal. When the secret is required (`secretRequired`: DEVICE_SECRET_REQUIRED, or
   * the device's own flag), an unknown id, a missing and a wrong secret get the same 401 and take the same time: the
   * secret is hashed and compared in constant time whatever the id (decision 038). Otherwise (OsmAnd only, decision
   * 006) the registered id is the credential; a secret given must still match.
   */
  authenticate(id: string, secret: string | undefined, options: { secretRequired: boolean; unknownStatus?: number }): TrackedDevice {
    const device = this.byId.get(id);
    // No secret sent and none required (neither by the server nor by this id): nothing to compare, so no hash
    // (decision 055). Whenever a secret is required, an unknown id, a missing and a wrong secret still all pay the
    // same hash and compare.
    if (!secret && !options.secretRequired && !device?.secretRequired) {
      if (!device) throw new FixRefused(`Unknown device ${id}`, options.unknownStatus ?? 400);
      return device;
    }
    const matches = secretMatches(secret ?? '', device?.secretHash ?? UNKNOWN_DEVICE_HASH);
    if (options.secretRequired || device?.secretRequired) {
      if (!device || !secret || !matches) throw new FixRefused(DEVICE_REFUSED_MESSAGE, 401);
      return device;
    }
    if (!device) throw new FixRefused(`Unknown device ${id}`, options.unknownStatus ?? 400);
    if (secret && !matches) throw new FixRefused(DEVICE_REFUSED_MESSAGE, 401);
    return device;
  }
}
