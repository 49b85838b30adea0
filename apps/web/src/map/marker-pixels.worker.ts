// Draws the live map's markers off the main thread (above the layer's pixel threshold). It keeps its own copy of
// every marker's glide (pixel-scene.ts) and animates it on its own animation frames: the main thread only sends what
// changed (a batch of fixes, a pan, a zoom), so its feed, Leaflet and React do not hold the markers back. Each frame
// writes the sprites into an ImageData, puts it on the OffscreenCanvas and strokes the escort lines behind them.
import { strokeEscortLines } from './escort-lines';
import { PixelScene } from './pixel-scene';
import { spritePixels } from './sprite-pixels';
import type { PixelWorkerReply, PixelWorkerRequest } from './marker-pixels-protocol';

const scene = new PixelScene();
let context: OffscreenCanvasRenderingContext2D | null = null;
let image: ImageData | null = null;
let words: Int32Array | null = null;
let scheduled = false;

const scope = self as unknown as {
  onmessage: ((event: MessageEvent<PixelWorkerRequest>) => void) | null;
  postMessage(message: PixelWorkerReply): void;
  requestAnimationFrame?: (callback: () => void) => number;
};

/** The worker's own animation frames where the browser has them (a worker with an OffscreenCanvas), else a timer. */
const nextFrame = (callback: () => void): void => {
  if (typeof scope.requestAnimationFrame === 'function') scope.requestAnimationFrame(callback);
  else setTimeout(callback, 16);
};

function requestDraw(): void {
  if (scheduled) return;
  scheduled = true;
  nextFrame(draw);
}

function draw(): void {
  scheduled = false;
  const view = scene.view;
  if (!context || !view || !scene.ready) return;
  const start = performance.now();
  const canvas = context.canvas;
  if (canvas.width !== view.width || canvas.height !== view.height) {
    canvas.width = view.width;
    canvas.height = view.height;
  }
  if (!image || image.width !== view.width || image.height !== view.height) {
    image = new ImageData(view.width, view.height);
    words = new Int32Array(image.data.buffer);
  }
  const { linkCount, gliding } = scene.draw(words!, performance.timeOrigin + start);
  context.putImageData(image, 0, 0);
  strokeEscortLines(context, scene.linkSegments, view.ratio, linkCount);
  scope.postMessage({ type: 'drawn', viewId: view.id, at: performance.timeOrigin + start, drawMs: performance.now() - start });
  // Nothing moves and nothing changed: no frame until the next message.
  if (gliding) requestDraw();
}

scope.onmessage = ({ data: message }) => {
  if (message.type === 'init') context = message.canvas.getContext('2d');
  else if (message.type === 'sprites') {
    scene.setSprites(
      message.sprites.map(({ rgba, size }) => spritePixels(rgba, size)),
      message.staleSprite,
    );
  } else scene.apply(message);
  requestDraw();
};
