// Merges bursts of socket events per device and applies them to the marker layer once per animation frame
// (traccar-web's habit): a thousand fixes of one device between two frames cost one marker update.
// It also keeps the last known position of every assigned tracker that is not live, drawn grey (offline), and
// colours each marker by its prisoner's worst open alert (decision 026).
import type { AlertType } from '@prison/shared/constants';
import type { LocationChanges, LocationSnapshot, TrackedLocation } from '@prison/shared/realtime';
import { DEFAULT_DEVICE_OFFLINE_SECONDS } from '@prison/shared/settings';
import type { TrackedMarkersLayer } from '../../map/tracked-markers-layer';
import { isFixFresh, markerLabel, markerLevel, type MarkerLevel } from '../../map/marker-style';
import { prisonerTag } from '../../lib/prisoner-label';

/** Milliseconds of one animation frame spent applying fixes, and how many fixes between two looks at the clock. */
const APPLY_BUDGET_MS = 4;
const APPLY_CHECK_EVERY = 256;

export class LivePositionFeed {
  /** The latest known position per tracking id (what the side panel lists as online). */
  readonly current = new Map<string, TrackedLocation>();
  /** null = the device is gone or offline. */
  private pending = new Map<string, TrackedLocation | null>();
  private replacement: LocationSnapshot | null = null;
  private frame = 0;
  private membershipChanged = false;
  /** The worst open alert level per prisoner id. */
  private worst: ReadonlyMap<number, AlertType> = new Map();
  /** Assigned trackers' last known positions (the device list): drawn grey while they are not live. */
  private lastKnown = new Map<string, TrackedLocation>();
  /** Live markers whose last fix is older than the offline threshold, drawn grey. */
  private staleFixes = new Set<string>();
  /** A live fix older than this is offline (the server's DEVICE_OFFLINE_SECONDS; its default until the settings say). */
  offlineSeconds = DEFAULT_DEVICE_OFFLINE_SECONDS;

  constructor(
    private readonly layer: TrackedMarkersLayer,
    /** Called after each applied batch; membershipChanged when a device appeared, left or was renamed. */
    private readonly onApplied: (membershipChanged: boolean) => void,
  ) {}

  /** A full snapshot: markers missing from it leave (docs/CLIENT-CONTRACT.md, "Live markers"). */
  snapshot(snapshot: LocationSnapshot): void {
    this.replacement = snapshot;
    this.pending.clear();
    this.schedule();
  }

  changes({ changed, gone }: LocationChanges): void {
    for (const id of gone) this.pending.set(id, null);
    // for...in, not Object.entries: a batch of 10,000 would allocate 10,000 pairs to throw away.
    for (const id in changed) this.pending.set(id, changed[id]!);
    this.schedule();
  }

  disconnected(trackingId: string): void {
    this.pending.set(trackingId, null);
    this.schedule();
  }

  /** The worst open alert per prisoner: recolours every marker (live alerts change it without a reload). */
  setAlertLevels(worst: ReadonlyMap<number, AlertType>): void {
    this.worst = worst;
    for (const [trackingId, location] of this.current) {
      this.layer.setLevel(trackingId, this.levelOf(location, !this.staleFixes.has(trackingId)));
    }
  }

  /**
   * The last known position of every assigned tracker (from the device list). Those not live are drawn grey
   * there; those no longer listed (removed, unassigned) leave the map unless live.
   */
  setLastKnown(places: ReadonlyMap<string, TrackedLocation>): void {
    for (const id of this.lastKnown.keys()) {
      if (!places.has(id) && !this.current.has(id)) this.layer.removeMarker(id);
    }
    this.lastKnown = new Map(places);
    for (const [id, location] of this.lastKnown) {
      if (!this.current.has(id)) this.drawOffline(id, location);
    }
  }

  /**
   * Re-checks the age of every live fix: one older than the offline threshold turns grey (and back when fresh).
   * True when any tracker changed between online and offline (the list then re-ranks).
   */
  refreshAges(now = Date.now()): boolean {
    let changed = false;
    for (const [id, location] of this.current) {
      const fresh = isFixFresh(location.at, this.offlineSeconds, now);
      if (fresh === !this.staleFixes.has(id)) continue;
      changed = true;
      if (fresh) this.staleFixes.delete(id);
      else this.staleFixes.add(id);
      this.layer.setLevel(id, this.levelOf(location, fresh));
    }
    return changed;
  }

