// The pixel worker's scene and the main thread's side of it, end to end without a browser: markers given slots,
// changes flushed as one update, applied by the scene, and drawn where their glide is at a given time.
import { describe, expect, it } from 'vitest';
import { GLIDE_MS, type PixelSceneUpdate } from './marker-pixels-protocol';
import { PixelScene } from './pixel-scene';
import { PixelSceneSync, type SceneMarker } from './pixel-scene-sync';
import { spritePixels } from './sprite-pixels';

const SIZE = 4;
/** Opaque squares: sprite 0 red, 1 green, 2 grey (the stale one). */
function square(r: number, g: number, b: number) {
  const rgba = new Uint8ClampedArray(SIZE * SIZE * 4);
  for (let i = 0; i < SIZE * SIZE; i++) rgba.set([r, g, b, 255], i * 4);
  return spritePixels(rgba, SIZE);
}
const SPRITES = [square(255, 0, 0), square(0, 255, 0), square(128, 128, 128)];
const RED = -16777216 | 255;
const GREEN = -16777216 | (255 << 8);
const GREY = -16777216 | (128 << 16) | (128 << 8) | 128;

interface TestMarker extends SceneMarker {
  sprite: number;
}

function marker(x: number, y: number, sprite = 0): TestMarker {
  return { slot: -1, queued: false, fromX: x, fromY: y, toX: x, toY: y, glideStart: -GLIDE_MS, sprite };
}

const WIDTH = 40;
const HEIGHT = 20;
const VIEW = { width: WIDTH, height: HEIGHT, ratio: 1, offsetX: 0, offsetY: 0, stale: false };

/** The main thread's clock is 0 here; the scene is drawn at `at` on the same clock. */
function setUp() {
  const sync = new PixelSceneSync();
  const scene = new PixelScene();
  scene.setSprites(SPRITES, [2, 2, 2]);
  const send = (links: () => Int32Array<ArrayBuffer> = () => new Int32Array(0)): PixelSceneUpdate | null => {
    const update = sync.flush((m) => (m as TestMarker).sprite, links, 0);
    if (update) scene.apply(update);
    return update;
  };
  const frame = new Int32Array(WIDTH * HEIGHT);
  const draw = (at: number) => scene.draw(frame, at);
  /** The pixel at a marker's centre. */
  const at = (x: number, y: number) => frame[y * WIDTH + x];
  return { sync, scene, send, draw, at, frame };
}

describe('pixel scene', () => {
  it('draws each marker where its glide is at the time of the frame, and says while any still glides', () => {
    const { sync, send, draw, at } = setUp();
    const still = marker(5, 5);
    const moving = marker(10, 10, 1);
    sync.reset([still, moving]);
    sync.setView(VIEW);
    send();
    expect(draw(0).gliding).toBe(false);
    expect(at(5, 5)).toBe(RED);
    expect(at(10, 10)).toBe(GREEN);

    // A new fix: from (10, 10) to (30, 10), starting at t = 0.
    moving.toX = 30;
    moving.glideStart = 0;
    sync.changed(moving);
    send();
    expect(draw(GLIDE_MS / 2).gliding).toBe(true);
    expect(at(20, 10)).toBe(GREEN);
    expect(at(10, 10)).toBe(0);
    expect(draw(GLIDE_MS).gliding).toBe(false);
    expect(at(30, 10)).toBe(GREEN);
    expect(at(20, 10)).toBe(0);
  });

  it('sends nothing when nothing changed, and a new view only when it differs', () => {
    const { sync, send } = setUp();
    sync.reset([marker(5, 5)]);
    const first = sync.setView(VIEW);
    expect(send()?.view?.id).toBe(first.id);
    expect(sync.setView({ ...VIEW }).id).toBe(first.id);
    expect(send()).toBeNull();
    const panned = sync.setView({ ...VIEW, offsetX: 3 });
    expect(panned.id).toBeGreaterThan(first.id);
    const update = send();
    expect(update?.view?.offsetX).toBe(3);
    expect(update?.slots).toBeUndefined();
  });

  it('empties a removed marker\'s slot, and a slot freed and taken in the same frame shows its new marker', () => {
    const { sync, send, draw, at } = setUp();
    const a = marker(5, 5);
    const b = marker(15, 5);
    sync.reset([a, b]);
    sync.setView(VIEW);
    send();
    const slotOfA = a.slot;
    sync.remove(a);
    const c = marker(25, 5, 1);
    sync.add(c);
    expect(c.slot).toBe(slotOfA);
    send();
    draw(0);
    expect(at(5, 5)).toBe(0);
    expect(at(15, 5)).toBe(RED);
    expect(at(25, 5)).toBe(GREEN);
  });

  it('greys every marker while the view is stale', () => {
    const { sync, send, draw, at } = setUp();
    sync.reset([marker(5, 5), marker(15, 5, 1)]);
    sync.setView({ ...VIEW, stale: true });
    send();
    draw(0);
    expect(at(5, 5)).toBe(GREY);
    expect(at(15, 5)).toBe(GREY);
  });

  it('clears on reset: markers not given again are no longer drawn', () => {
    const { sync, send, draw, at } = setUp();
    const kept = marker(15, 5);
    sync.reset([marker(5, 5), kept]);
    sync.setView(VIEW);
    send();
    sync.reset([kept]);
    expect(send()?.clear).toBe(true);
    draw(0);
    expect(at(5, 5)).toBe(0);
    expect(at(15, 5)).toBe(RED);
  });

  it('joins escort pairs between the glided centres, and skips a pair with an empty slot', () => {
    const { sync, scene, send, draw } = setUp();
    const a = marker(5, 5);
    const b = marker(25, 15);
    sync.reset([a, b]);
    sync.setView({ ...VIEW, ratio: 2 });
    const links = () => Int32Array.from([a.slot, b.slot, a.slot, 99]);
    send(links);
    expect(draw(0).linkCount).toBe(1);
    expect([...scene.linkSegments.slice(0, 4)]).toEqual([10, 10, 50, 30]);
  });

  it('turns a batch of 10,000 changed markers into one update of typed arrays', () => {
    const { sync, send, draw } = setUp();
    const markers = Array.from({ length: 10_000 }, (_, i) => marker(i % WIDTH, i % HEIGHT));
    sync.reset(markers);
    sync.setView(VIEW);
    send();
    for (const m of markers) {
      m.toX = m.fromX + 1;
      m.glideStart = 0;
      sync.changed(m);
      sync.changed(m);
    }
    const update = send();
    expect(update?.slots?.length).toBe(10_000);
    expect(update?.values?.length).toBe(60_000);
    expect(draw(GLIDE_MS / 2).gliding).toBe(true);
  });
});
