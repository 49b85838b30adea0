// Turns a shape drawn with leaflet-draw into the geometry fields of a geofence (SPEC.md section 3), and back.
import L from 'leaflet';
import type { Geofence, LatLngTuple } from '@prison/shared';

export type DrawnGeometry =
  | { shape: 'Circle'; radius: number; center_lat: number; center_lng: number }
  | { shape: 'Polygon' | 'Rectangle'; coordinates: LatLngTuple[] };

const round = (value: number) => Math.round(value * 1e7) / 1e7;
const tuple = (point: L.LatLng): LatLngTuple => {
  const wrapped = point.wrap();
  return [round(wrapped.lat), round(wrapped.lng)];
};

export function geometryOfDrawnLayer(layerType: string, layer: L.Layer): DrawnGeometry | null {
  if (layerType === 'circle' && layer instanceof L.Circle) {
    const [lat, lng] = tuple(layer.getLatLng());
    return { shape: 'Circle', radius: Math.round(layer.getRadius() * 100) / 100, center_lat: lat, center_lng: lng };
  }
  if ((layerType === 'rectangle' || layerType === 'polygon') && layer instanceof L.Polygon) {
    const rings = layer.getLatLngs() as L.LatLng[][];
    const coordinates = (rings[0] ?? []).map(tuple);
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

/** leaflet-draw's name for the shape, as `geometryOfDrawnLayer` takes it. */
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
