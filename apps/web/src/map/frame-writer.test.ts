// The frame writer draws what drawing every sprite one by one, back to front, draws: exactly when few markers
// overlap (it copies them in order), within one level per channel when many do (it draws front to back).
import { describe, expect, it, vi } from 'vitest';
import { FrameWriter } from './frame-writer';
import { blit, spritePixels, type SpritePixels } from './sprite-pixels';
import { dotSprite, SIZE } from './synthetic-sprites';

/** `count` markers scattered over (and just past the edges of) a width x height frame, the sprites taking turns. */
function scatter(count: number, width: number, height: number, seed: number, sprites = 2, size = SIZE): Int32Array {
  const markers = new Int32Array(count * 3);
  const random = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
  for (let i = 0; i < count; i++) {
    markers[i * 3] = Math.floor(random() * (width + size)) - size + 1;
    markers[i * 3 + 1] = Math.floor(random() * (height + size)) - size + 1;
    markers[i * 3 + 2] = i % sprites;
  }
  return markers;
}

const twoDots = () => [dotSprite(220, 38, 38), dotSprite(37, 99, 235)].map((rgba) => spritePixels(rgba, SIZE));

/** The writer's frame and the largest difference of one channel between it and the one-by-one frame. */
function compare(sprites: SpritePixels[], markers: Int32Array, width: number, height: number): { largest: number; written: Int32Array } {
  const count = markers.length / 3;
  // The last frame's pixels: the writer clears each band before drawing into it.
  const written = new Int32Array(width * height).fill(0x7f00ff00);
  new FrameWriter().draw(written, width, height, sprites, markers, count);
  const oneByOne = new Int32Array(width * height);
  for (let i = 0; i < count; i++) blit(oneByOne, width, 0, height, sprites[markers[i * 3 + 2]!]!, markers[i * 3]!, markers[i * 3 + 1]!);
  const a = new Uint8Array(written.buffer);
  const b = new Uint8Array(oneByOne.buffer);
  let largest = 0;
  for (let i = 0; i < a.length; i++) largest = Math.max(largest, Math.abs(a[i]! - b[i]!));
  return { largest, written };
}

function largestDifference(count: number, width: number, height: number, seed: number): { largest: number; drawn: boolean } {
  const { largest, written } = compare(twoDots(), scatter(count, width, height, seed), width, height);
  return { largest, drawn: written.some((word) => word !== 0) };
}

/** A dot with a transparent hole in its middle: rows whose visible pixels are two runs. */
function ringSprite(): SpritePixels {
  const rgba = dotSprite(22, 163, 74);
  for (let y = 0; y < SIZE; y++) {
    for (let x = 0; x < SIZE; x++) if (Math.hypot(x + 0.5 - SIZE / 2, y + 0.5 - SIZE / 2) < 3) rgba[(y * SIZE + x) * 4 + 3] = 0;
  }
  return spritePixels(rgba, SIZE);
}

