// The pixel worker's copy of the markers (marker-pixels.worker.ts): a slot per marker with its glide, the escort
// lines as pairs of slots, and the view. Each animation frame it places every marker where its glide is now and
// writes the sprites into the frame's pixels; no DOM, so it is tested in Node.
import { GLIDE_MS, SLOT, SLOT_FIELDS, type PixelSceneUpdate, type PixelView } from './marker-pixels-protocol';
import { FrameWriter } from './frame-writer';
import type { SpritePixels } from './sprite-pixels';

export class PixelScene {
  /** SLOT_FIELDS numbers per slot; a slot with sprite -1 is empty. */
  private slots = new Float64Array(0);
  /** One more than the highest slot ever filled: the slots drawn. */
  private slotCount = 0;
  private links = new Int32Array(0);
  /** Three numbers per marker in view: x, y (the sprite's top left, canvas pixels), sprite. */
  private markers = new Int32Array(0);
  /** x1, y1, x2, y2 per escort line (canvas pixels), filled by draw(). */
  linkSegments = new Float32Array(0);
  view: PixelView | null = null;
  private sprites: SpritePixels[] = [];
  private staleSprite: number[] = [];
  private writer = new FrameWriter();

  setSprites(sprites: SpritePixels[], staleSprite: number[]): void {
    this.sprites = sprites;
    this.staleSprite = staleSprite;
  }

  get ready(): boolean {
    return this.view !== null && this.sprites.length > 0;
  }

  apply({ clear, slots, values, links, view }: PixelSceneUpdate): void {
    if (clear) {
      for (let s = 0; s < this.slotCount; s++) this.slots[s * SLOT_FIELDS + SLOT.sprite] = -1;
      this.slotCount = 0;
      this.links = new Int32Array(0);
    }
    if (slots && values) {
      let highest = -1;
      for (let i = 0; i < slots.length; i++) highest = Math.max(highest, slots[i]!);
      this.reserve(highest + 1);
      const own = this.slots;
      // Number by number: a subarray per slot would allocate 10,000 views for a batch of 10,000 fixes.
      for (let i = 0; i < slots.length; i++) {
        const to = slots[i]! * SLOT_FIELDS;
        const from = i * SLOT_FIELDS;
        for (let k = 0; k < SLOT_FIELDS; k++) own[to + k] = values[from + k]!;
      }
      if (highest >= this.slotCount) this.slotCount = highest + 1;
    }
    if (links) this.links = links;
    if (view) this.view = view;
  }

  /**
   * Writes every marker in view, where its glide is at `now` (performance.timeOrigin + performance.now()), into the
   * frame (cleared first, band by band), the view's size, and the escort lines into linkSegments. Returns how many lines, and whether any
   * marker is still gliding (then the next frame differs).
   */
  draw(frame: Int32Array, now: number): { linkCount: number; gliding: boolean } {
    const view = this.view;
    if (!view || !this.sprites.length) return { linkCount: 0, gliding: false };
    const { width, height, ratio, offsetX, offsetY, stale } = view;
    const size = this.sprites[0]!.size;
    const half = size / 2;
    const slots = this.slots;
    if (this.markers.length < this.slotCount * 3) this.markers = new Int32Array(this.slotCount * 3);
    const markers = this.markers;
    let gliding = false;
    let count = 0;
    for (let s = 0; s < this.slotCount; s++) {
      const at = s * SLOT_FIELDS;
      const sprite = slots[at + SLOT.sprite]!;
      if (sprite < 0) continue;
      let t = (now - slots[at + SLOT.glideStart]!) / GLIDE_MS;
      if (t >= 1) t = 1;
      else {
        gliding = true;
        if (t < 0) t = 0;
      }
      const fromX = slots[at + SLOT.fromX]!;
      const fromY = slots[at + SLOT.fromY]!;
      const x = Math.round((fromX + (slots[at + SLOT.toX]! - fromX) * t + offsetX) * ratio - half);
      const y = Math.round((fromY + (slots[at + SLOT.toY]! - fromY) * t + offsetY) * ratio - half);
      if (x <= -size || y <= -size || x >= width || y >= height) continue;
      markers[count * 3] = x;
      markers[count * 3 + 1] = y;
      markers[count * 3 + 2] = stale ? this.staleSprite[sprite]! : sprite;
      count++;
    }
    this.writer.draw(frame, width, height, this.sprites, markers, count);
    return { linkCount: this.placeLinks(now), gliding };
  }

  /** The escort lines between the two markers' glided centres, both present; returns how many. */
  private placeLinks(now: number): number {
    const { ratio, offsetX, offsetY } = this.view!;
    if (this.linkSegments.length < this.links.length * 2) this.linkSegments = new Float32Array(this.links.length * 2);
    let count = 0;
    for (let i = 0; i < this.links.length; i += 2) {
      const a = this.links[i]! * SLOT_FIELDS;
      const b = this.links[i + 1]! * SLOT_FIELDS;
      if (a >= this.slots.length || b >= this.slots.length) continue;
      if (this.slots[a + SLOT.sprite]! < 0 || this.slots[b + SLOT.sprite]! < 0) continue;
      const [ax, ay] = this.centre(a, now);
      const [bx, by] = this.centre(b, now);
      this.linkSegments.set([(ax + offsetX) * ratio, (ay + offsetY) * ratio, (bx + offsetX) * ratio, (by + offsetY) * ratio], count * 4);
      count++;
    }
    return count;
  }

  private centre(at: number, now: number): [number, number] {
    const t = Math.min(1, Math.max(0, (now - this.slots[at + SLOT.glideStart]!) / GLIDE_MS));
    const fromX = this.slots[at + SLOT.fromX]!;
    const fromY = this.slots[at + SLOT.fromY]!;
    return [fromX + (this.slots[at + SLOT.toX]! - fromX) * t, fromY + (this.slots[at + SLOT.toY]! - fromY) * t];
  }

  private reserve(slots: number): void {
    if (this.slots.length >= slots * SLOT_FIELDS) return;
    const grown = new Float64Array(Math.max(slots, (this.slots.length / SLOT_FIELDS) * 2, 64) * SLOT_FIELDS);
    grown.set(this.slots);
    for (let at = this.slots.length + SLOT.sprite; at < grown.length; at += SLOT_FIELDS) grown[at] = -1;
    this.slots = grown;
  }
}
