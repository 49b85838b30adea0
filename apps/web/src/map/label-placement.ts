// Labels that never overprint each other (decision 044): a greedy placement in priority order (the selected marker,
// then Critical, Warning, Informational, the rest). Each label tries the marker's right side, then its left; one that
// overlaps an already placed label is skipped. A uniform grid keeps each test to the few labels nearby, so a frame
// places hundreds of labels in well under a millisecond.

export interface LabelCandidate {
  /** Where a label to the right of the marker starts, and where one to its left ends (canvas pixels). */
  rightX: number;
  leftX: number;
  /** The marker's centre line. */
  y: number;
  text: string;
  /** Lower first: 0 is placed before 1. */
  priority: number;
}

export interface PlacedLabel {
  x: number;
  y: number;
  text: string;
}

/** Grid cell size in canvas pixels: about a label's size, so a label covers a few cells. */
const CELL_WIDTH = 64;
const CELL_HEIGHT = 32;

/**
 * Places up to `maxLabels` labels, best priority first (ties in the given order), without overlaps. Priorities are
 * small non-negative integers; `size` gives a label's box (its bitmap); `y` of a placed label is its top.
 */
export function placeLabels(
  candidates: readonly LabelCandidate[],
  size: (text: string) => { width: number; height: number },
  maxLabels: number,
): PlacedLabel[] {
  const placed: PlacedLabel[] = [];
  const boxes: number[] = []; // x0, y0, x1, y1 per placed label
  const grid = new Map<number, number[]>();
  const cellKey = (cx: number, cy: number) => cx * 100_003 + cy;

  const overlaps = (x0: number, y0: number, x1: number, y1: number): boolean => {
    for (let cx = Math.floor(x0 / CELL_WIDTH); cx <= Math.floor(x1 / CELL_WIDTH); cx++) {
      for (let cy = Math.floor(y0 / CELL_HEIGHT); cy <= Math.floor(y1 / CELL_HEIGHT); cy++) {
        for (const index of grid.get(cellKey(cx, cy)) ?? []) {
          const b = index * 4;
          if (x0 < boxes[b + 2]! && boxes[b]! < x1 && y0 < boxes[b + 3]! && boxes[b + 1]! < y1) return true;
        }
      }
    }
    return false;
  };
  const add = (x0: number, y0: number, x1: number, y1: number) => {
    const index = boxes.length / 4;
    boxes.push(x0, y0, x1, y1);
    for (let cx = Math.floor(x0 / CELL_WIDTH); cx <= Math.floor(x1 / CELL_WIDTH); cx++) {
      for (let cy = Math.floor(y0 / CELL_HEIGHT); cy <= Math.floor(y1 / CELL_HEIGHT); cy++) {
        const key = cellKey(cx, cy);
        const cell = grid.get(key);
        if (cell) cell.push(index);
        else grid.set(key, [index]);
      }
    }
  };

  const place = (candidate: LabelCandidate) => {
    const { width, height } = size(candidate.text);
    const top = Math.round(candidate.y - height / 2);
    for (const x of [candidate.rightX, candidate.leftX - width]) {
      if (overlaps(x, top, x + width, top + height)) continue;
      add(x, top, x + width, top + height);
      placed.push({ x, y: top, text: candidate.text });
      return;
    }
  };
  // Priorities are a handful of small integers and a frame may hold thousands of labels: buckets, not a sort.
  const buckets: LabelCandidate[][] = [];
  for (const candidate of candidates) {
    const bucket = buckets[candidate.priority];
    if (bucket) bucket.push(candidate);
    else buckets[candidate.priority] = [candidate];
  }
  for (let priority = 0; priority < buckets.length; priority++) {
    for (const candidate of buckets[priority] ?? []) {
      if (placed.length >= maxLabels) return placed;
      place(candidate);
    }
  }
  return placed;
}
