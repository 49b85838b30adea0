// What a press, a drag and a release on the map mean while a circle or a rectangle is being drawn: pressed, the shape
// starts where the pointer is; released after a drag, it ends there; released where it was pressed, drawing is given
// up (as leaflet-draw did: a click alone draws nothing).

/** Pixels the pointer must travel before a press becomes a drag (a hand's tremor on a click is not a shape). */
export const DRAG_THRESHOLD_PX = 4;

export interface ScreenPoint {
  x: number;
  y: number;
}

export type ReleaseOutcome = 'finish' | 'cancel';

/** What the release at `to` does to a shape started by the press at `from`. */
export function releaseOutcome(from: ScreenPoint, to: ScreenPoint): ReleaseOutcome {
  return Math.hypot(to.x - from.x, to.y - from.y) >= DRAG_THRESHOLD_PX ? 'finish' : 'cancel';
}

/** The shapes drawn by dragging; the polygon is drawn point by point. */
export const DRAGGED_SHAPES: readonly string[] = ['Circle', 'Rectangle'];
