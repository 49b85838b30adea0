// Who is raising a duress alarm and where (decision 100): the account's linked staff record (else the account's own
// name), that person's tracker and its last fix if fresh, the block area or geofence the fix is in, and the nearest
// other staff trackers. The alarm reads "Officer NAME needs assistance at PLACE" with them.
import { duressText } from '@prison/shared';
import type { DbOrTx } from '../../db/client';
import { accountTracker, freshFix } from '../../lib/account-tracker';
import type { DeviceRegistry } from '../../tracking/device-registry';
import { nearestStaff, withNearestStaff } from '../../tracking/staff-sos';
import { blockAreaRings } from '../block-areas/block-area-service';
import { OUTSIDE_EVERY_AREA, placeOf } from '../counts/count-lines';
import { listStoredGeofences } from '../geofences/geofence-service';
import type { DuressDraft } from '../alerts/staff-alarms';

interface Raiser {
  name: string;
  staffId: number | null;
  deviceId: string | null;
  /** The tracker's last fix, when it is no older than the offline threshold. */
  fix: { lat: number; lng: number } | null;
}

async function raiserOf(db: DbOrTx, adminId: number, now: Date, offlineMs: number): Promise<Raiser> {
  const row = await accountTracker(db, adminId);
  const recorded = [row?.firstName, row?.lastName].filter(Boolean).join(' ');
  return {
    name: recorded || row?.accountName || row?.username || 'unknown',
    staffId: row?.staffId ?? null,
    deviceId: row?.deviceId ?? null,
    fix: freshFix(row, now, offlineMs) ? { lat: row.lat, lng: row.lng } : null,
  };
}

/** The block area or geofence holding the point, by name; null when none does (coordinates are not a place). */
async function namedPlace(db: DbOrTx, lat: number, lng: number, now: Date): Promise<string | null> {
  const place = placeOf(lat, lng, { areas: await blockAreaRings(db), geofences: await listStoredGeofences(db), offlineMs: 0, now });
  return place === OUTSIDE_EVERY_AREA ? null : place;
}

/** The alarm an account's "Need assistance" raises now. */
export async function draftDuress(db: DbOrTx, registry: DeviceRegistry, adminId: number, now: Date, offlineSeconds: number): Promise<DuressDraft> {
  const raiser = await raiserOf(db, adminId, now, offlineSeconds * 1000);
  const base = { at: now, deviceId: raiser.deviceId, raisedBy: adminId, staffId: raiser.staffId };
  if (!raiser.fix) return { ...base, details: duressText(raiser.name, null), nearbyStaff: raiser.deviceId ? [] : null };
  const { lat, lng } = raiser.fix;
  const nearby = nearestStaff(registry, { id: raiser.deviceId ?? '', staffId: raiser.staffId }, lat, lng);
  return { ...base, details: withNearestStaff(duressText(raiser.name, await namedPlace(db, lat, lng, now)), nearby), nearbyStaff: nearby };
}
