// Where a check was made from (decision 063): the account's staff record, that person's tracker and its last fix
// (within the offline threshold), and the prisoner's last fix: within 10 m, the check is "verified by position". An
// operator's check is from the control room; an officer with no linked staff record, tracker or recent fix has none.
import { eq } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { CHECK_VERIFY_DISTANCE_M, haversineMeters, type CheckMethod } from '@prison/shared';
import type { DbOrTx } from '../../db/client';
import { admins, devices, prisoners, staff } from '../../db/schema';

export interface CheckPosition {
  staffId: number | null;
  method: CheckMethod;
  verifiedByPosition: boolean;
  /** Officer to prisoner, metres (0.1 m), when both positions are known. */
  distanceM: number | null;
}

const officerDevice = alias(devices, 'officer_device');

interface Fix {
  at: Date | null;
  lat: number | null;
  lng: number | null;
}

const fresh = (fix: Fix | undefined, now: Date, maxAgeMs: number): fix is { at: Date; lat: number; lng: number } =>
  !!fix && fix.at !== null && fix.lat !== null && fix.lng !== null && now.getTime() - fix.at.getTime() <= maxAgeMs;

export async function judgeCheckPosition(
  db: DbOrTx,
  adminId: number | null,
  prisonerId: number,
  now: Date,
  offlineSeconds: number,
): Promise<CheckPosition> {
  const [account] =
    adminId === null
      ? []
      : await db
          .select({ role: admins.role, staffId: admins.staffId, at: officerDevice.lastFixAt, lat: officerDevice.lastLatitude, lng: officerDevice.lastLongitude })
          .from(admins)
          .leftJoin(staff, eq(staff.staffId, admins.staffId))
          .leftJoin(officerDevice, eq(officerDevice.id, staff.trackingDeviceId))
          .where(eq(admins.id, adminId));
  const staffId = account?.staffId ?? null;
  if (account?.role === 'operator') return { staffId, method: 'control_room', verifiedByPosition: false, distanceM: null };
  const maxAgeMs = offlineSeconds * 1000;
  if (!fresh(account, now, maxAgeMs)) return { staffId, method: 'no_tracker', verifiedByPosition: false, distanceM: null };
  const [wearer] = await db
    .select({ at: devices.lastFixAt, lat: devices.lastLatitude, lng: devices.lastLongitude })
    .from(prisoners)
    .innerJoin(devices, eq(devices.id, prisoners.trackingDeviceId))
    .where(eq(prisoners.prisonerId, prisonerId));
  if (!fresh(wearer, now, maxAgeMs)) return { staffId, method: 'position', verifiedByPosition: false, distanceM: null };
  const distanceM = Math.round(haversineMeters(account.lat, account.lng, wearer.lat, wearer.lng) * 10) / 10;
  return { staffId, method: 'position', verifiedByPosition: distanceM <= CHECK_VERIFY_DISTANCE_M, distanceM };
}
