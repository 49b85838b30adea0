import { describe, expect, it } from 'vitest';
import { DRAG_THRESHOLD_PX, DRAGGED_SHAPES, releaseOutcome } from './draw-gesture';

describe('releaseOutcome', () => {
  it('finishes the shape when the pointer was dragged', () => {
    expect(releaseOutcome({ x: 100, y: 100 }, { x: 190, y: 130 })).toBe('finish');
    expect(releaseOutcome({ x: 100, y: 100 }, { x: 100 - DRAG_THRESHOLD_PX, y: 100 })).toBe('finish');
  });

  it('gives the drawing up on a click without a drag, as leaflet-draw did', () => {
    expect(releaseOutcome({ x: 100, y: 100 }, { x: 100, y: 100 })).toBe('cancel');
    // A tremor of a pixel or two is still a click.
    expect(releaseOutcome({ x: 100, y: 100 }, { x: 102, y: 101 })).toBe('cancel');
  });
});

it('drags circles and rectangles only: a polygon is drawn point by point', () => {
  expect(DRAGGED_SHAPES).toEqual(['Circle', 'Rectangle']);
});
