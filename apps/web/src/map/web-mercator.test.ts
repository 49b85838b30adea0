import { describe, expect, it } from 'vitest';
import { mercatorX, mercatorY, worldSize } from './web-mercator';

/** OpenStreetMap's tile numbering ("slippy map tilenames"), written another way: tan and sec rather than sin and log. */
function tile(latitude: number, longitude: number, zoom: number): { x: number; y: number } {
  const n = Math.pow(2, zoom);
  const phi = (latitude * Math.PI) / 180;
  return { x: ((longitude + 180) / 360) * n, y: ((1 - Math.log(Math.tan(phi) + 1 / Math.cos(phi)) / Math.PI) / 2) * n };
}

describe('web mercator', () => {
  it('puts every place where the map tiles have it, at every zoom (256 pixels a tile)', () => {
    let seed = 7;
    const random = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    const places: [number, number][] = [
      [0, 0],
      [51.5007, -0.1246],
      [-33.8568, 151.2153],
      [85.05, 179.999],
      [-85.05, -180],
    ];
    for (let i = 0; i < 500; i++) places.push([random() * 170 - 85, random() * 360 - 180]);
    for (const zoom of [0, 3, 10, 16.5, 18, 22]) {
      const size = worldSize(zoom);
      for (const [lat, lng] of places) {
        const expected = tile(lat, lng, zoom);
        // A thousandth of a pixel even at zoom 22, where the world is a billion pixels across.
        expect(Math.abs(mercatorX(lng, size) - expected.x * 256)).toBeLessThan(1e-3);
        expect(Math.abs(mercatorY(lat, size) - expected.y * 256)).toBeLessThan(1e-3);
      }
    }
  });

  it('is Leaflet-sized and cuts the poles where the map is square', () => {
    expect(worldSize(0)).toBe(256);
    expect(worldSize(10)).toBe(262_144);
    expect(mercatorX(-180, 256)).toBe(0);
    expect(mercatorX(180, 256)).toBe(256);
    expect(mercatorY(0, 256)).toBeCloseTo(128, 9);
    expect(mercatorY(85.0511287798, 256)).toBeCloseTo(0, 6);
    expect(mercatorY(90, 256)).toBe(mercatorY(85.0511287798, 256));
    expect(mercatorY(-90, 256)).toBe(mercatorY(-85.0511287798, 256));
  });
});
