// The live map's derived data: the side panel's rows (the device list joined with the live feed and the open alerts),
// the markers' alert levels, the trackers' last known places and the escort lines. Each reads its inputs and changes none.
import type { LiveMapPrisonerAlerts } from '@prison/shared/alert';
import type { AlertType } from '@prison/shared/constants';
import type { Device } from '@prison/shared/device';
import type { Escort } from '@prison/shared/escort';
import type { TrackedLocation } from '@prison/shared/realtime';
import { markerLevel } from '../../map/marker-style';
import type { TrackedPrisonerRow } from './components/tracked-prisoner-list';
import type { LivePositionFeed } from './live-position-feed';

export function worstLevels(alerts: ReadonlyMap<number, LiveMapPrisonerAlerts>): ReadonlyMap<number, AlertType> {
  const worst = new Map<number, AlertType>();
  for (const [prisonerId, entry] of alerts) if (entry.worst_level) worst.set(prisonerId, entry.worst_level);
  return worst;
}

/** The device list's trackers with a last position, as the feed's last known places. */
export function lastKnownPlaces(devices: Device[]): Map<string, TrackedLocation> {
  const places = new Map<string, TrackedLocation>();
  for (const device of devices) {
    if (device.latitude === null || device.longitude === null) continue;
    places.set(device.id, {
      id: device.id,
      trackingId: device.id,
      prisonerId: device.prisoner_id,
      name: device.prisoner_name ?? device.name,
      cellId: device.prisoner_cell_id ?? null,
      latitude: device.latitude,
      longitude: device.longitude,
      ...(device.last_seen_at ? { at: device.last_seen_at } : {}),
    });
  }
  return places;
}

export function trackedRows(
  devices: Device[],
  live: ReadonlyMap<string, TrackedLocation>,
  feed: LivePositionFeed,
  alerts: ReadonlyMap<number, LiveMapPrisonerAlerts>,
): TrackedPrisonerRow[] {
  const rows = new Map<string, TrackedPrisonerRow>();
  const row = (
    trackingId: string,
    name: string,
    prisonerId: number | null,
    cellId: string | null,
    device: Device | null,
  ): TrackedPrisonerRow => {
    // The feed's own copy: `live` is a snapshot for membership, the feed has the newest fix.
    const position = feed.current.get(trackingId);
    const online = feed.isOnline(trackingId);
    const entry = prisonerId === null ? undefined : alerts.get(prisonerId);
    const alertLevel = entry?.worst_level ?? null;
    const lastKnown = feed.locationOf(trackingId);
    return {
      trackingId,
      name,
      prisonerId,
      prisonNumber: device?.prisoner_id === prisonerId ? (device?.prisoner_number ?? null) : null,
      cellId,
      online,
      violationLevel: entry?.violation_level ?? null,
      alertLevel,
      level: markerLevel(online, alertLevel),
      position: lastKnown
        ? [lastKnown.latitude, lastKnown.longitude]
        : device && device.latitude !== null && device.longitude !== null
          ? [device.latitude, device.longitude]
          : null,
      lastFixAt: position?.at ?? lastKnown?.at ?? device?.last_seen_at ?? null,
      battery: device?.last_battery ?? null,
    };
  };
  for (const device of devices) {
    const position = live.get(device.id);
    rows.set(
      device.id,
      row(
        device.id,
        device.prisoner_name ?? position?.name ?? device.name,
        device.prisoner_id,
        position?.cellId ?? device.prisoner_cell_id ?? null,
        device,
      ),
    );
  }
  // Live devices the device list does not know yet (it refreshes less often); staff are not prisoners (decision 035).
  for (const [trackingId, position] of live) {
    if (rows.has(trackingId) || position.staffId !== undefined) continue;
    rows.set(trackingId, row(trackingId, position.name, position.prisonerId, position.cellId ?? null, null));
  }
  return [...rows.values()];
}

/** Pairs of tracking ids (the prisoner's, the officer's) of the escorts whose two trackers are on the map. */
export function escortLinks(escorts: Escort[], live: ReadonlyMap<string, TrackedLocation>): [string, string][] {
  if (escorts.length === 0) return [];
  const byPrisoner = new Map<number, string>();
  const byStaff = new Map<number, string>();
  for (const [id, location] of live) {
    if (location.staffId !== undefined) byStaff.set(location.staffId, id);
    else if (location.prisonerId !== null) byPrisoner.set(location.prisonerId, id);
  }
  const links: [string, string][] = [];
  for (const escort of escorts) {
    const prisoner = byPrisoner.get(escort.prisoner.prisoner_id);
    const officer = byStaff.get(escort.staff.staff_id);
    if (prisoner && officer) links.push([prisoner, officer]);
  }
  return links;
}
