// Labels beside the markers (decisions 026 and 044): which markers compete for a label and in what order, and each
// text made once into a small bitmap and then copied. Laying out text every frame costs ~50 µs a label in software
// rendering, a copy a few; where the labels go without overprinting is label-placement.ts's job.
import { placeLabels, type LabelCandidate } from './label-placement';
import { MARKER_LEVELS, type MarkerLevel } from './marker-style';

/** At most this many labels per frame (only markers in view are labelled, and only from LABEL_MIN_ZOOM on). */
const MAX_LABELS = 300;
/** Markers in view considered for a label per frame: the placement picks among them by priority (decision 044). */
export const MAX_LABEL_CANDIDATES = 2000;
/** A label's priority: the selected marker (open popup) first, then by level, worst first (MARKER_LEVELS order). */
const LABEL_PRIORITY = Object.fromEntries(MARKER_LEVELS.map((level, index) => [level, index + 1])) as Record<
  MarkerLevel,
  number
>;
/** Label bitmaps kept (one per distinct text); the cache starts over beyond this. */
const MAX_LABEL_SPRITES = 5000;

/** A marker's label beside its sprite (top left x, y, canvas pixels), ranked for the placement. */
export function labelCandidate(
  text: string,
  level: MarkerLevel,
  selected: boolean,
  x: number,
  y: number,
  spriteSize: number,
): LabelCandidate {
  return {
    rightX: x + spriteSize,
    leftX: x,
    y: y + spriteSize / 2,
    text,
    priority: selected ? 0 : LABEL_PRIORITY[level],
  };
}

const labelFont = (ratio: number) => `600 ${Math.round(11 * ratio)}px system-ui, sans-serif`;

/** The label bitmaps and sizes by text, for one pixel ratio at a time. */
export class LabelBitmaps {
  private bitmaps = new Map<string, HTMLCanvasElement>();
  private bitmapsRatio = 0;
  /** Label sizes by text, measured without drawing: most candidates are only measured, never drawn. */
  private sizes = new Map<string, { width: number; height: number }>();
  private sizesRatio = 0;
  private measureContext: CanvasRenderingContext2D | null = null;

  /** Places the candidates' labels without overprinting (label-placement.ts) and copies each one's bitmap. */
  draw(ctx: CanvasRenderingContext2D, candidates: readonly LabelCandidate[], ratio: number): void {
    const size = (text: string) => this.size(text, ratio);
    for (const { x, y, text } of placeLabels(candidates, size, MAX_LABELS)) ctx.drawImage(this.bitmap(text, ratio), x, y);
  }

  private size(text: string, ratio: number): { width: number; height: number } {
    if (ratio !== this.sizesRatio || this.sizes.size > MAX_LABEL_SPRITES * 4) {
      this.sizes.clear();
      this.sizesRatio = ratio;
    }
    let size = this.sizes.get(text);
    if (!size) {
      this.measureContext ??= document.createElement('canvas').getContext('2d')!;
      size = labelBox(this.measureContext, text, ratio);
      this.sizes.set(text, size);
    }
    return size;
  }

  private bitmap(text: string, ratio: number): HTMLCanvasElement {
    if (ratio !== this.bitmapsRatio || this.bitmaps.size > MAX_LABEL_SPRITES) {
      this.bitmaps.clear();
      this.bitmapsRatio = ratio;
    }
    let bitmap = this.bitmaps.get(text);
    if (!bitmap) {
      bitmap = labelBitmap(text, ratio);
      this.bitmaps.set(text, bitmap);
    }
    return bitmap;
  }
}

/** A label bitmap's size, exactly as labelBitmap makes it. */
function labelBox(ctx: CanvasRenderingContext2D, text: string, ratio: number): { width: number; height: number } {
  ctx.font = labelFont(ratio);
  return { width: Math.ceil(ctx.measureText(text).width + 6 * ratio), height: Math.ceil(16 * ratio) };
}

/** A short label as a bitmap: dark text on a white halo, so it reads over any background. */
function labelBitmap(text: string, ratio: number): HTMLCanvasElement {
  const font = labelFont(ratio);
  const canvas = document.createElement('canvas');
  let ctx = canvas.getContext('2d')!;
  ({ width: canvas.width, height: canvas.height } = labelBox(ctx, text, ratio));
  // Resizing resets the context's state.
  ctx = canvas.getContext('2d')!;
  ctx.font = font;
  ctx.textBaseline = 'middle';
  ctx.lineJoin = 'round';
  ctx.lineWidth = 3 * ratio;
  ctx.strokeStyle = 'rgba(255, 255, 255, 0.9)';
  ctx.fillStyle = '#0f172a';
  ctx.strokeText(text, 3 * ratio, canvas.height / 2);
  ctx.fillText(text, 3 * ratio, canvas.height / 2);
  return canvas;
}
