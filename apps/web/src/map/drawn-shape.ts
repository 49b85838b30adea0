// Turns a shape drawn with leaflet-draw into the geometry fields of a geofence (SPEC.md section 3).
import L from 'leaflet';
import type { LatLngTuple } from '@prison/shared';

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
