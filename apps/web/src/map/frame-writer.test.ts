// The frame writer draws what drawing every sprite one by one, back to front, draws: exactly when few markers
// overlap (it copies them in order), within one level per channel when many do (it draws front to back).
import { describe, expect, it } from 'vitest';
import { FrameWriter } from './frame-writer';
import { blit, spritePixels } from './sprite-pixels';
import { dotSprite, SIZE } from './synthetic-sprites';

/** `count` markers scattered over (and just past the edges of) a width x height frame, two sprites alternating. */
function scatter(count: number, width: number, height: number, seed: number): Int32Array {
  const markers = new Int32Array(count * 3);
  const random = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
  for (let i = 0; i < count; i++) {
    markers[i * 3] = Math.floor(random() * (width + SIZE)) - SIZE + 1;
    markers[i * 3 + 1] = Math.floor(random() * (height + SIZE)) - SIZE + 1;
    markers[i * 3 + 2] = i % 2;
  }
  return markers;
}

/** The largest difference of one channel between the writer's frame and the one-by-one frame. */
function largestDifference(count: number, width: number, height: number, seed: number): { largest: number; drawn: boolean } {
  const sprites = [dotSprite(220, 38, 38), dotSprite(37, 99, 235)].map((rgba) => spritePixels(rgba, SIZE));
  const markers = scatter(count, width, height, seed);
  // The last frame's pixels: the writer clears each band before drawing into it.
  const written = new Int32Array(width * height).fill(0x7f00ff00);
  new FrameWriter().draw(written, width, height, sprites, markers, count);
  const oneByOne = new Int32Array(width * height);
  for (let i = 0; i < count; i++) blit(oneByOne, width, 0, height, sprites[markers[i * 3 + 2]!]!, markers[i * 3]!, markers[i * 3 + 1]!);
  const a = new Uint8Array(written.buffer);
  const b = new Uint8Array(oneByOne.buffer);
  let largest = 0;
  for (let i = 0; i < a.length; i++) largest = Math.max(largest, Math.abs(a[i]! - b[i]!));
  return { largest, drawn: written.some((word) => word !== 0) };
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
});
