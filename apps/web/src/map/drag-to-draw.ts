// Circles and rectangles are drawn by dragging, as they were with leaflet-draw. geoman draws them with a click, a move
// and a click, and a drag pans the map: here, while one of them is being drawn, the map does not pan, a press on the
// map stands for geoman's first click and the release for its second (draw-gesture.ts says what a release means).
import L from 'leaflet';
import { DRAGGED_SHAPES, releaseOutcome, type ScreenPoint } from './draw-gesture';

/** A click for geoman at a point of the map's container. */
function clickAt(map: L.Map, containerPoint: L.Point, originalEvent: MouseEvent) {
  map.fire('click', {
    latlng: map.containerPointToLatLng(containerPoint),
    layerPoint: map.containerPointToLayerPoint(containerPoint),
    containerPoint,
    originalEvent,
  });
}

/** How long after a touch a browser's mouse events are its copy of that touch (a tap), not a mouse's. */
const TOUCH_COPY_MS = 1000;

/** Turns drag-to-draw on for the map's geoman; returns the undo. Mouse only: a finger taps twice, as geoman has it. */
export function enableDragToDraw(map: L.Map): () => void {
  let drawing = false;
  let pannedBefore = false;
  let pressedAt: ScreenPoint | null = null;
  let touchedAt = -Infinity;
  const touched = () => {
    touchedAt = performance.now();
  };
  const fromTouch = () => performance.now() - touchedAt < TOUCH_COPY_MS;

  const drawStarted = (event: L.LeafletEvent) => {
    if (!DRAGGED_SHAPES.includes((event as L.LeafletEvent & { shape: string }).shape)) return;
    drawing = true;
    pannedBefore = map.dragging.enabled();
    map.dragging.disable();
  };
  const drawEnded = () => {
    if (!drawing) return;
    drawing = false;
    pressedAt = null;
    if (pannedBefore) map.dragging.enable();
  };
  const pressed = (event: L.LeafletMouseEvent) => {
    if (!drawing || event.originalEvent.button !== 0 || fromTouch()) return;
    pressedAt = event.containerPoint;
    // No text selection, focus change or image drag while the shape is dragged out.
    L.DomEvent.preventDefault(event.originalEvent);
    clickAt(map, event.containerPoint, event.originalEvent);
  };
  // On the document: a drag may end outside the map.
  const released = (event: MouseEvent) => {
    if (!drawing || !pressedAt || event.button !== 0 || fromTouch()) return;
    const point = map.mouseEventToContainerPoint(event);
    const outcome = releaseOutcome(pressedAt, point);
    pressedAt = null;
    if (outcome === 'finish') clickAt(map, point, event);
    else map.pm.disableDraw();
  };

  map.on('pm:drawstart', drawStarted);
  map.on('pm:drawend', drawEnded);
  map.on('mousedown', pressed);
  document.addEventListener('mouseup', released);
  document.addEventListener('touchstart', touched, { passive: true, capture: true });
  return () => {
    map.off('pm:drawstart', drawStarted);
    map.off('pm:drawend', drawEnded);
    map.off('mousedown', pressed);
    document.removeEventListener('mouseup', released);
    document.removeEventListener('touchstart', touched, { capture: true });
    drawEnded();
  };
}
