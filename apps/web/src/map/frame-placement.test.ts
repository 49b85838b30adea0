// Where markers are placed in a frame: glided positions in whole canvas pixels, only those in view, and label
// candidates that are the same whether or not the walk stops once it has enough of them (the worker path).
import { describe, expect, it } from 'vitest';
import { FramePlacement, type FrameView } from './frame-placement';
import type { LabelCandidate } from './label-placement';
import { GLIDE_MS } from './marker-pixels-protocol';
import { newMarker, type Marker } from './tracked-marker';

function markerAt(x: number, y: number, label = 'AB C-1'): Marker {
  const marker = newMarker({ name: 'A B', latitude: 0, longitude: 0, label }, 0);
  Object.assign(marker, { fromX: x, fromY: y, toX: x, toY: y });
  return marker;
}

const VIEW: FrameView = { now: 0, ratio: 1, offsetX: 0, offsetY: 0, width: 200, height: 100, stale: false };

describe('frame placement', () => {
  it('places markers in view where their glide is, sprite top left in whole pixels', () => {
    const gliding = markerAt(10, 10);
    Object.assign(gliding, { toX: 30, toY: 50, glideStart: 0 });
    const outside = markerAt(500, 10);
    const placement = new FramePlacement();
    const count = placement.placeMarkers([gliding, outside], 2, { ...VIEW, now: GLIDE_MS / 2 }, 18, null, undefined);
    expect(count).toBe(1);
    // Halfway: (20, 30), minus half the sprite.
    expect([...placement.markers.slice(0, 3)]).toEqual([11, 21, 6]);
  });

  it('collects the same label candidates when it stops early (the worker path) as when it walks every marker', () => {
    const markers = Array.from({ length: 3000 }, (_, i) => markerAt(10 + (i % 180), 10 + (i % 80), `L${i}`));
    const all: LabelCandidate[] = [];
    const early: LabelCandidate[] = [];
    new FramePlacement().placeMarkers(markers, markers.length, VIEW, 18, all, markers[2500]);
    new FramePlacement().placeMarkers(markers, markers.length, VIEW, 18, early, markers[2500], true);
    expect(all.length).toBe(2000);
    expect(early).toEqual(all);
  });
});
