// The main thread's side of the pixel worker's scene (pixel-scene.ts): gives each marker a slot and collects what
// changed between two animation frames into one update, so a batch of 10,000 fixes crosses to the worker as one
// message of typed arrays, and a frame in which nothing changed sends nothing.
import { SLOT, SLOT_FIELDS, type PixelSceneUpdate, type PixelView } from './marker-pixels-protocol';

/** What the scene needs of a marker: its glide in world pixels (glideStart on this thread's performance clock). */
export interface SceneMarker {
  /** -1 while it has none. */
  slot: number;
  /** Waiting in the next update. */
  queued: boolean;
  fromX: number;
  fromY: number;
  toX: number;
  toY: number;
  glideStart: number;
}

export class PixelSceneSync {
  private nextSlot = 0;
  private free: number[] = [];
  private queue: SceneMarker[] = [];
  private freed: number[] = [];
  private cleared = false;
  private linksChanged = false;
  private view: PixelView | null = null;
  private viewChanged = false;
  private nextViewId = 1;

  /**
   * Starts over: every slot emptied in the worker, and these markers given slots from 0 (or, with `give` false, left
   * without one: the worker stops drawing them).
   */
  reset(markers: Iterable<SceneMarker>, give = true): void {
    this.nextSlot = 0;
    this.free = [];
    this.queue = [];
    this.freed = [];
    this.cleared = true;
    this.linksChanged = true;
    this.view = null;
    for (const marker of markers) {
      marker.slot = -1;
      marker.queued = false;
      if (give) this.add(marker);
    }
  }

  add(marker: SceneMarker): void {
    marker.slot = this.free.pop() ?? this.nextSlot++;
    this.linksChanged = true;
    this.changed(marker);
  }

  /** The marker's glide or sprite changed. */
  changed(marker: SceneMarker): void {
    if (marker.queued || marker.slot < 0) return;
    marker.queued = true;
    this.queue.push(marker);
  }

  remove(marker: SceneMarker): void {
    if (marker.slot < 0) return;
    this.freed.push(marker.slot);
    this.free.push(marker.slot);
    marker.slot = -1;
    this.linksChanged = true;
  }

  /** The escort lines may join other slots (set again, or a marker came or went). */
  linksMayHaveChanged(): void {
    this.linksChanged = true;
  }

  /** The view to draw; its id changes only when something in it does. Returns it. */
  setView(view: Omit<PixelView, 'id'>, force = false): PixelView {
    const last = this.view;
    if (
      force ||
      !last ||
      last.width !== view.width ||
      last.height !== view.height ||
      last.ratio !== view.ratio ||
      last.offsetX !== view.offsetX ||
      last.offsetY !== view.offsetY ||
      last.stale !== view.stale
    ) {
      this.view = { ...view, id: this.nextViewId++ };
      this.viewChanged = true;
    }
    return this.view!;
  }

  /**
   * Everything changed since the last flush, or null if nothing did. `spriteOf` names a marker's sprite; `linkSlots`
   * gives the escort lines as pairs of slots (asked only when they may have changed). The arrays are new each time,
   * to be transferred.
   */
  flush(
    spriteOf: (marker: SceneMarker) => number,
    linkSlots: () => Int32Array<ArrayBuffer>,
    timeOrigin = performance.timeOrigin,
  ): PixelSceneUpdate | null {
    const queued = this.queue.filter((marker) => marker.slot >= 0);
    const changes = this.freed.length + queued.length;
    if (!changes && !this.cleared && !this.linksChanged && !this.viewChanged) return null;
    const update: PixelSceneUpdate = {};
    if (this.cleared) update.clear = true;
    if (changes) {
      const slots = new Int32Array(changes);
      const values = new Float64Array(changes * SLOT_FIELDS);
      // Freed slots first: a slot freed and taken again in the same frame ends with its new marker.
      let i = 0;
      for (const slot of this.freed) {
        slots[i] = slot;
        values[i * SLOT_FIELDS + SLOT.sprite] = -1;
        i++;
      }
      for (const marker of queued) {
        slots[i] = marker.slot;
        const at = i * SLOT_FIELDS;
        values[at + SLOT.fromX] = marker.fromX;
        values[at + SLOT.fromY] = marker.fromY;
        values[at + SLOT.toX] = marker.toX;
        values[at + SLOT.toY] = marker.toY;
        values[at + SLOT.glideStart] = timeOrigin + marker.glideStart;
        values[at + SLOT.sprite] = spriteOf(marker);
        i++;
      }
      update.slots = slots;
      update.values = values;
    }
    for (const marker of this.queue) marker.queued = false;
    if (this.linksChanged) update.links = linkSlots();
    if (this.viewChanged) update.view = this.view!;
    this.queue = [];
    this.freed = [];
    this.cleared = false;
    this.linksChanged = false;
    this.viewChanged = false;
    return update;
  }
}