describe('frame writer', () => {
  it('copies sparse markers band by band exactly as one by one, over whatever the frame held before', () => {
    // 100 sprite boxes on 60,000 pixels: about half a box per pixel.
    const { largest, drawn } = largestDifference(100, 300, 200, 11);
    expect(drawn).toBe(true);
    expect(largest).toBe(0);
  });

  it('draws dense markers front to back as one by one back to front, within one level per channel', () => {
    // 2,000 sprite boxes on 60,000 pixels: ten deep, most sprite pixels hidden.
    for (const seed of [11, 12, 13]) {
      const { largest, drawn } = largestDifference(2000, 300, 200, seed);
      expect(drawn).toBe(true);
      expect(largest).toBeLessThanOrEqual(1);
    }
  });

  it('shows the marker drawn last on top where markers overlap', () => {
    const sprites = [dotSprite(220, 38, 38), dotSprite(37, 99, 235)].map((rgba) => spritePixels(rgba, SIZE));
    const width = 60;
    const height = 40;
    // 400 markers on one spot (front to back), the last one blue.
    const count = 400;
    const markers = new Int32Array(count * 3);
    for (let i = 0; i < count; i++) markers.set([20, 10, i === count - 1 ? 1 : 0], i * 3);
    const frame = new Int32Array(width * height);
    new FrameWriter().draw(frame, width, height, sprites, markers, count);
    const centre = frame[(10 + SIZE / 2) * width + 20 + SIZE / 2]!;
    expect([centre & 255, (centre >> 8) & 255, (centre >> 16) & 255]).toEqual([37, 99, 235]);
  });

  it('covers a frame many times over opaque everywhere, as one by one', () => {
    // 3,000 sprite boxes on 2,400 pixels: 400 deep; the frame's width is no multiple of 32.
    const { largest, written } = compare(twoDots(), scatter(3000, 60, 40, 5), 60, 40);
    expect(written.every((word) => word >>> 24 === 255)).toBe(true);
    expect(largest).toBeLessThanOrEqual(1);
  });

  it('clips sprites at every edge of the frame and draws nothing of those wholly outside it', () => {
    const sprites = [...twoDots(), ringSprite()];
    for (const [width, height] of [
      [45, 37],
      [64, 40],
    ] as const) {
      const xs = [-300, -SIZE - 3, -SIZE, -SIZE + 1, -5, 0, 13, width - SIZE, width - 5, width - 1, width, width + 4, width + 200];
      const ys = [-300, -SIZE - 2, -SIZE, -SIZE + 1, -3, 0, height - SIZE, height - 4, height - 1, height, height + 5, height + 300];
      const positions = xs.flatMap((x) => ys.map((y) => [x, y]));
      // Each order once, so that each sprite is in front somewhere; over 20 boxes deep, so drawn front to back.
      for (const ordered of [positions, [...positions].reverse()]) {
        const markers = new Int32Array(ordered.flatMap(([x, y], i) => [x!, y!, i % 3]));
        const { largest, written } = compare(sprites, markers, width, height);
        expect(largest).toBeLessThanOrEqual(1);
        // The middle of the frame is under no sprite: cleared, not left as the last frame's pixel.
        expect(written[20 * width + 30]).toBe(0);
        expect(written.filter((word) => word >>> 24 === 255).length).toBeGreaterThan(width * height * 0.3);
      }
    }
  });

  it('draws sprites wider than 32 pixels front to back, and sprites of two sizes together', () => {
    const large = spritePixels(dotSprite(37, 99, 235, 36), 36);
    const small = spritePixels(dotSprite(220, 38, 38), SIZE);
    for (const seed of [3, 4]) {
      // 400 boxes of up to 36 x 36 pixels on 7,000 pixels.
      const markers = scatter(400, 100, 70, seed, 2, 36);
      const { largest, written } = compare([small, large], markers, 100, 70);
      expect(written.some((word) => word !== 0)).toBe(true);
      expect(largest).toBeLessThanOrEqual(1);
      // The same with the large sprites 29 to 31 columns past a multiple of 32: their rows span three mask words.
      for (let i = 1; i < 400; i += 2) markers[i * 3] = markers[i * 3]! - (markers[i * 3]! & 31) + 29 + (i % 3);
      expect(compare([small, large], markers, 100, 70).largest).toBeLessThanOrEqual(1);
    }
  });

  it('draws front to back from exactly three sprite boxes per frame pixel, in order below, right either way', () => {
    const behind = vi.spyOn(FrameWriter.prototype as unknown as { drawBehind: () => void }, 'drawBehind');
    try {
      // 120 x 90 = 10,800 pixels: 100 boxes of 18 x 18 are exactly three deep, 99 just under.
      const atThreshold = compare(twoDots(), scatter(100, 120, 90, 7), 120, 90);
      expect(behind).toHaveBeenCalled();
      expect(atThreshold.largest).toBeLessThanOrEqual(1);
      behind.mockClear();
      const below = compare(twoDots(), scatter(99, 120, 90, 7), 120, 90);
      expect(behind).not.toHaveBeenCalled();
      expect(below.largest).toBe(0);
    } finally {
      behind.mockRestore();
    }
  });
});
