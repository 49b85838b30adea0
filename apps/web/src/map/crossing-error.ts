// Shows the crossing-edges message on the map beside the crossing, for its time, then takes it away. Announced to
// screen readers as it appears.
import L from 'leaflet';
import { CROSSING_ERROR_MS, POLYGON_CROSSING_ERROR, firstCrossing, type Crossings } from './crossing';

/** Listens for geoman's `pm:intersect` on `target` (the map while drawing, the layer while editing); returns the undo. */
export function showCrossingErrors(map: L.Map, target: L.Evented): () => void {
  let shown: L.Tooltip | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const hide = () => {
    clearTimeout(timer);
    shown?.remove();
    shown = null;
  };
  const show = (event: L.LeafletEvent) => {
    const at = firstCrossing((event as L.LeafletEvent & { intersection?: Crossings }).intersection);
    hide();
    shown = L.tooltip({ permanent: true, direction: 'right', offset: L.point(12, 0), className: 'draw-error-tooltip' })
      .setLatLng(at ?? map.getCenter())
      .setContent(POLYGON_CROSSING_ERROR)
      .addTo(map);
    shown.getElement()?.setAttribute('role', 'alert');
    timer = setTimeout(hide, CROSSING_ERROR_MS);
  };
  target.on('pm:intersect', show);
  return () => {
    target.off('pm:intersect', show);
    hide();
  };
}
