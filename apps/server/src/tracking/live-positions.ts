// Live positions to browsers (DECISIONS.md item 12): the full snapshot on connect or on request, then changes merged
// per device and flushed at most 4 times a second, so a burst of fixes costs one message per flush.
import type { LocationSnapshot, TrackedLocation } from '@prison/shared';
import type { Realtime } from '../plugins/realtime';
import { displayName, type DeviceRegistry, type TrackedDevice } from './device-registry';

export const LIVE_FLUSH_MS = 250;

export function trackedLocation(device: TrackedDevice): TrackedLocation | null {
  if (device.latitude === null || device.longitude === null) return null;
  return {
    id: device.prisonerId,
    name: displayName(device),
    latitude: device.latitude,
    longitude: device.longitude,
    trackingId: device.id,
    ...(device.lastFixAt !== null ? { at: new Date(device.lastFixAt).toISOString() } : {}),
  };
}

export class LivePositions {
  private changed = new Map<string, TrackedLocation>();
  private gone = new Set<string>();
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly realtime: Realtime,
    private readonly registry: DeviceRegistry,
  ) {}

  /** Every online device with a position (assigned or not: an unassigned tracker on the move is worth seeing). */
  snapshot(): LocationSnapshot {
    const snapshot: LocationSnapshot = {};
    for (const device of this.registry.all()) {
      if (!device.online) continue;
      const location = trackedLocation(device);
      if (location) snapshot[device.id] = location;
    }
    return snapshot;
  }

  moved(device: TrackedDevice): void {
    const location = trackedLocation(device);
    if (!location) return;
    this.gone.delete(device.id);
    this.changed.set(device.id, location);
  }

  left(deviceId: string): void {
    this.changed.delete(deviceId);
    this.gone.add(deviceId);
  }

  start(): void {
    this.timer ??= setInterval(() => this.flush(), LIVE_FLUSH_MS);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  flush(): void {
    if (this.changed.size === 0 && this.gone.size === 0) return;
    const changes = { changed: Object.fromEntries(this.changed), gone: [...this.gone] };
    this.changed = new Map();
    this.gone = new Set();
    this.realtime.toBrowsers().emit('locationChanges', changes);
  }
}
