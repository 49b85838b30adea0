import { describe, expect, it } from 'vitest';
import { blend, blit, spritePixels } from './sprite-pixels';
import { dotSprite, SIZE } from './synthetic-sprites';

/** The straightforward way: every sprite pixel blended over the frame in floating point ("source-over"). */
function reference(frame: Uint8ClampedArray, width: number, height: number, sprite: Uint8ClampedArray, x: number, y: number) {
  for (let sy = 0; sy < SIZE; sy++) {
    for (let sx = 0; sx < SIZE; sx++) {
      const px = x + sx;
      const py = y + sy;
      const from = (sy * SIZE + sx) * 4;
      const sa = sprite[from + 3]! / 255;
      if (px < 0 || py < 0 || px >= width || py >= height || sa === 0) continue;
      const at = (py * width + px) * 4;
      const keep = (frame[at + 3]! / 255) * (1 - sa);
      const outA = sa + keep;
      for (let c = 0; c < 3; c++) frame[at + c] = (sprite[from + c]! * sa + frame[at + c]! * keep) / outA;
      frame[at + 3] = outA * 255;
    }
  }
}

describe('sprite pixels', () => {
  it('draws overlapping, clipped sprites as plain source-over blending does (within one level per channel)', () => {
    const width = 120;
    const height = 70;
    const sprites = [dotSprite(220, 38, 38), dotSprite(37, 99, 235), dotSprite(100, 116, 139)];
    const pixels = sprites.map((rgba) => spritePixels(rgba, SIZE));
    const fast = new Uint8ClampedArray(width * height * 4);
    const slow = new Uint8ClampedArray(width * height * 4);
    const words = new Int32Array(fast.buffer);
    let seed = 7;
    const random = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    for (let i = 0; i < 400; i++) {
      const x = Math.floor(random() * (width + 2 * SIZE)) - SIZE;
      const y = Math.floor(random() * (height + 2 * SIZE)) - SIZE;
      const which = i % 3;
      blit(words, width, 0, height, pixels[which]!, x, y);
      reference(slow, width, height, sprites[which]!, x, y);
    }
    let largest = 0;
    for (let i = 0; i < fast.length; i++) largest = Math.max(largest, Math.abs(fast[i]! - slow[i]!));
    expect(largest).toBeLessThanOrEqual(1);
    // Something was drawn, and both colours and edges are in it.
    expect(words.some((word) => word >>> 24 === 255)).toBe(true);
    expect(words.some((word) => word >>> 24 > 0 && word >>> 24 < 255)).toBe(true);
  });

  it('keeps opaque runs and translucent edge pixels apart', () => {
    const sprite = spritePixels(dotSprite(220, 38, 38), SIZE);
    const runPixels = sprite.runColour.length;
    expect(runPixels).toBeGreaterThan(100);
    expect(sprite.edgeColour.length).toBeGreaterThan(20);
    expect([...sprite.edgeColour].every((word) => word >>> 24 > 0 && word >>> 24 < 255)).toBe(true);
  });

  it('blends white at half alpha over an opaque colour halfway', () => {
    const red = -16777216 | 200;
    const halfWhite = (128 << 24) | 0xffffff;
    const out = blend(red, halfWhite);
    expect(out >>> 24).toBe(255);
    expect(out & 255).toBe(228);
    expect((out >> 8) & 255).toBe(128);
  });
});
