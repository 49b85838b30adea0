import { describe, expect, it } from 'vitest';
import { CROSSING_ERROR_MS, POLYGON_CROSSING_ERROR, firstCrossing } from './crossing';

it("keeps the client contract's message and time", () => {
  expect(POLYGON_CROSSING_ERROR).toBe('Error: shape edges cannot cross!');
  expect(CROSSING_ERROR_MS).toBe(2500);
});

describe('firstCrossing', () => {
  it("reads the first point of geoman's report, GeoJSON [lng, lat]", () => {
    const report = {
      features: [
        { geometry: { type: 'Point', coordinates: [-0.1246, 51.5007] } },
        { geometry: { type: 'Point', coordinates: [-0.2, 51.6] } },
      ],
    };
    expect(firstCrossing(report)).toEqual({ lat: 51.5007, lng: -0.1246 });
  });

  it('skips what is not a point, and gives null for an empty or missing report', () => {
    const line = { geometry: { type: 'LineString', coordinates: [[0, 0], [1, 1]] } };
    expect(firstCrossing({ features: [line, { geometry: { type: 'Point', coordinates: [2, 3] } }] })).toEqual({ lat: 3, lng: 2 });
    expect(firstCrossing({ features: [line] })).toBeNull();
    expect(firstCrossing({ features: [] })).toBeNull();
    expect(firstCrossing(undefined)).toBeNull();
  });
});
