// Marker sprites as pixel runs, for writing thousands of markers straight into one ImageData: in software rendering
// (no GPU) one drawImage per marker costs about 5 µs, writing the pixels ourselves far less. The frame is one
// 32-bit word per pixel (ImageData's RGBA bytes read little-endian: alpha in the top byte).

/** A sprite as runs of opaque pixels (copied as they are) and a list of anti-aliased edge pixels (blended). */
export interface SpritePixels {
  size: number;
  /** Four numbers per run of opaque pixels in one row: x, y, length, first index in `runColour`. */
  runs: Int16Array;
  runColour: Int32Array;
  /** Two numbers per translucent edge pixel: x, y. */
  edgeXY: Int16Array;
  edgeColour: Int32Array;
  /** Where each run and edge pixel starts in a frame `offsetWidth` pixels wide (from the sprite's top left). */
  offsetWidth: number;
  runOffset: Int32Array;
  edgeOffset: Int32Array;
}

/** Splits a size x size RGBA bitmap (not premultiplied, as getImageData returns it) into runs and edge pixels. */
export function spritePixels(rgba: Uint8ClampedArray, size: number): SpritePixels {
  const words = new Int32Array(rgba.buffer, rgba.byteOffset, size * size);
  const runs: number[] = [];
  const runColour: number[] = [];
  const edgeXY: number[] = [];
  const edgeColour: number[] = [];
  for (let y = 0; y < size; y++) {
    let x = 0;
    while (x < size) {
      const alpha = rgba[(y * size + x) * 4 + 3]!;
      if (alpha === 255) {
        const start = x;
        const first = runColour.length;
        while (x < size && rgba[(y * size + x) * 4 + 3] === 255) runColour.push(words[y * size + x++]!);
        runs.push(start, y, x - start, first);
        continue;
      }
      if (alpha > 0) {
        edgeXY.push(x, y);
        edgeColour.push(words[y * size + x]!);
      }
      x++;
    }
  }
  return {
    size,
    runs: Int16Array.from(runs),
    runColour: Int32Array.from(runColour),
    edgeXY: Int16Array.from(edgeXY),
    edgeColour: Int32Array.from(edgeColour),
    offsetWidth: 0,
    runOffset: new Int32Array(runs.length / 4),
    edgeOffset: new Int32Array(edgeXY.length / 2),
  };
}

/** x / 255, rounded, for 0 <= x <= 255 * 255. */
function div255(x: number): number {
  x += 128;
  return (x + (x >> 8)) >> 8;
}

/** A translucent source word drawn over a destination word ("source-over", neither premultiplied). */
export function blend(destination: number, source: number): number {
  const da = destination >>> 24;
  if (da === 0) return source;
  const sa = source >>> 24;
  const keep = 255 - sa;
  if (da === 255) {
    // Over an opaque pixel (a marker below): the result is opaque.
    const r = div255((source & 255) * sa + (destination & 255) * keep);
    const g = div255(((source >> 8) & 255) * sa + ((destination >> 8) & 255) * keep);
    const b = div255(((source >> 16) & 255) * sa + ((destination >> 16) & 255) * keep);
    return -16777216 | (b << 16) | (g << 8) | r;
  }
  // Two translucent edges: weights scaled by 255 * 255.
  const from = sa * 255;
  const below = da * keep;
  const total = from + below;
  const half = total >> 1;
  const r = ((source & 255) * from + (destination & 255) * below + half) / total;
  const g = (((source >> 8) & 255) * from + ((destination >> 8) & 255) * below + half) / total;
  const b = (((source >> 16) & 255) * from + ((destination >> 16) & 255) * below + half) / total;
  const a = div255(total);
  return (a << 24) | (b << 16) | (g << 8) | r;
}

/**
 * Copies a sprite into a frame at (x, y), blending its anti-aliased edge, clipped to the frame's columns and to the
 * rows from `top` to `bottom` (exclusive).
 */
