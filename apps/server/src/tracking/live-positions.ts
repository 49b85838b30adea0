// Live positions to browsers (docs/CLIENT-CONTRACT.md, docs/decisions/018). Every browser gets the complete set on
// connect or on request. Then browsers that asked for deltas (our web app) get changes merged per device and flushed
// at most 4 times a second, so a burst of fixes costs one message per flush; browsers that asked for nothing (the
// spec's client, which treats every `locationUpdate` as the complete set) get the complete set again at most once a
// second, and only while anything changed. Both are built once per tick and emitted to a room: Socket.IO encodes a
// room broadcast once for all its sockets. Each message is built per caseload (decision 051): the browsers of an
// account of every block share one, the browsers of one set of blocks another, holding their prisoners, the staff
// trackers and the unassigned devices only; a prisoner moved to a block they do not see is gone for them.
import type { LocationChanges, LocationSnapshot, TrackedLocation } from '@prison/shared';
import { seesEveryBlock } from '@prison/shared';
import { audienceOf, sameAudience, visibleTo, type Audience } from '../lib/caseload-audience';
import type { Caseload } from '../lib/caseload';
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
  private changed = new Map<string, { location: TrackedLocation; audience: Audience }>();
  /** Devices gone since the last flush, with the audience that had them (undefined: unknown, told to everyone). */
  private gone = new Map<string, Audience | undefined>();
  /** The audience each device's position was last given to. */
  private shownTo = new Map<string, Audience>();
  /** Devices whose audience changed since the last flush (their prisoner changed block), with the previous one. */
  private movedAway = new Map<string, Audience>();
  /** Something moved, appeared or left since the last complete set went out. */
  private fullSetStale = false;
  /** The registry's `wearersRead` when the audiences were last checked. */
  private audiencesCheckedAt = -1;
  private deltaTimer: NodeJS.Timeout | null = null;
  private fullSetTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly realtime: Realtime,
    private readonly registry: DeviceRegistry,
  ) {}

  /**
   * Every online device with a position that the caseload sees (assigned or not: an unassigned tracker on the move is
   * worth seeing); every device for a caseload of every block.
   */
  snapshot(caseload: Caseload = []): LocationSnapshot {
    const snapshot: LocationSnapshot = {};
    for (const device of this.registry.all()) {
      if (!device.online) continue;
      const location = trackedLocation(device);
      if (!location) continue;
      const audience = audienceOf(device);
      if (!this.shownTo.has(device.id)) this.shownTo.set(device.id, audience);
      if (visibleTo(caseload, audience)) snapshot[device.id] = location;
    }
    return snapshot;
  }

  moved(device: TrackedDevice): void {
    const location = trackedLocation(device);
    if (!location) return;
    const audience = audienceOf(device);
    const before = this.shownTo.get(device.id);
    if (before && !sameAudience(before, audience) && !this.movedAway.has(device.id)) this.movedAway.set(device.id, before);
    this.shownTo.set(device.id, audience);
    this.gone.delete(device.id);
    this.changed.set(device.id, { location, audience });
    this.fullSetStale = true;
  }

  left(deviceId: string): void {
    this.changed.delete(deviceId);
    this.movedAway.delete(deviceId);
    // Shown to nobody since it last left (offline, then removed): telling everyone it went would name it to all.
    if (!this.shownTo.has(deviceId)) return;
    this.gone.set(deviceId, this.shownTo.get(deviceId));
    this.shownTo.delete(deviceId);
    this.fullSetStale = true;
  }

  /**
   * A prisoner who changed cell (read into the registry by its refresh) without moving: his marker is sent again, so
   * the accounts of his old block see it gone and those of his new block see it appear. Once a second, no query, and
   * only after the registry read the wearers again: nothing else changes an audience, and going through every device
   * each second was a cost of each process whatever the number of fixes (decision 075).
   */
  private checkAudiences(): void {
    if (this.registry.wearersRead === this.audiencesCheckedAt) return;
    this.audiencesCheckedAt = this.registry.wearersRead;
    for (const device of this.registry.all()) {
      if (!device.online) continue;
      const before = this.shownTo.get(device.id);
      if (before && !sameAudience(before, audienceOf(device))) this.moved(device);
    }
  }

  start(): void {
    this.deltaTimer ??= setInterval(() => this.flush(), LIVE_FLUSH_MS);
    this.deltaTimer.unref();
    this.fullSetTimer ??= setInterval(() => {
      this.checkAudiences();
      this.sendFullSet();
    }, FULL_SET_MS);
    this.fullSetTimer.unref();
  }

  stop(): void {
    if (this.deltaTimer) clearInterval(this.deltaTimer);
    if (this.fullSetTimer) clearInterval(this.fullSetTimer);
    this.deltaTimer = null;
    this.fullSetTimer = null;
  }

  /** The changes since the last flush, to the browsers that asked for deltas: per caseload, what it sees. */
  flush(): void {
    if (this.changed.size === 0 && this.gone.size === 0) return;
    const { changed, gone, movedAway } = this;
    this.changed = new Map();
    this.gone = new Map();
    this.movedAway = new Map();
    for (const group of this.realtime.feedGroups('deltas')) {
      const changes = changesFor(group.caseload, changed, gone, movedAway);
      if (changes) group.emitter.emit('locationChanges', changes);
    }
  }

  /** The complete set, to the browsers that did not ask for deltas, if anything changed since the last one. */
  sendFullSet(): void {
    if (!this.fullSetStale) return;
    this.fullSetStale = false;
    // Nobody to send it to: not built at all (a browser that connects later gets its own snapshot on connect).
    if (!this.realtime.hasFullSetBrowsers()) return;
    for (const group of this.realtime.feedGroups('full-set')) group.emitter.emit('locationUpdate', this.snapshot(group.caseload));
  }
}

/** What one caseload is told of a flush; null when nothing of it concerns them. */
function changesFor(
  caseload: Caseload,
  changed: ReadonlyMap<string, { location: TrackedLocation; audience: Audience }>,
  gone: ReadonlyMap<string, Audience | undefined>,
  movedAway: ReadonlyMap<string, Audience>,
): LocationChanges | null {
  if (seesEveryBlock(caseload)) {
    // A plain loop: copying the entries into pairs for Object.fromEntries cost a visible share of each flush.
    const all: LocationChanges['changed'] = {};
    for (const [id, entry] of changed) all[id] = entry.location;
    return { changed: all, gone: [...gone.keys()] };
  }
  const visible: LocationChanges = { changed: {}, gone: [] };
  for (const [id, entry] of changed) {
    if (visibleTo(caseload, entry.audience)) visible.changed[id] = entry.location;
    else {
      // Moved to a block this caseload does not see: gone for it.
      const before = movedAway.get(id);
      if (before && visibleTo(caseload, before)) visible.gone.push(id);
    }
  }
  for (const [id, audience] of gone) if (audience === undefined || visibleTo(caseload, audience)) visible.gone.push(id);
  return Object.keys(visible.changed).length > 0 || visible.gone.length > 0 ? visible : null;
}
