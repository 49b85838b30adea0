// Live positions to browsers (DECISIONS.md item 12, docs/decisions/018). Every browser gets the complete set on
// connect or on request. Then browsers that asked for deltas (our web app) get changes merged per device and flushed
// at most 4 times a second, so a burst of fixes costs one message per flush; browsers that asked for nothing (the
// spec's client, which treats every `locationUpdate` as the complete set) get the complete set again at most once a
// second, and only while anything changed. Both are built once per tick and emitted to a room: Socket.IO encodes a
// room broadcast once for all its sockets.
import type { LocationChanges, LocationSnapshot, TrackedLocation } from '@prison/shared';
import type { Realtime } from '../plugins/realtime';
import { displayName, type DeviceRegistry, type TrackedDevice } from './device-registry';

export const LIVE_FLUSH_MS = 250;
export const FULL_SET_MS = 1000;

export function trackedLocation(device: TrackedDevice): TrackedLocation | null {
  if (device.latitude === null || device.longitude === null) return null;
  return {
    id: device.id,
    prisonerId: device.prisonerId,
    name: displayName(device),
    latitude: device.latitude,
    longitude: device.longitude,
    trackingId: device.id,
    ...(device.lastFixAt !== null ? { at: new Date(device.lastFixAt).toISOString() } : {}),
    ...(device.prisonerId !== null ? { cellId: device.cellId } : {}),
    ...(device.staffId !== null ? { staffId: device.staffId } : {}),
  };
}

export class LivePositions {
  private changed = new Map<string, TrackedLocation>();
  private gone = new Set<string>();
  /** Something moved, appeared or left since the last complete set went out. */
  private fullSetStale = false;
  private deltaTimer: NodeJS.Timeout | null = null;
  private fullSetTimer: NodeJS.Timeout | null = null;

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
    this.fullSetStale = true;
  }

  left(deviceId: string): void {
    this.changed.delete(deviceId);
    this.gone.add(deviceId);
    this.fullSetStale = true;
  }

  start(): void {
    this.deltaTimer ??= setInterval(() => this.flush(), LIVE_FLUSH_MS);
    this.deltaTimer.unref();
    this.fullSetTimer ??= setInterval(() => this.sendFullSet(), FULL_SET_MS);
    this.fullSetTimer.unref();
  }

  stop(): void {
    if (this.deltaTimer) clearInterval(this.deltaTimer);
    if (this.fullSetTimer) clearInterval(this.fullSetTimer);
    this.deltaTimer = null;
    this.fullSetTimer = null;
  }

  /** The changes since the last flush, to the browsers that asked for deltas. */
  flush(): void {
    if (this.changed.size === 0 && this.gone.size === 0) return;
    const changes: LocationChanges = { changed: Object.fromEntries(this.changed), gone: [...this.gone] };
    this.changed = new Map();
    this.gone = new Set();
    this.realtime.toDeltaBrowsers().emit('locationChanges', changes);
  }

  /** The complete set, to the browsers that did not ask for deltas, if anything changed since the last one. */
  sendFullSet(): void {
    if (!this.fullSetStale) return;
    this.fullSetStale = false;
    // Nobody to send it to: not built at all (a browser that connects later gets its own snapshot on connect).
    if (!this.realtime.hasFullSetBrowsers()) return;
    this.realtime.toFullSetBrowsers().emit('locationUpdate', this.snapshot());
  }
}
