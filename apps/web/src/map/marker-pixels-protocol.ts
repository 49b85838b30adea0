// Messages between the marker layer and its pixel worker (marker-pixels.worker.ts).

export type PixelWorkerRequest =
  | { type: 'init'; canvas: OffscreenCanvas }
  /** The sprites in the layer's order (bitmaps, not premultiplied): a frame names them by index. */
  | { type: 'sprites'; sprites: { rgba: Uint8ClampedArray; size: number }[] }
  | {
      type: 'frame';
      id: number;
      width: number;
      height: number;
      /** Three numbers per marker, in drawing order: x, y (the sprite's top left, canvas pixels), sprite index. */
      markers: Int32Array<ArrayBuffer>;
      count: number;
      /** Escort lines: x1, y1, x2, y2 per line, canvas pixels. */
      links: Float32Array<ArrayBuffer>;
      linkCount: number;
      ratio: number;
    };

export type PixelWorkerReply = {
  type: 'drawn';
  id: number;
  /** The frame's buffers, handed back for reuse. */
  markers: Int32Array<ArrayBuffer>;
  links: Float32Array<ArrayBuffer>;
  drawMs: number;
};
