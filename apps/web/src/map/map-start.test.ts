import { describe, expect, it } from 'vitest';
import type { Geofence } from '@prison/shared/geofence';
import { geofenceCorners, parseStoredView, readStoredView, storeView } from './map-start';

describe('stored view', () => {
  it('reads back what was stored', () => {
    const store = new Map<string, string>();
    const storage = { getItem: (k: string) => store.get(k) ?? null, setItem: (k: string, v: string) => store.set(k, v) };
    storeView(storage, { lat: 51.50071234567, lng: -0.1246, zoom: 16 });
    expect(readStoredView(storage)).toEqual({ lat: 51.500712, lng: -0.1246, zoom: 16 });
  });

  it('ignores nothing, garbage and impossible views', () => {
    expect(parseStoredView(null)).toBeNull();
    expect(parseStoredView('{oops')).toBeNull();
    expect(parseStoredView('null')).toBeNull();
    expect(parseStoredView('{"lat":"51","lng":0,"zoom":13}')).toBeNull();
    expect(parseStoredView('{"lat":951,"lng":0,"zoom":13}')).toBeNull();
    expect(parseStoredView('{"lat":51,"lng":0,"zoom":99}')).toBeNull();
  });

  it('opens as if nothing was stored when storage throws', () => {
    const storage = {
      getItem: () => {
        throw new Error('denied');
      },
    };
    expect(readStoredView(storage)).toBeNull();
  });
});

describe('geofenceCorners', () => {
  const base = { geofence_id: 'g', name: 'g', type: 'Positive', alert_type: 'Warning' } as const;
  it('is null with no geofence', () => {
    expect(geofenceCorners([])).toBeNull();
  });

  it('boxes polygons by their points and circles by centre and radius', () => {
    const polygon = {
      ...base,
      shape: 'Polygon',
      coordinates: [
        { lat: 51.5, lng: -0.13 },
        { lat: 51.51, lng: -0.12 },
        { lat: 51.505, lng: -0.11 },
      ],
      center_lat: null,
      center_lng: null,
      radius: null,
    } as unknown as Geofence;
    const circle = {
      ...base,
      shape: 'Circle',
      coordinates: null,
      center_lat: 51.49,
      center_lng: -0.1,
      radius: 1113.2,
    } as unknown as Geofence;
    const [[south, west], [north, east]] = geofenceCorners([polygon, circle])!;
    expect(south).toBeCloseTo(51.48, 4);
    expect(north).toBeCloseTo(51.51, 4);
    expect(west).toBeCloseTo(-0.13, 4);
    expect(east).toBeGreaterThan(-0.1 + 0.0159);
    expect(east).toBeLessThan(-0.1 + 0.0162);
  });
});
