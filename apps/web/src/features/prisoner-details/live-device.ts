// The live picture of one tracker as a pure function (decision 029): the stored record combined with the newest
// socket event, aged by the clock and the offline threshold. use-live-device.ts feeds it.
import type { Device } from '@prison/shared/device';
import type { TrackedLocation } from '@prison/shared/realtime';

export interface LivePosition {
  latitude: number;
  longitude: number;
  /** ms since the epoch of the newest fix; null when never known. */
  fixAt: number | null;
}

export interface LiveDevice {
  device: Device;
  position: LivePosition | null;
  /** ms since the epoch the server last heard from the tracker; null when never. */
  seenAt: number | null;
  online: boolean;
}

export interface LiveOverride {
  deviceId: string;
  /** Client time of the event, to tell it from a record fetched later. */
  receivedAt: number;
  location: TrackedLocation | null;
}

const ms = (iso: string | null | undefined) => (iso ? Date.parse(iso) : null);

/** Combines the stored record with the newest socket event; `now` ages both. */
export function liveDevice(
  device: Device,
  override: LiveOverride | null,
  fetchedAt: number,
  now: number,
  offlineSeconds: number,
): LiveDevice {
  const stored: LivePosition | null =
    device.latitude !== null && device.longitude !== null
      ? { latitude: device.latitude, longitude: device.longitude, fixAt: ms(device.last_fix_at ?? device.last_seen_at) }
      : null;
  let position = stored;
  let seenAt = ms(device.last_seen_at);
  let online = device.online;
  // An event newer than the record wins; a record fetched after the event already holds it.
  if (override && override.deviceId === device.id && override.receivedAt >= fetchedAt) {
    if (override.location) {
      const { latitude, longitude, at } = override.location;
      position = { latitude, longitude, fixAt: ms(at) ?? override.receivedAt };
      seenAt = Math.max(seenAt ?? 0, override.receivedAt);
      online = true;
    } else {
      online = false;
    }
  }
  if (online && seenAt !== null && now - seenAt > offlineSeconds * 1000) online = false;
  return { device, position, seenAt, online };
}
