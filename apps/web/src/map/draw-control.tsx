// The drawing toolbar at the top right (leaflet-geoman's): circle, polygon and rectangle only
// (docs/CLIENT-CONTRACT.md). A drawn shape stays on the map until the caller discards it (Cancel) or replaces it with
// the saved geofence.
import { useEffect, useRef } from 'react';
import { useMap } from 'react-leaflet';
import L from 'leaflet';
import { GEOFENCE_LEVEL_COLORS } from '@prison/shared/geofence';
import { geomanOf } from './geoman';
import { enableDragToDraw } from './drag-to-draw';
import { showCrossingErrors } from './crossing-error';
import { geometryOfDrawnLayer, type DrawnGeometry } from './drawn-shape';

export { POLYGON_CROSSING_ERROR } from './crossing';

export interface DrawnShape {
  geometry: DrawnGeometry;
  /** Removes the drawn shape from the map. */
  discard(): void;
}

/** geoman's toolbar buttons, all off but the three shapes. */
const TOOLBAR: L.PM.ToolbarOptions = {
  position: 'topright',
  drawCircle: true,
  drawPolygon: true,
  drawRectangle: true,
  drawMarker: false,
  drawCircleMarker: false,
  drawPolyline: false,
  drawText: false,
  editMode: false,
  dragMode: false,
  cutPolygon: false,
  removalMode: false,
  rotateMode: false,
  oneBlock: true,
};

/** The buttons carry their name on a wrapper's title: a screen reader needs it on the button itself. */
function nameToolbarButtons(map: L.Map) {
  for (const wrapper of map.getContainer().querySelectorAll<HTMLElement>('.leaflet-pm-toolbar .button-container[title]')) {
    wrapper.querySelector('.leaflet-buttons-control-button')?.setAttribute('aria-label', wrapper.title);
  }
}

export function DrawControl({ onDrawn }: { onDrawn(shape: DrawnShape): void }) {
  const map = useMap();
  const latest = useRef(onDrawn);
  latest.current = onDrawn;

  useEffect(() => {
    const pm = geomanOf(map);
    const drawn = new L.FeatureGroup().addTo(map);
    pm.setGlobalOptions({
      // A polygon whose edges cross is refused, and says so.
      allowSelfIntersection: false,
      // A new shape is Informational until its details say otherwise: drawn in that level's colour (decision 041).
      pathOptions: { color: GEOFENCE_LEVEL_COLORS.Informational },
      // geoman adds a drawn shape to the map itself; it goes into `drawn` instead, where Cancel can find it.
      layerGroup: drawn,
    });
    pm.addControls(TOOLBAR);
    nameToolbarButtons(map);
    const stopDragToDraw = enableDragToDraw(map);
    const stopCrossingErrors = showCrossingErrors(map, map);

    const created = (event: L.LeafletEvent) => {
      const { layer, shape } = event as L.LeafletEvent & { layer: L.Layer; shape: string };
      const geometry = geometryOfDrawnLayer(shape.toLowerCase(), layer);
      if (!geometry) {
        drawn.removeLayer(layer);
        return;
      }
      latest.current({ geometry, discard: () => drawn.removeLayer(layer) });
    };
    map.on('pm:create', created);
    return () => {
      map.off('pm:create', created);
      stopCrossingErrors();
      stopDragToDraw();
      pm.disableDraw();
      pm.removeControls();
      drawn.remove();
    };
  }, [map]);

  return null;
}
