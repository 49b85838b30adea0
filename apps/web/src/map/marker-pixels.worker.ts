// Draws the live map's markers off the main thread (above the layer's pixel threshold): the main thread sends each
// frame's marker positions (already glided, in canvas pixels) and escort lines; this worker writes the sprites into
// an ImageData, puts it on its OffscreenCanvas and strokes the lines behind the markers. On a two-core machine
// without a GPU the pixel work then runs beside the main thread's feed, Leaflet and React instead of after them.
import { strokeEscortLines } from './escort-lines';
import { blitAll, spritePixels, type SpritePixels } from './sprite-pixels';
import type { PixelWorkerReply, PixelWorkerRequest } from './marker-pixels-protocol';

let context: OffscreenCanvasRenderingContext2D | null = null;
let sprites: SpritePixels[] = [];
let image: ImageData | null = null;
let words: Int32Array | null = null;

const scope = self as unknown as {
  onmessage: ((event: MessageEvent<PixelWorkerRequest>) => void) | null;
  postMessage(message: PixelWorkerReply, transfer: Transferable[]): void;
};

scope.onmessage = ({ data: message }) => {
  if (message.type === 'init') {
    context = message.canvas.getContext('2d');
    return;
  }
  if (message.type === 'sprites') {
    sprites = message.sprites.map(({ rgba, size }) => spritePixels(rgba, size));
    return;
  }
  const start = performance.now();
  const { width, height, markers, count, links, linkCount, ratio } = message;
  if (context) {
    const canvas = context.canvas;
    if (canvas.width !== width || canvas.height !== height) {
      canvas.width = width;
      canvas.height = height;
    }
    if (!image || image.width !== width || image.height !== height) {
      image = new ImageData(width, height);
      words = new Int32Array(image.data.buffer);
    }
    words!.fill(0);
    blitAll(words!, width, height, sprites, markers, count);
    context.putImageData(image, 0, 0);
    strokeEscortLines(context, links, ratio, linkCount);
  }
  // The buffers go back for the next frame.
  scope.postMessage({ type: 'drawn', id: message.id, markers, links, drawMs: performance.now() - start}, [
    markers.buffer,
    links.buffer,
  ]);
};
