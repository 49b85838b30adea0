// Loads leaflet-geoman (the drawing and editing tools) once, set up as the live map uses it: leaflet-draw's words in
// the drawing tooltips, and edit handles kept out of the tab order.
import L from 'leaflet';
// leaflet-geoman extends the global L that leaflet sets, so it is imported after leaflet.
import '@geoman-io/leaflet-geoman-free';
import '@geoman-io/leaflet-geoman-free/dist/leaflet-geoman.css';

/** The words the drawing tooltips say: circles and rectangles are drawn by dragging (see drag-to-draw.ts). */
export const DRAW_TOOLTIPS = {
  firstVertex: 'Click to start drawing shape.',
  continueLine: 'Click to continue drawing shape.',
  finishLine: 'Click first point to close this shape.',
  finishPoly: 'Click first point to close this shape.',
  finishRect: 'Release mouse to finish drawing.',
  startCircle: 'Click and drag to draw circle.',
  finishCircle: 'Release mouse to finish drawing.',
};

/** The toolbar's and its actions' names, as leaflet-draw said them. */
const WORDS = {
  tooltips: DRAW_TOOLTIPS,
  actions: { finish: 'Finish', cancel: 'Cancel', removeLastVertex: 'Delete last point' },
  buttonTitles: { drawCircleButton: 'Draw a circle', drawPolyButton: 'Draw a polygon', drawRectButton: 'Draw a rectangle' },
};

/** geoman's handles are `L.marker`s with this icon class: the corners, midpoints and centres it drags. */
const HANDLE_CLASS = /(^|\s)marker-icon(\s|$)/;

// As Leaflet markers the handles would be focusable unnamed buttons that no key moves. Left to the mouse, out of the
// tab order (the shape can be typed in instead: "Enter coordinates").
L.Marker.addInitHook(function (this: L.Marker) {
  const icon = this.options.icon;
  if (icon instanceof L.DivIcon && HANDLE_CLASS.test(icon.options.className ?? '')) this.options.keyboard = false;
});

const setUp = new WeakSet<L.Map>();

/** The map's geoman, set up once (setting the words again rebuilds the toolbar); a map made before this module loaded
 * gets one too. */
export function geomanOf(map: L.Map): L.PM.PMMap {
  // reInitLayer takes the map too, though its declaration says a layer.
  if (!map.pm) L.PM.reInitLayer(map as unknown as L.Layer);
  if (!setUp.has(map)) {
    setUp.add(map);
    map.pm.setLang('en', WORDS, 'en');
    // No snapping: leaflet-draw had none, and a point pulled to a nearby zone's edge is not where the operator clicked.
    // Escape gives up a drawing, as it did with leaflet-draw.
    map.pm.setGlobalOptions({ snappable: false, exitModeOnEscape: true });
  }
  return map.pm;
}
