// Where a map opens (decision 026): the operator's last view in this browser, else fitted to the geofences, else the
// configured start point and zoom.
import type { Geofence } from '@prison/shared/geofence';

export interface MapViewState {
  lat: number;
  lng: number;
  zoom: number;
}

/** South-west and north-east corners, [lat, lng] each. */
export type Corners = [[number, number], [number, number]];

export const LIVE_MAP_VIEW_KEY = 'prison.liveMap.view';

/** The stored view, or null when absent or not a usable view (hand-edited, or from an older version). */
export function parseStoredView(raw: string | null): MapViewState | null {
  if (!raw) return null;
  try {
    const value = JSON.parse(raw) as Partial<MapViewState> | null;
    if (!value || typeof value !== 'object') return null;
    const { lat, lng, zoom } = value;
    if (typeof lat !== 'number' || typeof lng !== 'number' || typeof zoom !== 'number') return null;
    if (!Number.isFinite(lat) || !Number.isFinite(lng) || !Number.isFinite(zoom)) return null;
    if (Math.abs(lat) > 90 || Math.abs(lng) > 540 || zoom < 0 || zoom > 24) return null;
    return { lat, lng, zoom };
  } catch {
    return null;
  }
}

export function readStoredView(storage: Pick<Storage, 'getItem'> | null, key = LIVE_MAP_VIEW_KEY): MapViewState | null {
  try {
    return parseStoredView(storage?.getItem(key) ?? null);
  } catch {
    // Storage refused (privacy mode): open as if nothing was stored.
    return null;
  }
}

export function storeView(storage: Pick<Storage, 'setItem'> | null, view: MapViewState, key = LIVE_MAP_VIEW_KEY): void {
  try {
    storage?.setItem(key, JSON.stringify({ lat: round(view.lat), lng: round(view.lng), zoom: view.zoom }));
  } catch {
    // Full or refused storage: the view is simply not kept.
  }
}

const round = (value: number) => Math.round(value * 1e6) / 1e6;

/** Metres per degree of latitude (mean). */
const METRES_PER_DEGREE = 111_320;

/** The box around every geofence (a circle by its centre and radius); null when there is none to fit. */
export function geofenceCorners(geofences: readonly Geofence[]): Corners | null {
  let south = Infinity;
  let west = Infinity;
  let north = -Infinity;
  let east = -Infinity;
  const add = (lat: number, lng: number) => {
    south = Math.min(south, lat);
    north = Math.max(north, lat);
    west = Math.min(west, lng);
    east = Math.max(east, lng);
  };
  for (const geofence of geofences) {
    if (geofence.shape === 'Circle') {
      const { center_lat: lat, center_lng: lng, radius } = geofence;
      if (lat === null || lng === null || radius === null) continue;
      const dLat = radius / METRES_PER_DEGREE;
      const dLng = radius / (METRES_PER_DEGREE * Math.max(0.01, Math.cos((lat * Math.PI) / 180)));
      add(lat - dLat, lng - dLng);
      add(lat + dLat, lng + dLng);
    } else {
      for (const point of geofence.coordinates ?? []) add(point.lat, point.lng);
    }
  }
  if (!Number.isFinite(south)) return null;
  return [
    [south, west],
    [north, east],
  ];
}
