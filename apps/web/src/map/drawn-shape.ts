// Turns a shape drawn on the map (leaflet-geoman) into the geometry fields of a geofence (docs/CLIENT-CONTRACT.md), and back.
// Points are `{ lat, lng }`, as the API answers and takes them (docs/CLIENT-CONTRACT.md) and as Leaflet reads them.
import L from 'leaflet';
import type { GeoPoint, Geofence } from '@prison/shared/geofence';

export type DrawnGeometry =
  | { shape: 'Circle'; radius: number; center_lat: number; center_lng: number }
  | { shape: 'Polygon' | 'Rectangle'; coordinates: GeoPoint[] };

const round = (value: number) => Math.round(value * 1e7) / 1e7;
const pointOf = (latLng: L.LatLng): GeoPoint => {
  const wrapped = latLng.wrap();
  return { lat: round(wrapped.lat), lng: round(wrapped.lng) };
};

export function geometryOfDrawnLayer(layerType: string, layer: L.Layer): DrawnGeometry | null {
  if (layerType === 'circle' && layer instanceof L.Circle) {
    const { lat, lng } = pointOf(layer.getLatLng());
    return { shape: 'Circle', radius: Math.round(layer.getRadius() * 100) / 100, center_lat: lat, center_lng: lng };
  }
  if ((layerType === 'rectangle' || layerType === 'polygon') && layer instanceof L.Polygon) {
    const rings = layer.getLatLngs() as L.LatLng[][];
    const coordinates = (rings[0] ?? []).map(pointOf);
    return { shape: layerType === 'rectangle' ? 'Rectangle' : 'Polygon', coordinates };
  }
  return null;
}

/** The Leaflet layer of a geometry (a shape typed in, or one being edited): the reverse of `geometryOfDrawnLayer`. */
export function layerOfGeometry(geometry: DrawnGeometry, options: L.PolylineOptions = {}): L.Circle | L.Polygon {
  if (geometry.shape === 'Circle') {
    return L.circle([geometry.center_lat, geometry.center_lng], { ...options, radius: geometry.radius });
  }
  if (geometry.shape === 'Rectangle') return L.rectangle(L.latLngBounds(geometry.coordinates), options);
  return L.polygon(geometry.coordinates, options);
}

/** The drawing tool's name for the shape, lower-cased, as `geometryOfDrawnLayer` takes it. */
export const layerTypeOf = (geometry: DrawnGeometry) => geometry.shape.toLowerCase();

/** The geometry of a stored geofence, or null when its fields are incomplete. */
export function geometryOfGeofence(geofence: Geofence): DrawnGeometry | null {
  const { shape, radius, center_lat, center_lng, coordinates } = geofence;
  if (shape === 'Circle') {
    return radius !== null && center_lat !== null && center_lng !== null
      ? { shape, radius, center_lat, center_lng }
      : null;
  }
  return coordinates && coordinates.length >= 3 ? { shape, coordinates } : null;
}
