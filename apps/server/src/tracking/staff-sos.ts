// Staff in danger: an SOS from a staff member's tracker names the officer and the nearest three other
// staff trackers with their distance, so the control room knows who can reach him first; the alert keeps them as data
// too (their trackers, decision 072), so the live map can mark them. A prisoner's SOS is unchanged.
import { haversineMeters, type NearbyStaffEntry } from '@prison/shared';
import type { DeviceRegistry, TrackedDevice } from './device-registry';
import { displayName } from './device-registry';

/** How many other staff trackers an officer's alarm names. */
export const NEAREST_STAFF_COUNT = 3;

/** One of the nearest: tracker, staff member, name, whole metres (the alert's `nearby_staff` entry). */
export type NearbyStaff = NearbyStaffEntry;

/** "Officer NAME needs assistance" (SOS) and "Officer NAME may be down" (a fall, or motionless): the alert texts. */
export const officerNeedsAssistance = (name: string) => `Officer ${name} needs assistance`;
export const officerMayBeDown = (name: string) => `Officer ${name} may be down`;

/**
 * The other staff trackers online with a known position, nearest first (at most `count`). Runs only on an alarm, so
 * one pass over the registry is fine.
 */
export function nearestStaff(registry: DeviceRegistry, officer: Pick<TrackedDevice, 'id' | 'staffId'>, lat: number, lng: number, count = NEAREST_STAFF_COUNT): NearbyStaff[] {
  const found: NearbyStaff[] = [];
  for (const device of registry.all()) {
    if (device.staffId === null || device.id === officer.id || device.staffId === officer.staffId) continue;
    if (!device.online || device.latitude === null || device.longitude === null) continue;
    found.push({
      device_id: device.id,
      staff_id: device.staffId,
      name: displayName(device),
      metres: Math.round(haversineMeters(lat, lng, device.latitude, device.longitude)),
    });
  }
  return found.sort((a, b) => a.metres - b.metres).slice(0, count);
}

/** The officer's alert text, with the nearest staff: "Officer A needs assistance. Nearest staff: B 12 m, C 40 m". */
export function withNearestStaff(text: string, nearby: readonly NearbyStaff[]): string {
  if (nearby.length === 0) return `${text}. No other staff tracker is online`;
  return `${text}. Nearest staff: ${nearby.map((s) => `${s.name} ${s.metres} m`).join(', ')}`;
}
