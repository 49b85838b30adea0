// The handle in a rectangle's middle that moves it while its shape is edited. geoman moves a polygon only in a drag
// mode of its own that ends the corner editing, so this handle does what leaflet-draw's did: the rectangle follows the
// drag, and at its end geoman's corner handles are laid anew where the corners now are.
import L from 'leaflet';

/** Adds the handle to `rectangle` (on the map, its corners being edited); returns the undo. */
export function addRectangleMoveHandle(
  map: L.Map,
  rectangle: L.Rectangle,
  /** Lays geoman's corner handles anew, then reports the shape as it now is. */
  moved: () => void,
): () => void {
  const handle = L.marker(rectangle.getBounds().getCenter(), {
    draggable: true,
    // geoman's handle class: drawn as its handles are, and out of the tab order as they are.
    icon: L.divIcon({ className: 'marker-icon rectangle-move-handle' }),
  }).addTo(map);
  let start: { at: L.LatLng; corners: L.LatLng[] } | null = null;

  const dragStarted = () => {
    start = { at: handle.getLatLng(), corners: (rectangle.getLatLngs() as L.LatLng[][])[0]!.map((p) => p.clone()) };
  };
  const dragged = () => {
    if (!start) return;
    const at = handle.getLatLng();
    const dLat = at.lat - start.at.lat;
    const dLng = at.lng - start.at.lng;
    rectangle.setLatLngs([start.corners.map((p) => L.latLng(p.lat + dLat, p.lng + dLng))]);
  };
  const dragEnded = () => {
    start = null;
    moved();
  };
  // A corner dragged moves the middle.
  const resized = () => handle.setLatLng(rectangle.getBounds().getCenter());

  handle.on('dragstart', dragStarted);
  handle.on('drag', dragged);
  handle.on('dragend', dragEnded);
  rectangle.on('pm:edit', resized);
  return () => {
    rectangle.off('pm:edit', resized);
    handle.remove();
  };
}
