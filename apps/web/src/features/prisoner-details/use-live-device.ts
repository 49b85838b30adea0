// The live picture of one tracker (decision 029): the stored record (GET /devices/{id}: last fix, battery, online)
// kept current by the socket's position events without a reload. A fix moves the position and the age at once and
// refetches the record for the battery; a device leaving the live set (offline, unassigned) reads offline at its
// last known position. Nothing live is trusted past the offline threshold: with the feed lost, the age keeps growing
// and the tracker turns offline rather than being shown as live forever.
import { useCallback, useEffect, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { TrackedLocation } from '@prison/shared/realtime';
import { useSocketEvent } from '../../lib/realtime';
import { deviceKey, useDevice } from './api';
import type { LiveOverride } from './live-device';

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
