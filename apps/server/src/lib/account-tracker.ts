// An account's own tracker: the staff record the account is linked to, that person's tracker, and its last fix, read
// in one query; and whether a fix is fresh enough to say where someone is now. Welfare checks and duress both ask it.
import { eq } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../db/client';
import { admins, devices, staff } from '../db/schema';

export interface Fix {
  at: Date | null;
  lat: number | null;
  lng: number | null;
}

/** A fix with a time and a position, no older than `maxAgeMs` at `now`. */
export const freshFix = <T extends Fix>(fix: T | undefined, now: Date, maxAgeMs: number): fix is T & { at: Date; lat: number; lng: number } =>
  !!fix && fix.at !== null && fix.lat !== null && fix.lng !== null && now.getTime() - fix.at.getTime() <= maxAgeMs;

const accountDevice = alias(devices, 'account_device');

/** The account, its linked staff record and that person's tracker with its last fix; undefined for no such account. */
export async function accountTracker(db: DbOrTx, adminId: number) {
  const [row] = await db
    .select({
      role: admins.role,
      accountName: admins.name,
      username: admins.username,
      /** The staff record the account names, as stored on the account. */
      linkedStaffId: admins.staffId,
      /** The same, when that record exists. */
      staffId: staff.staffId,
      firstName: staff.firstName,
      lastName: staff.lastName,
      deviceId: accountDevice.id,
      at: accountDevice.lastFixAt,
      lat: accountDevice.lastLatitude,
      lng: accountDevice.lastLongitude,
    })
    .from(admins)
    .leftJoin(staff, eq(staff.staffId, admins.staffId))
    .leftJoin(accountDevice, eq(accountDevice.id, staff.trackingDeviceId))
    .where(eq(admins.id, adminId));
  return row;
}
