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
  /** The bitmap as words (0 where transparent), row by row: what the front-to-back writer reads. */
  words: Int32Array;
  /** Words a row's pixels span as bits at any shift: one more than the 32-pixel words of the sprite's width. */
  bitWords: number;
  /**
   * Per shift s (0 to 31), per row, `bitWords` words: the row's visible pixels (opaque ones) as bits, bit s of the
   * first word being column 0. The front-to-back writer tests them against its mask words without shifting.
   */
  visibleBits: Int32Array;
  opaqueBits: Int32Array;
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
  // Transparent pixels as 0 whatever their colour bytes, so "nothing here" is one comparison.
  const visible = Int32Array.from(words, (word) => (word >>> 24 === 0 ? 0 : word));
  const bitWords = ((size + 31) >> 5) + 1;
  const visibleBits = new Int32Array(32 * size * bitWords);
  const opaqueBits = new Int32Array(32 * size * bitWords);
  for (let shift = 0; shift < 32; shift++) {
    for (let y = 0; y < size; y++) {
      for (let x = 0; x < size; x++) {
        const alpha = rgba[(y * size + x) * 4 + 3]!;
        if (alpha === 0) continue;
        const at = (shift * size + y) * bitWords + ((x + shift) >> 5);
        const bit = 1 << ((x + shift) & 31);
        visibleBits[at]! |= bit;
        if (alpha === 255) opaqueBits[at]! |= bit;
      }
    }
  }
  return {
    size,
    words: visible,
    bitWords,
    visibleBits,
    opaqueBits,
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

function computeOffsets(sprite: SpritePixels, width: number): void {
  const { runs, edgeXY, runOffset, edgeOffset } = sprite;
  for (let i = 0; i < runOffset.length; i++) runOffset[i] = runs[i * 4 + 1]! * width + runs[i * 4]!;
  for (let i = 0; i < edgeOffset.length; i++) edgeOffset[i] = edgeXY[i * 2 + 1]! * width + edgeXY[i * 2]!;
  sprite.offsetWidth = width;
}
