// Writes a whole frame of markers into one ImageData's words, band by band of rows. Where the sprites lie three or
// more deep it goes front to back: the marker drawn last is written first and every pixel it covers opaquely is
// marked, so the markers behind skip those pixels, and a sprite row whose pixels are all covered costs a test of one
// or two 32-bit mask words instead of a write per pixel (at 50,000 markers on a 1600x900 view nine in ten sprite
// pixels are hidden, and seven sprite rows in ten). A second mask tells the pixels nothing is drawn on yet, where
// the sprite's pixels are copied without reading the frame. Where the sprites are sparse it copies each in drawing
// order. Either way the picture is "source-over" in drawing order (front to back within a level per channel).
import { blend, blit, type SpritePixels } from './sprite-pixels';

/**
 * Rows per band, as a power of two (so a row's band is a shift): a band of a 1600-pixel frame (400 kB) stays in the
 * CPU's cache while it is drawn.
 */
const BAND_SHIFT = 6;
/**
 * Sprite boxes per frame pixel from which the frame is drawn front to back. Below it few sprite pixels are hidden,
 * and copying each sprite's opaque runs as they are (sprite-pixels.ts: blit) is cheaper than testing each pixel.
 */
const FRONT_TO_BACK_DEPTH = 3;

export class FrameWriter {
  /** `frontToBackDepth`: sprite boxes per frame pixel from which it draws front to back (Infinity: never). */
  constructor(private readonly frontToBackDepth = FRONT_TO_BACK_DEPTH) {}

  /**
   * One bit per frame pixel, set when the pixel is opaque already; a row is `maskStride` words: `maskPad` words left
   * of the frame's first column and words past its last, every bit of them set, so sprites are clipped to the
   * frame's columns by the mask alone.
   */
  private mask = new Int32Array(0);
  private maskStride = 0;
  private maskPad = 0;
  private maskWidth = 0;
  /** A mask row before anything is drawn: only the bits outside the frame set. */
  private emptyMaskRow = new Int32Array(0);
  /** One bit per frame pixel, set once a sprite pixel is written there (a pixel whose bit is clear holds 0). */
  private drawn = new Int32Array(0);
  /** Scratch of the banding, kept between frames: where each band's markers start in `byBand`. */
  private starts = new Int32Array(0);
  private next = new Int32Array(0);
  /** Per band, x, y and sprite of each marker reaching into it (one at a band's foot is in two), in drawing order. */
  private byBand = new Int32Array(0);

  /**
   * Draws `count` markers (x, y of the sprite's top left and a sprite index per marker in `markers`, in drawing
   * order: a later one covers an earlier one) into a cleared frame, band by band of rows: with thousands of markers
   * scattered over the frame, writing them in their own order misses the CPU's cache on nearly every row.
   */
  draw(frame: Int32Array, width: number, height: number, sprites: SpritePixels[], markers: Int32Array, count: number): void {
    let largest = 0;
    for (const sprite of sprites) largest = Math.max(largest, sprite.size);
    // Bands at least as tall as the largest sprite, so a marker reaches into two at most.
    const bandShift = Math.max(BAND_SHIFT, largest > 1 ? 32 - Math.clz32(largest - 1) : 0);
    const band = 1 << bandShift;
    const bands = Math.ceil(height / band);
    const frontToBack = (count * largest * largest) / (width * height) >= this.frontToBackDepth;
    if (frontToBack) this.reserveMask(width, height, largest);
    this.reserve(bands, count);
    const { mask, drawn, maskStride, emptyMaskRow, starts, next, byBand } = this;
    // Markers by the bands they reach into (a stable counting sort, so each band's list keeps the drawing order),
    // copied, so that a band reads its markers in one sweep.
    starts.fill(0, 0, bands + 1);
    for (let i = 0; i < count; i++) {
      const x = markers[i * 3]!;
      const y = markers[i * 3 + 1]!;
      if (x <= -largest || x >= width || y <= -largest || y >= height) continue;
      const first = y <= 0 ? 0 : y >> bandShift;
      const last = (y + largest - 1) >> bandShift;
      starts[first + 1]!++;
      if (last !== first && last < bands) starts[last + 1]!++;
    }
    for (let b = 0; b < bands; b++) starts[b + 1]! += starts[b]!;
    for (let b = 0; b < bands; b++) next[b] = starts[b]!;
    for (let i = 0; i < count; i++) {
      const x = markers[i * 3]!;
      const y = markers[i * 3 + 1]!;
      if (x <= -largest || x >= width || y <= -largest || y >= height) continue;
      const first = y <= 0 ? 0 : y >> bandShift;
      const last = (y + largest - 1) >> bandShift;
      let at = next[first]!++ * 3;
      byBand[at] = x;
      byBand[at + 1] = y;
      byBand[at + 2] = markers[i * 3 + 2]!;
      if (last === first || last >= bands) continue;
      at = next[last]!++ * 3;
      byBand[at] = x;
      byBand[at + 1] = y;
      byBand[at + 2] = markers[i * 3 + 2]!;
    }
    for (let b = 0; b < bands; b++) {
      const top = b * band;
      const bottom = Math.min(height, top + band);
      // Cleared here rather than all at once before: the band is then in the cache for its markers.
      frame.fill(0, top * width, bottom * width);
      if (frontToBack) {
        for (let row = top; row < bottom; row++) mask.set(emptyMaskRow, row * maskStride);
        drawn.fill(0, top * maskStride, bottom * maskStride);
        // The marker drawn last first.
        for (let e = starts[b + 1]! - 1; e >= starts[b]!; e--) {
          this.drawBehind(frame, width, top, bottom, sprites[byBand[e * 3 + 2]!]!, byBand[e * 3]!, byBand[e * 3 + 1]!);
        }
      } else {
        for (let e = starts[b]!; e < starts[b + 1]!; e++) {
          blit(frame, width, top, bottom, sprites[byBand[e * 3 + 2]!]!, byBand[e * 3]!, byBand[e * 3 + 1]!);
        }
      }
    }
  }