export function blit(
  frame: Int32Array,
  width: number,
  top: number,
  bottom: number,
  sprite: SpritePixels,
  x: number,
  y: number,
): void {
  const { size, runs, runColour, edgeXY, edgeColour } = sprite;
  if (x >= 0 && x + size <= width) {
    // No column to clip (nearly every marker): offsets precomputed for this frame width.
    if (sprite.offsetWidth !== width) computeOffsets(sprite, width);
    const { runOffset, edgeOffset } = sprite;
    const base = y * width + x;
    const whole = y >= top && y + size <= bottom;
    for (let i = 0, r = 0; r < runOffset.length; i += 4, r++) {
      if (!whole) {
        const row = y + runs[i + 1]!;
        if (row < top || row >= bottom) continue;
      }
      let at = base + runOffset[r]!;
      let from = runs[i + 3]!;
      const end = from + runs[i + 2]!;
      while (from < end) frame[at++] = runColour[from++]!;
    }
    for (let e = 0; e < edgeOffset.length; e++) {
      if (!whole) {
        const row = y + edgeXY[e * 2 + 1]!;
        if (row < top || row >= bottom) continue;
      }
      const at = base + edgeOffset[e]!;
      frame[at] = blend(frame[at]!, edgeColour[e]!);
    }
    return;
  }
  for (let i = 0; i < runs.length; i += 4) {
    const py = y + runs[i + 1]!;
    if (py < top || py >= bottom) continue;
    const from = runs[i + 3]!;
    for (let k = 0; k < runs[i + 2]!; k++) {
      const px = x + runs[i]! + k;
      if (px >= 0 && px < width) frame[py * width + px] = runColour[from + k]!;
    }
  }
  for (let i = 0; i < edgeXY.length; i += 2) {
    const px = x + edgeXY[i]!;
    const py = y + edgeXY[i + 1]!;
    if (px < 0 || py < top || px >= width || py >= bottom) continue;
    const at = py * width + px;
    frame[at] = blend(frame[at]!, edgeColour[i / 2]!);
  }
}

/** Rows per band of blitAll: a band of a 1600-pixel frame (400 kB) stays in the CPU's cache while it is drawn. */
const BAND_ROWS = 64;

/**
 * Draws `count` markers (x, y, sprite index per marker in `markers`, in drawing order) into a frame, band by band of
 * rows, clearing each band first: with thousands of markers scattered over the frame, writing them in their own order
 * misses the CPU's cache on nearly every row. Within a band the markers keep their order, so overlaps look the same.
 */
export function blitAll(
  frame: Int32Array,
  width: number,
  height: number,
  sprites: SpritePixels[],
  markers: Int32Array,
  count: number,
): void {
  const largest = sprites.reduce((most, sprite) => Math.max(most, sprite.size), 0);
  const band = Math.max(BAND_ROWS, largest);
  const bands = Math.ceil(height / band);
  // Markers by the band of their top row (a stable counting sort, so each band's list keeps the drawing order).
  const starts = new Int32Array(bands + 1);
  const bandOf = new Int32Array(count);
  for (let i = 0; i < count; i++) {
    const b = Math.min(bands - 1, Math.max(0, Math.floor(markers[i * 3 + 1]! / band)));
    bandOf[i] = b;
    starts[b + 1]!++;
  }
  for (let b = 0; b < bands; b++) starts[b + 1]! += starts[b]!;
  const order = new Int32Array(count);
  const next = starts.slice(0, bands);
  for (let i = 0; i < count; i++) order[next[bandOf[i]!]!++] = i;
  for (let b = 0; b < bands; b++) {
    const top = b * band;
    const bottom = Math.min(height, top + band);
    // Cleared here rather than all at once before: the band is then in the cache for its markers.
    frame.fill(0, top * width, bottom * width);
    // This band's markers and those of the band above that reach into it, merged back into drawing order.
    let above = b > 0 ? starts[b - 1]! : 0;
    const aboveEnd = b > 0 ? starts[b]! : 0;
    let own = starts[b]!;
    const ownEnd = starts[b + 1]!;
    while (above < aboveEnd || own < ownEnd) {
      let i: number;
      if (own >= ownEnd || (above < aboveEnd && order[above]! < order[own]!)) i = order[above++]!;
      else i = order[own++]!;
      const sprite = sprites[markers[i * 3 + 2]!]!;
      const y = markers[i * 3 + 1]!;
      if (y + sprite.size <= top || y >= bottom) continue;
      blit(frame, width, top, bottom, sprite, markers[i * 3]!, y);
    }
  }
}

function computeOffsets(sprite: SpritePixels, width: number): void {
  const { runs, edgeXY, runOffset, edgeOffset } = sprite;
  for (let i = 0; i < runOffset.length; i++) runOffset[i] = runs[i * 4 + 1]! * width + runs[i * 4]!;
  for (let i = 0; i < edgeOffset.length; i++) edgeOffset[i] = edgeXY[i * 2 + 1]! * width + edgeXY[i * 2]!;
  sprite.offsetWidth = width;
}
