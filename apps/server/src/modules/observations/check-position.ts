// Where a check was made from (decision 063): the account's staff record, that person's tracker and its last fix
// (within the offline threshold), and the prisoner's last fix: within 10 m, the check is "verified by position". An
// operator's check is from the control room; an officer with no linked staff record, tracker or recent fix has none.
// Indoors: an officer's tag seen by a reader of the prisoner's cell puts his fix at that reader, so a
// fix within that reader's radius verifies the check, tracked prisoner or not.
import { eq } from 'drizzle-orm';
import { CHECK_VERIFY_DISTANCE_M, haversineMeters, type CheckMethod } from '@prison/shared';
import type { DbOrTx } from '../../db/client';
import { devices, prisoners, readers } from '../../db/schema';
import { accountTracker, freshFix } from '../../lib/account-tracker';

export interface CheckPosition {
  staffId: number | null;
  method: CheckMethod;
  verifiedByPosition: boolean;
  /** Officer to prisoner, metres (0.1 m), when both positions are known. */
  distanceM: number | null;
}

export async function judgeCheckPosition(
  db: DbOrTx,
  adminId: number | null,
  prisonerId: number,
  now: Date,
  offlineSeconds: number,
): Promise<CheckPosition> {
  const account = adminId === null ? undefined : await accountTracker(db, adminId);
  const staffId = account?.linkedStaffId ?? null;
  if (account?.role === 'operator') return { staffId, method: 'control_room', verifiedByPosition: false, distanceM: null };
  const maxAgeMs = offlineSeconds * 1000;
  if (!freshFix(account, now, maxAgeMs)) return { staffId, method: 'no_tracker', verifiedByPosition: false, distanceM: null };
  const atCellReader = await distanceToCellReader(db, prisonerId, account.lat, account.lng);
  if (atCellReader !== null) return { staffId, method: 'position', verifiedByPosition: true, distanceM: atCellReader };
  const [wearer] = await db
    .select({ at: devices.lastFixAt, lat: devices.lastLatitude, lng: devices.lastLongitude })
    .from(prisoners)
    .innerJoin(devices, eq(devices.id, prisoners.trackingDeviceId))
    .where(eq(prisoners.prisonerId, prisonerId));
  if (!freshFix(wearer, now, maxAgeMs)) return { staffId, method: 'position', verifiedByPosition: false, distanceM: null };
  const distanceM = Math.round(haversineMeters(account.lat, account.lng, wearer.lat, wearer.lng) * 10) / 10;
  return { staffId, method: 'position', verifiedByPosition: distanceM <= CHECK_VERIFY_DISTANCE_M, distanceM };
}

/** The officer's distance to the nearest reader of the prisoner's cell whose radius holds his fix; null: none does. */
async function distanceToCellReader(db: DbOrTx, prisonerId: number, lat: number, lng: number): Promise<number | null> {
  const cellReaders = await db
    .select({ lat: readers.latitude, lng: readers.longitude, radiusM: readers.radiusM })
    .from(readers)
    .innerJoin(prisoners, eq(prisoners.cellId, readers.cellId))
    .where(eq(prisoners.prisonerId, prisonerId));
  const within = cellReaders
    .map((reader) => ({ distance: haversineMeters(lat, lng, reader.lat, reader.lng), radiusM: reader.radiusM }))
    .filter((reader) => reader.distance <= reader.radiusM)
    .map((reader) => reader.distance);
  return within.length === 0 ? null : Math.round(Math.min(...within) * 10) / 10;
}
