// The markers' bitmaps: a dot (a prisoner) or a diamond (staff, decision 035) in each level's colour (decision 026),
// drawn once per pixel ratio: copying a small bitmap is much cheaper than filling and stroking a path per marker.
// Each sprite also carries its pixels (for the pixel writers) and its index in the list the pixel worker is given.
import { MARKER_COLOURS, MARKER_LEVELS, type MarkerLevel } from './marker-style';
import { spritePixels, type SpritePixels } from './sprite-pixels';
import type { MarkerShape } from './tracked-marker';

/** A marker's radius in CSS pixels. */
export const MARKER_RADIUS = 7;

export interface Sprite {
  canvas: HTMLCanvasElement;
  pixels: SpritePixels;
  /** Its bitmap (not premultiplied), for the pixel worker. */
  rgba: Uint8ClampedArray;
  /** Its place in the list the pixel worker is given (spriteIndex). */
  index: number;
}

export interface MarkerSprites {
  ratio: number;
  /** Width and height of every sprite, in canvas pixels. */
  size: number;
  /** Every sprite by spriteIndex, and their pixels in the same order. */
  all: Sprite[];
  list: SpritePixels[];
}

const LEVEL_ORDINAL = Object.fromEntries(MARKER_LEVELS.map((level, index) => [level, index])) as Record<MarkerLevel, number>;

/** A sprite's place in the list: two per level (MARKER_LEVELS order), a dot and a staff diamond. */
export function spriteIndex(level: MarkerLevel, shape: MarkerShape): number {
  return LEVEL_ORDINAL[level] * 2 + (shape === 'staff' ? 1 : 0);
}

/** Every sprite at a pixel ratio. */
export function markerSprites(ratio: number): MarkerSprites {
  const all: Sprite[] = [];
  for (const level of MARKER_LEVELS) {
    for (const shape of ['dot', 'staff'] as const) {
      const index = spriteIndex(level, shape);
      all[index] = spriteOf(markerBitmap(MARKER_COLOURS[level], ratio, shape), index);
    }
  }
  return { ratio, size: all[0]!.canvas.width, all, list: all.map((sprite) => sprite.pixels) };
}

/** For each sprite index, the one drawn instead while the view is stale: the offline one of its shape. */
export function staleSpriteIndexes(): number[] {
  const stale: number[] = [];
  for (const level of MARKER_LEVELS) {
    for (const shape of ['dot', 'staff'] as const) stale[spriteIndex(level, shape)] = spriteIndex('offline', shape);
  }
  return stale;
}

/** A dot or a diamond filled with `fill` and ringed in white. */
function markerBitmap(fill: string, ratio: number, shape: MarkerShape): HTMLCanvasElement {
  const size = Math.ceil((MARKER_RADIUS + 2) * 2 * ratio);
  const sprite = document.createElement('canvas');
  sprite.width = size;
  sprite.height = size;
  const ctx = sprite.getContext('2d')!;
  ctx.scale(ratio, ratio);
  ctx.beginPath();
  const c = MARKER_RADIUS + 2;
  if (shape === 'staff') {
    ctx.moveTo(c, c - MARKER_RADIUS);
    ctx.lineTo(c + MARKER_RADIUS, c);
    ctx.lineTo(c, c + MARKER_RADIUS);
    ctx.lineTo(c - MARKER_RADIUS, c);
    ctx.closePath();
  } else {
    ctx.arc(c, c, MARKER_RADIUS, 0, Math.PI * 2);
  }
  ctx.fillStyle = fill;
  ctx.fill();
  ctx.lineWidth = 2;
  ctx.strokeStyle = '#ffffff';
  ctx.stroke();
  return sprite;
}

function spriteOf(canvas: HTMLCanvasElement, index: number): Sprite {
  const rgba = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height).data;
  return { canvas, rgba, pixels: spritePixels(rgba, canvas.width), index };
}