  /** Whether a tracker is live and its last fix is within the offline threshold. */
  isOnline(id: string): boolean {
    return this.current.has(id) && !this.staleFixes.has(id);
  }

  /** The live position, else the last known one. */
  locationOf(id: string): TrackedLocation | undefined {
    return this.current.get(id) ?? this.lastKnown.get(id);
  }

  private levelOf(location: TrackedLocation, online: boolean): MarkerLevel {
    return markerLevel(online, location.prisonerId === null ? null : this.worst.get(location.prisonerId));
  }

  private drawOffline(id: string, location: TrackedLocation): void {
    this.layer.upsert(id, {
      name: location.name,
      detail: prisonerTag(location),
      latitude: location.latitude,
      longitude: location.longitude,
      level: 'offline',
      label: markerLabel(location.name, location.cellId),
      shape: location.staffId !== undefined ? 'staff' : 'dot',
    });
  }

  dispose(): void {
    cancelAnimationFrame(this.frame);
    this.frame = 0;
  }

  private schedule(): void {
    if (!this.frame) this.frame = requestAnimationFrame(() => this.apply());
  }

  private apply(): void {
    this.frame = 0;
    const now = performance.now();
    if (this.replacement) {
      const next = this.replacement;
      this.replacement = null;
      for (const id of this.current.keys()) {
        if (!(id in next)) this.forget(id);
      }
      // The snapshot's markers go through the pending queue, so a large one is spread over frames too.
      for (const id in next) this.pending.set(id, next[id]!);
    }
    // A frame spends at most APPLY_BUDGET_MS here; the rest waits for the next frame (markers glide for 1 s, so a
    // frame's delay does not show). Applying 10,000 fixes at once took a frame of its own and dropped it.
    let done = 0;
    const wallNow = Date.now();
    for (const [id, location] of this.pending) {
      if (location) this.place(id, location, now, wallNow);
      else this.forget(id);
      this.pending.delete(id);
      if (++done % APPLY_CHECK_EVERY === 0 && performance.now() - now > APPLY_BUDGET_MS) break;
    }
    if (this.pending.size > 0) this.schedule();
    const membershipChanged = this.membershipChanged;
    this.membershipChanged = false;
    this.onApplied(membershipChanged);
  }

  /** `now`: performance.now() (the glide's clock); `wallNow`: Date.now() (a fix's age), both read once per frame. */
  private place(id: string, location: TrackedLocation, now: number, wallNow: number): void {
    const before = this.current.get(id);
    // The list shows the name and the cell: a change of either is a change of the list.
    if (before?.name !== location.name || before.cellId !== location.cellId) this.membershipChanged = true;
    this.current.set(id, location);
    // Whether the fix is fresh is checked by refreshAges (every few seconds), not per fix: a fix is nearly always new.
    if (this.offlineSeconds !== Number.POSITIVE_INFINITY && location.at !== before?.at) {
      if (isFixFresh(location.at, this.offlineSeconds, wallNow)) this.staleFixes.delete(id);
      else this.staleFixes.add(id);
    }
    this.layer.upsert(
      id,
      {
        name: location.name,
        // The detail and the label change only with the wearer or the cell: not built again for every fix.
        detail: before?.prisonerId === location.prisonerId && before.cellId === location.cellId ? undefined : prisonerTag(location),
        latitude: location.latitude,
        longitude: location.longitude,
        level: this.levelOf(location, !this.staleFixes.has(id)),
        label: before?.name === location.name && before.cellId === location.cellId ? undefined : markerLabel(location.name, location.cellId),
        // Staff (police officers and guards, decision 035): their own marker shape.
        shape: location.staffId !== undefined ? 'staff' : 'dot',
      },
      now,
    );
  }

  private forget(id: string): void {
    const last = this.current.get(id);
    if (this.current.delete(id)) this.membershipChanged = true;
    this.staleFixes.delete(id);
    // An assigned tracker that goes offline stays where it was last seen, grey; any other marker leaves.
    if (last && this.lastKnown.has(id)) {
      this.lastKnown.set(id, last);
      this.drawOffline(id, last);
    } else if (!this.lastKnown.has(id)) {
      this.layer.removeMarker(id);
    }
  }
}
