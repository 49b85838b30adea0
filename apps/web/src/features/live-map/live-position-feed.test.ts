// The live map's feed spreads a large batch of fixes over animation frames (a few milliseconds each) instead of
// applying it in one frame the page would drop, and still ends with every marker at its latest fix.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TrackedLocation } from '@prison/shared/realtime';
import type { MarkerPosition, TrackedMarkersLayer } from '../../map/tracked-markers-layer';
import { LivePositionFeed } from './live-position-feed';

let clock = 0;
let frames: (() => void)[] = [];

beforeEach(() => {
  clock = 0;
  frames = [];
  vi.spyOn(performance, 'now').mockImplementation(() => clock);
  vi.stubGlobal('requestAnimationFrame', (callback: () => void) => frames.push(callback));
  vi.stubGlobal('cancelAnimationFrame', () => undefined);
});

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

/** A layer that records each marker's latest position; every upsert costs 10 µs of the (fake) clock. */
function fakeLayer() {
  const placed = new Map<string, MarkerPosition>();
  let upserts = 0;
  const layer = {
    upsert(id: string, position: MarkerPosition) {
      upserts++;
      clock += 0.01;
      placed.set(id, position);
    },
    removeMarker(id: string) {
      placed.delete(id);
    },
    setLevel() {},
  } as unknown as TrackedMarkersLayer;
  return { layer, placed, upserts: () => upserts };
}

function fix(i: number, latitude: number): TrackedLocation {
  return { id: `t-${i}`, trackingId: `t-${i}`, prisonerId: i, name: `P ${i}`, latitude, longitude: 0, cellId: null };
}

function batch(count: number, latitude: number) {
  const changed: Record<string, TrackedLocation> = {};
  for (let i = 0; i < count; i++) changed[`t-${i}`] = fix(i, latitude);
  return { changed, gone: [] };
}

/** Runs the pending animation frame; returns false when none was requested. */
function nextFrame(): boolean {
  const frame = frames.shift();
  frame?.();
  return frame !== undefined;
}

describe('live position feed', () => {
  it('sends the popup detail with the first fix and when the cell changes, not with every fix', () => {
    const { layer, placed } = fakeLayer();
    const feed = new LivePositionFeed(layer, () => undefined);
    const send = (location: TrackedLocation) => {
      feed.changes({ changed: { [location.trackingId]: location }, gone: [] });
      while (nextFrame());
      return placed.get(location.trackingId);
    };
    expect(send(fix(1, 1))?.detail).toBe('#1 · no cell');
    // The same wearer in the same cell: the layer keeps the detail it has.
    expect(send(fix(1, 2))).toMatchObject({ latitude: 2, detail: undefined });
    expect(send({ ...fix(1, 3), cellId: 'B-4' })?.detail).toBe('#1 · cell B-4');
    expect(send({ ...fix(1, 4), cellId: 'B-4', prisonerId: 2 })?.detail).toBe('#2 · cell B-4');
  });

  it('applies 10,000 fixes over several frames, each within its budget, ending with every latest fix', () => {
    const { layer, placed, upserts } = fakeLayer();
    const feed = new LivePositionFeed(layer, () => undefined);
    feed.changes(batch(10_000, 1));
    const frameCosts: number[] = [];
    while (true) {
      const before = clock;
      if (!nextFrame()) break;
      frameCosts.push(clock - before);
      clock += 16;
    }
    expect(frameCosts.length).toBeGreaterThan(5);
    // The budget is checked every 256 fixes: a frame may go over by at most that many (2.56 ms here).
    expect(Math.max(...frameCosts)).toBeLessThan(4 + 2.6);
    expect(placed.size).toBe(10_000);
    expect(upserts()).toBe(10_000);
    expect(feed.current.size).toBe(10_000);
  });

  it('a newer fix arriving before the rest of a batch is applied replaces the waiting one', () => {
    const { layer, placed, upserts } = fakeLayer();
    const feed = new LivePositionFeed(layer, () => undefined);
    feed.changes(batch(5_000, 1));
    nextFrame();
    const appliedFirst = upserts();
    expect(appliedFirst).toBeLessThan(5_000);
    feed.changes(batch(5_000, 2));
    while (nextFrame()) clock += 16;
    expect([...placed.values()].every((position) => position.latitude === 2)).toBe(true);
    // Those still waiting were applied once, with the newer fix.
    expect(upserts()).toBe(appliedFirst + 5_000);
  });

  it('a snapshot replaces the markers, the ones missing from it leave', () => {
    const { layer, placed } = fakeLayer();
    const feed = new LivePositionFeed(layer, () => undefined);
    feed.changes(batch(3, 1));
    while (nextFrame()) clock += 16;
    feed.snapshot({ 't-1': fix(1, 5) });
    while (nextFrame()) clock += 16;
    expect([...placed.keys()]).toEqual(['t-1']);
    expect(placed.get('t-1')?.latitude).toBe(5);
  });
});
