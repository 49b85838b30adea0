// Where the markers are drawn in one frame, in canvas pixels: every marker in view at its glided position (sprite top
// left in whole pixels, and its sprite) with the label candidates among them, and the escort lines' ends. World
// pixels -> canvas pixels is one offset per frame, so this is arithmetic only; the buffers are reused between frames.
import type { LabelCandidate } from './label-placement';
import { labelCandidate, MAX_LABEL_CANDIDATES } from './marker-labels';
import { spriteIndex } from './marker-sprites';
import { glideProgress, type Marker } from './tracked-marker';

/** What the canvas shows this frame. */
export interface FrameView {
  now: number;
  /** Canvas pixels per CSS pixel. */
  ratio: number;
  /** World pixels -> canvas pixels: (world + offset) * ratio. */
  offsetX: number;
  offsetY: number;
  width: number;
  height: number;
  /** Every marker drawn grey (the live feed is not live). */
  stale: boolean;
}

export class FramePlacement {
  /** x, y (the sprite's top left, whole canvas pixels) and sprite index per marker in view, in drawing order. */
  markers = new Int32Array(0);
  /** x1, y1, x2, y2 per escort line, canvas pixels. */
  links = new Float32Array(0);

  /**
   * Places every marker in view into `markers` and returns how many; collects the labels to draw into `labelled`
   * (null: none). `selected` is the marker whose popup is open. With `labelsOnly` (the worker draws the markers) it
   * stops as soon as the label candidates are complete: `markers` is then not every marker in view.
   */
  placeMarkers(
    all: Iterable<Marker>,
    size: number,
    view: FrameView,
    spriteSize: number,
    labelled: LabelCandidate[] | null,
    selected: Marker | undefined,
    labelsOnly = false,
  ): number {
    if (this.markers.length < size * 3) this.markers = new Int32Array(size * 3);
    const buffer = this.markers;
    const { now, ratio, offsetX, offsetY, width, height, stale } = view;
    const half = spriteSize / 2;
    let count = 0;
    for (const marker of all) {
      const t = glideProgress(marker, now);
      // Whole pixels: a sub-pixel copy is filtered and costs several times more.
      const x = Math.round((marker.fromX + (marker.toX - marker.fromX) * t + offsetX) * ratio - half);
      const y = Math.round((marker.fromY + (marker.toY - marker.fromY) * t + offsetY) * ratio - half);
      if (x <= -spriteSize || y <= -spriteSize || x >= width || y >= height) continue;
      const level = stale ? 'offline' : marker.level;
      buffer[count * 3] = x;
      buffer[count * 3 + 1] = y;
      buffer[count * 3 + 2] = spriteIndex(level, marker.shape);
      count++;
      if (labelled && marker.label && labelled.length < MAX_LABEL_CANDIDATES) {
        labelled.push(labelCandidate(marker.label, level, marker === selected, x, y, spriteSize));
        // At 50,000 markers in view that is after a few thousand: the rest would be placed for nothing.
        if (labelsOnly && labelled.length === MAX_LABEL_CANDIDATES) break;
      }
    }
    return count;
  }

  /** Places the escort lines whose two markers are both present into `links`; returns how many. */
  placeLinks(pairs: readonly [string, string][], markers: ReadonlyMap<string, Marker>, view: FrameView): number {
    if (this.links.length < pairs.length * 4) this.links = new Float32Array(pairs.length * 4);
    const buffer = this.links;
    const { now, ratio, offsetX, offsetY } = view;
    let count = 0;
    for (const [a, b] of pairs) {
      const from = markers.get(a);
      const to = markers.get(b);
      if (!from || !to) continue;
      const ta = glideProgress(from, now);
      const tb = glideProgress(to, now);
      buffer[count * 4] = (from.fromX + (from.toX - from.fromX) * ta + offsetX) * ratio;
      buffer[count * 4 + 1] = (from.fromY + (from.toY - from.fromY) * ta + offsetY) * ratio;
      buffer[count * 4 + 2] = (to.fromX + (to.toX - to.fromX) * tb + offsetX) * ratio;
      buffer[count * 4 + 3] = (to.fromY + (to.toY - to.fromY) * tb + offsetY) * ratio;
      count++;
    }
    return count;
  }
}