  /** One sprite at (x, y) behind what the frame holds, within the rows from `top` to `bottom` (exclusive). */
  private drawBehind(frame: Int32Array, width: number, top: number, bottom: number, sprite: SpritePixels, x: number, y: number): void {
    const { size, words, bitWords, visibleBits, opaqueBits } = sprite;
    const drawn = this.drawn;
    const mask = this.mask;
    const stride = this.maskStride;
    // The sprite's left column in mask bits (the mask rows start with padding words, so it is not negative).
    const column = x + (this.maskPad << 5);
    const shift = column & 31;
    const firstRow = top > y ? top - y : 0;
    const endRow = bottom - y < size ? bottom - y : size;
    let bits = (shift * size + firstRow) * bitWords;
    let maskAt = (y + firstRow) * stride + (column >> 5);
    // Frame index of the pixel under bit 0 of the row's first mask word.
    let frameAt = (y + firstRow) * width + x - shift;
    for (let r = firstRow; r < endRow; r++, bits += bitWords, maskAt += stride, frameAt += width) {
      // The row's pixels not yet opaque: none when markers in front cover it all.
      let anyOpen = 0;
      // Spelled out for sprites up to 32 pixels wide (two words): this runs for every sprite row.
      if (bitWords === 2) anyOpen = (visibleBits[bits]! & ~mask[maskAt]!) | (visibleBits[bits + 1]! & ~mask[maskAt + 1]!);
      else for (let k = 0; k < bitWords; k++) anyOpen |= visibleBits[bits + k]! & ~mask[maskAt + k]!;
      if (anyOpen === 0) continue;
      // From a frame index to the sprite's pixel there.
      const toSprite = r * size - shift - frameAt;
      for (let k = 0; k < bitWords; k++) {
        const maskWord = mask[maskAt + k]!;
        const open = visibleBits[bits + k]! & ~maskWord;
        if (open === 0) continue;
        const drawnWord = drawn[maskAt + k]!;
        drawn[maskAt + k] = drawnWord | open;
        const frameWord = frameAt + (k << 5);
        // Where nothing is drawn yet (most of the pixels) the sprite's pixel is copied, run by run of columns.
        let fresh = open & ~drawnWord;
        while (fresh !== 0) {
          const lowest = fresh & -fresh;
          const run = fresh & ~((fresh + lowest) | 0);
          fresh ^= run;
          const end = frameWord + 32 - Math.clz32(run);
          for (let at = frameWord + 31 - Math.clz32(lowest); at < end; at++) frame[at] = words[at + toSprite]!;
        }
        // Behind a translucent pixel in front: blended under it, and opaque now if the sprite's pixel is.
        let opaque = open & opaqueBits[bits + k]!;
        let behind = open & drawnWord;
        while (behind !== 0) {
          const lowest = behind & -behind;
          behind ^= lowest;
          const at = frameWord + 31 - Math.clz32(lowest);
          const out = blend(words[at + toSprite]!, frame[at]!);
          frame[at] = out;
          if (out >> 24 === -1) opaque |= lowest;
        }
        if (opaque !== 0) mask[maskAt + k] = maskWord | opaque;
      }
    }
  }

  /** The masks for a width x height frame and sprites at most `largest` pixels wide. */
  private reserveMask(width: number, height: number, largest: number): void {
    const pad = (largest + 31) >> 5;
    // Words a sprite row spans at its right edge: past the frame's last word when it sticks out.
    const stride = pad + ((width + 31) >> 5) + pad + 1;
    if (this.mask.length < stride * height) this.mask = new Int32Array(stride * height);
    if (this.drawn.length < stride * height) this.drawn = new Int32Array(stride * height);
    if (width === this.maskWidth && pad === this.maskPad) return;
    this.maskWidth = width;
    this.maskPad = pad;
    this.maskStride = stride;
    this.emptyMaskRow = new Int32Array(stride).fill(-1);
    for (let column = 0; column < width; column++) this.emptyMaskRow[pad + (column >> 5)]! &= ~(1 << (column & 31));
  }

  private reserve(bands: number, count: number): void {
    if (this.starts.length < bands + 1) {
      this.starts = new Int32Array(bands + 1);
      this.next = new Int32Array(bands);
    }
    if (this.byBand.length < count * 6) this.byBand = new Int32Array(count * 6);
  }
}

