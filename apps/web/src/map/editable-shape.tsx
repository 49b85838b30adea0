// The selected geofence's shape, editable with leaflet-draw's edit handlers: a polygon's corners (a midpoint adds
// one, a click removes one), a rectangle's corners, a circle's resize handle, and the centre handle that moves a
// circle or rectangle. The layer belongs to this component: unmounting it (Cancel, or after Save) removes it, and the
// geofence is drawn from the server's list again.
import { useEffect, useRef, useState } from 'react';
import { useMap } from 'react-leaflet';
import L from 'leaflet';
// leaflet-draw extends the global L that leaflet sets, so it is imported after leaflet.
import 'leaflet-draw';
import { GEOFENCE_LEVEL_COLORS } from '@prison/shared/geofence';
import { POLYGON_CROSSING_ERROR } from './draw-control';
import { geometryOfDrawnLayer, layerOfGeometry, layerTypeOf, type DrawnGeometry } from './drawn-shape';

// leaflet-draw 1.0.4 assigns an undeclared `radius` when a circle is resized, which throws in strict mode (this
// bundle is an ES module), so circles could not be resized (Leaflet.draw issues #945 and #1053). The same steps,
// with the variable declared; the edit tooltip it also updated is not used here.
interface CircleEditHandler {
  _map: L.Map;
  _moveMarker: L.Marker;
  _shape: L.Circle;
}
(L.Edit.Circle.prototype as unknown as { _resize(this: CircleEditHandler, latlng: L.LatLng): void })._resize =
  function (latlng) {
    const radius = this._map.distance(this._moveMarker.getLatLng(), latlng);
    this._shape.setRadius(radius);
    this._map.fire(L.Draw.Event.EDITRESIZE, { layer: this._shape });
  };

// The edit handles are leaflet-draw's own markers: as Leaflet markers they would be focusable unnamed buttons that
// no key moves. Left to the mouse, out of the tab order (the shape can be typed in instead: "Enter coordinates").
(L.Marker as unknown as { Touch: typeof L.Marker }).Touch.mergeOptions({ keyboard: false });

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

export function EditableShape({ geometry, onChange, color = GEOFENCE_LEVEL_COLORS.Informational }: EditableShapeProps) {
  const map = useMap();
  const [initial] = useState(geometry);
  const [initialColor] = useState(color);
  const latest = useRef(onChange);
  latest.current = onChange;

  useEffect(() => {
    // `poly` is read by leaflet-draw's vertex editing: a drag across an edge is undone, as drawing refuses it
    // (docs/CLIENT-CONTRACT.md).
    const poly = { allowIntersection: false, drawError: { color: '#b91c1c', message: POLYGON_CROSSING_ERROR } };
    const options = {
      color: initialColor,
      weight: 4,
      dashArray: '2 6',
      className: 'geofence-editing',
      poly,
    };
    const layer = layerOfGeometry(initial, options).addTo(map);
    showForEditing(map, layer.getBounds());
    // leaflet-draw gives every path an `editing` handler; it needs the layer on the map when enabled.
    const editing = (layer as unknown as { editing: L.Handler }).editing;
    editing.enable();
    const edited = () => {
      const changed = geometryOfDrawnLayer(layerTypeOf(initial), layer);
      if (changed) latest.current(changed);
    };
    layer.on('edit', edited);
    return () => {
      layer.off('edit', edited);
      editing.disable();
      layer.remove();
    };
  }, [map, initial, initialColor]);

  return null;
}
