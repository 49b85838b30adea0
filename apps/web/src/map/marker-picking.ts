// Which marker a point of the map picks: the one drawn nearest to it, within a few pixels of its centre. The layer's
// pane lets clicks through to the map (the drawing tools need them), so the layer finds the marker itself.
import type L from 'leaflet';
import { MARKER_RADIUS } from './marker-sprites';
import { glidedLatLng, type Marker } from './tracked-marker';

/** How far from a marker's centre a click still picks it, in CSS pixels. */
const HIT_RADIUS = MARKER_RADIUS + 4;

/** The id of the marker drawn nearest to a point of the map's container (the last drawn wins a tie), or null. */
export function markerNearest(map: L.Map, markers: ReadonlyMap<string, Marker>, point: L.Point, now: number): string | null {
  let best: string | null = null;
  let bestDistance = HIT_RADIUS * HIT_RADIUS;
  const { x, y } = point;
  for (const [id, marker] of markers) {
    const drawn = map.latLngToContainerPoint(glidedLatLng(marker, now));
    const distance = (drawn.x - x) ** 2 + (drawn.y - y) ** 2;
    if (distance <= bestDistance) {
      best = id;
      bestDistance = distance;
    }
  }
  return best;
}
