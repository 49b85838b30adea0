// The leaflet-draw toolbar at the top right: circle, polygon and rectangle only (docs/CLIENT-CONTRACT.md).
// A drawn shape stays on the map until the caller discards it (Cancel) or replaces it with the saved geofence.
import { useEffect, useRef } from 'react';
import { useMap } from 'react-leaflet';
import L from 'leaflet';
// leaflet-draw extends the global L that leaflet sets, so it is imported after leaflet.
import 'leaflet-draw';
import 'leaflet-draw/dist/leaflet.draw.css';
import { GEOFENCE_LEVEL_COLORS } from '@prison/shared/geofence';
import { geometryOfDrawnLayer, type DrawnGeometry } from './drawn-shape';

export interface DrawnShape {
  geometry: DrawnGeometry;
  /** Removes the drawn shape from the map. */
  discard(): void;
}

export const POLYGON_CROSSING_ERROR = 'Error: shape edges cannot cross!';

export function DrawControl({ onDrawn }: { onDrawn(shape: DrawnShape): void }) {
  const map = useMap();
  const latest = useRef(onDrawn);
  latest.current = onDrawn;

  useEffect(() => {
    const drawn = new L.FeatureGroup().addTo(map);
    const control = new L.Control.Draw({
      position: 'topright',
      draw: {
        polyline: false,
        marker: false,
        circlemarker: false,
        // A new shape is Informational until its details say otherwise: drawn in that level's colour (decision 041).
        circle: { shapeOptions: { color: GEOFENCE_LEVEL_COLORS.Informational } },
        // showArea stays off: leaflet-draw's area label assigns an undeclared variable, which throws in strict mode.
        rectangle: { showArea: false, shapeOptions: { color: GEOFENCE_LEVEL_COLORS.Informational } },
        polygon: {
          allowIntersection: false,
          showArea: false,
          drawError: { color: '#b91c1c', message: POLYGON_CROSSING_ERROR, timeout: 2500 },
          shapeOptions: { color: GEOFENCE_LEVEL_COLORS.Informational },
        },
      },
    });
    map.addControl(control);

    const created = (event: L.LeafletEvent) => {
      const { layer, layerType } = event as L.DrawEvents.Created;
      const geometry = geometryOfDrawnLayer(layerType, layer);
      if (!geometry) return;
      drawn.addLayer(layer);
      latest.current({ geometry, discard: () => drawn.removeLayer(layer) });
    };
    map.on(L.Draw.Event.CREATED, created);
    return () => {
      map.off(L.Draw.Event.CREATED, created);
      map.removeControl(control);
      drawn.remove();
    };
  }, [map]);

  return null;
}
