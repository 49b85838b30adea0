// Merges bursts of socket events per device and applies them to the marker layer once per animation frame
// (traccar-web's habit): a thousand fixes of one device between two frames cost one marker update.
import type { LocationChanges, LocationSnapshot, TrackedLocation } from '@prison/shared';
import type { TrackedMarkersLayer } from '../../map/tracked-markers-layer';
import { prisonerTag } from '../../lib/prisoner-label';

export class LivePositionFeed {
  /** The latest known position per tracking id (what the side panel lists as online). */
  readonly current = new Map<string, TrackedLocation>();
  /** null = the device is gone or offline. */
  private pending = new Map<string, TrackedLocation | null>();
  private replacement: LocationSnapshot | null = null;
  private frame = 0;
  private membershipChanged = false;
  private violations: ReadonlySet<number> = new Set();

  constructor(
    private readonly layer: TrackedMarkersLayer,
    /** Called after each applied batch; membershipChanged when a device appeared, left or was renamed. */
    private readonly onApplied: (membershipChanged: boolean) => void,
  ) {}

  /** A full snapshot: markers missing from it leave (SPEC.md section 4, "Live markers"). */
  snapshot(snapshot: LocationSnapshot): void {
    this.replacement = snapshot;
    this.pending.clear();
    this.schedule();
  }

  changes({ changed, gone }: LocationChanges): void {
    for (const id of gone) this.pending.set(id, null);
    for (const [id, location] of Object.entries(changed)) this.pending.set(id, location);
    this.schedule();
  }

  disconnected(trackingId: string): void {
    this.pending.set(trackingId, null);
    this.schedule();
  }

  setViolations(prisonerIds: ReadonlySet<number>): void {
    this.violations = prisonerIds;
    for (const [trackingId, location] of this.current) {
      this.layer.setViolation(trackingId, location.prisonerId !== null && prisonerIds.has(location.prisonerId));
    }
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
      for (const [id, location] of Object.entries(next)) this.place(id, location, now);
    }
    for (const [id, location] of this.pending) {
      if (location) this.place(id, location, now);
      else this.forget(id);
    }
    this.pending.clear();
    const membershipChanged = this.membershipChanged;
    this.membershipChanged = false;
    this.onApplied(membershipChanged);
  }

  private place(id: string, location: TrackedLocation, now: number): void {
    const before = this.current.get(id);
    // The list shows the name and the cell: a change of either is a change of the list.
    if (before?.name !== location.name || before.cellId !== location.cellId) this.membershipChanged = true;
    this.current.set(id, location);
    const inViolation = location.prisonerId !== null && this.violations.has(location.prisonerId);
    this.layer.upsert(
      id,
      {
        name: location.name,
        detail: prisonerTag(location),
        latitude: location.latitude,
        longitude: location.longitude,
        inViolation,
      },
      now,
    );
  }

  private forget(id: string): void {
    if (this.current.delete(id)) this.membershipChanged = true;
    this.layer.removeMarker(id);
  }
}
