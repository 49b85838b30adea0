// Messages between the marker layer and its pixel worker (marker-pixels.worker.ts). The worker keeps its own copy of
// every marker's glide (a slot each) and animates it on its own animation frames: the main thread sends only what
// changed (a batch of fixes, the view after a pan or zoom), so a busy main thread does not hold the markers back.

/** Markers glide to a new position over this long (docs/CLIENT-CONTRACT.md). */
export const GLIDE_MS = 1000;

/** Numbers per marker slot in PixelSceneUpdate.values. */
export const SLOT_FIELDS = 6;
/**
 * A slot's numbers: where the glide starts and ends (world pixels at the view's projection zoom), when it starts
 * (performance.timeOrigin + performance.now(), so both threads share the clock) and the sprite (-1 = empty slot).
 */
export const SLOT = { fromX: 0, fromY: 1, toX: 2, toY: 3, glideStart: 4, sprite: 5 } as const;

/** What the canvas shows: its size in pixels and where the world is on it. */
export interface PixelView {
  /** Increases with every change; the worker's reply names the view it drew, so its canvas is placed to match. */
  id: number;
  width: number;
  height: number;
  /** Canvas pixels per CSS pixel. */
  ratio: number;
  /** World pixels -> canvas pixels: (world + offset) * ratio. */
  offsetX: number;
  offsetY: number;
  /** Every marker grey (the live feed is not live). */
  stale: boolean;
}

/** Changes since the last update, applied in this order; any part may be missing. */
export interface PixelSceneUpdate {
  /** Empty every slot first (the layer went back under the pixel threshold, or starts over). */
  clear?: boolean;
  /** Slot numbers changed, and SLOT_FIELDS numbers for each, in the same order. */
  slots?: Int32Array<ArrayBuffer>;
  values?: Float64Array<ArrayBuffer>;
  /** Escort lines as pairs of slots (replaces the previous list). */
  links?: Int32Array<ArrayBuffer>;
  view?: PixelView;
}

export type PixelWorkerRequest =
  | { type: 'init'; canvas: OffscreenCanvas }
  /**
   * The sprites (bitmaps, not premultiplied) by index, and for each the sprite drawn instead while the view is stale.
   */
  | { type: 'sprites'; sprites: { rgba: Uint8ClampedArray; size: number }[]; staleSprite: number[] }
  | ({ type: 'update' } & PixelSceneUpdate);

export type PixelWorkerReply = {
  type: 'drawn';
  /** The view the picture was drawn for. */
  viewId: number;
  /** When the picture was drawn (performance.timeOrigin + performance.now()) and how long it took. */
  at: number;
  drawMs: number;
};
