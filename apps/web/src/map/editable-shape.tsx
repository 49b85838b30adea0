// The selected geofence's shape, editable with leaflet-geoman's edit handles: a polygon's corners (a midpoint adds
// one, a click removes one), a rectangle's corners, a circle's centre and resize handles, and a middle handle that
// moves a rectangle (rectangle-move-handle.ts). The layer belongs to this component: unmounting it (Cancel, or after Save) removes it, and the geofence
// is drawn from the server's list again.
import { useEffect, useRef, useState } from 'react';
import { useMap } from 'react-leaflet';
import L from 'leaflet';
import { GEOFENCE_LEVEL_COLORS } from '@prison/shared/geofence';
import { geomanOf } from './geoman';
import { showCrossingErrors } from './crossing-error';
import { addRectangleMoveHandle } from './rectangle-move-handle';
import { geometryOfDrawnLayer, layerOfGeometry, layerTypeOf, type DrawnGeometry } from './drawn-shape';

interface EditableShapeProps {
  /** The shape when editing starts; later changes come from the map, not from this prop. */
  geometry: DrawnGeometry;
  /** After each finished drag, with the shape as it now is. */
  onChange(geometry: DrawnGeometry): void;
  /** The colour of the geofence's alert level (decision 041). */
  color?: string;
}

/**
 * The handles must be in view and far enough apart to be dragged: a shape out of view, or drawn smaller than a quarter
 * of the map (the map opened fitted to a wide site), is brought to the middle half of the map.
 */
function showForEditing(map: L.Map, bounds: L.LatLngBounds) {
  const size = map.getSize();
  const corner = map.latLngToContainerPoint(bounds.getNorthEast());
  const opposite = map.latLngToContainerPoint(bounds.getSouthWest());
  const small = Math.abs(corner.x - opposite.x) < size.x / 4 && Math.abs(corner.y - opposite.y) < size.y / 4;
  if (!small && map.getBounds().contains(bounds)) return;
  map.fitBounds(bounds, { padding: L.point(size.x / 4, size.y / 4), maxZoom: 18, animate: false });
}

/** How geoman edits each shape, as leaflet-draw did. */
function editOptions(geometry: DrawnGeometry): L.PM.EditModeOptions {
  return {
    // A change that makes edges cross is undone, as drawing refuses it (docs/CLIENT-CONTRACT.md).
    allowSelfIntersection: false,
    snappable: false,
    // A click on a corner removes it (geoman's default is a right click).
    removeVertexOn: 'click',
    // Below 3 corners a polygon is not a geofence: the last removal is refused rather than the shape deleted.
    removeLayerBelowMinVertexCount: false,
    // A circle moves by its centre handle (geoman ties that handle to this option); a rectangle by a handle of its
    // own; a polygon is reshaped, not moved, as before.
    draggable: geometry.shape === 'Circle',
  };
}

export function EditableShape({ geometry, onChange, color = GEOFENCE_LEVEL_COLORS.Informational }: EditableShapeProps) {
  const map = useMap();
  const [initial] = useState(geometry);
  const [initialColor] = useState(color);
  const latest = useRef(onChange);
  latest.current = onChange;

  useEffect(() => {
    geomanOf(map);
    const options = { color: initialColor, weight: 4, dashArray: '2 6', className: 'geofence-editing' };
    const layer = layerOfGeometry(initial, options).addTo(map);
    showForEditing(map, layer.getBounds());
    // geoman gives every path a `pm` handler; it needs the layer on the map when enabled.
    layer.pm.enable(editOptions(initial));
    const stopCrossingErrors = showCrossingErrors(map, layer);
    const edited = () => {
      const changed = geometryOfDrawnLayer(layerTypeOf(initial), layer);
      if (changed) latest.current(changed);
    };
    const removeMoveHandle =
      layer instanceof L.Rectangle
        ? addRectangleMoveHandle(map, layer, () => {
            layer.pm.disable();
            layer.pm.enable(editOptions(initial));
            edited();
          })
        : () => {};
    // `pm:edit` after a drag, a resize, a move or a corner added or removed; a removal that made edges cross is put
    // back before `pm:vertexremoved`, which is read again for that reason.
    layer.on('pm:edit pm:vertexremoved', edited);
    return () => {
      layer.off('pm:edit pm:vertexremoved', edited);
      removeMoveHandle();
      stopCrossingErrors();
      layer.pm.disable();
      layer.remove();
    };
  }, [map, initial, initialColor]);

  return null;
}
