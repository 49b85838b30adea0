// The live picture of one tracker (decision 029): the stored record (GET /devices/{id}: last fix, battery, online)
// kept current by the socket's position events without a reload. A fix moves the position and the age at once and
// refetches the record for the battery; a device leaving the live set (offline, unassigned) reads offline at its
// last known position. Nothing live is trusted past the offline threshold: with the feed lost, the age keeps growing
// and the tracker turns offline rather than being shown as live forever.
import { useCallback, useEffect, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { Device, TrackedLocation } from '@prison/shared';
import { useSocketEvent } from '../../lib/realtime';
import { deviceKey, useDevice } from './api';

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

interface LiveOverride {
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

export function useLiveDevice(deviceId: string | null) {
  const queryClient = useQueryClient();
  const query = useDevice(deviceId);
  const [override, setOverride] = useState<LiveOverride | null>(null);

  useEffect(() => setOverride(null), [deviceId]);

  const apply = useCallback(
    (location: TrackedLocation | null) => {
      if (!deviceId) return;
      setOverride({ deviceId, receivedAt: Date.now(), location });
      // The events carry no battery: the record has it (stored before the event is sent).
      void queryClient.invalidateQueries({ queryKey: deviceKey(deviceId) });
    },
    [deviceId, queryClient],
  );

  useSocketEvent('locationChanges', ({ changed, gone }) => {
    if (!deviceId) return;
    const location = changed[deviceId];
    if (location) apply(location);
    else if (gone.includes(deviceId)) apply(null);
  });
  // The complete set (on connect): present means online at that position, absent means not online.
  useSocketEvent('locationUpdate', (snapshot) => {
    if (!deviceId) return;
    apply(snapshot[deviceId] ?? null);
  });
  useSocketEvent('userDisconnected', (trackingId) => {
    if (trackingId === deviceId) apply(null);
  });

  return { query, override, fetchedAt: query.dataUpdatedAt };
}
