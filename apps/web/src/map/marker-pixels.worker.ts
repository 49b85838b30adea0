// Draws the live map's markers off the main thread (above the layer's pixel threshold). It keeps its own copy of
// every marker's glide (pixel-scene.ts) and animates it itself: the main thread only sends what changed (a batch of
// fixes, a pan, a zoom), so its feed, Leaflet and React do not hold the markers back. Each picture is written into an
// ImageData ahead of the animation frame that shows it (picture-pacing.ts), then put on the OffscreenCanvas with the
// escort lines stroked behind the markers.
import { strokeEscortLines } from './escort-lines';
import { PicturePacing } from './picture-pacing';
import { PixelScene } from './pixel-scene';
import { spritePixels } from './sprite-pixels';
import type { PixelWorkerReply, PixelWorkerRequest } from './marker-pixels-protocol';

const scene = new PixelScene();
let context: OffscreenCanvasRenderingContext2D | null = null;
let image: ImageData | null = null;
let words: Int32Array | null = null;
/** The picture written, waiting for its animation frame: its view, escort lines, when it was started and its cost. */
let written = { viewId: 0, width: 0, height: 0, ratio: 1, linkCount: 0, at: 0, writeMs: 0 };

const scope = self as unknown as {
  onmessage: ((event: MessageEvent<PixelWorkerRequest>) => void) | null;
  postMessage(message: PixelWorkerReply): void;
  requestAnimationFrame?: (callback: () => void) => number;
};

/** A task of its own for writing a picture (a timer's delay may be clamped; a message's is not). */
const soon = new MessageChannel();

const pacing = new PicturePacing({
  write() {
    const view = scene.view;
    if (!context || !view || !scene.ready) return null;
    const start = performance.now();
    let linkCount = 0;
    let gliding = false;
    // A hidden map (no rows or columns) has nothing to write, but its picture is answered.
    if (view.width > 0 && view.height > 0) {
      if (!image || image.width !== view.width || image.height !== view.height) {
        image = new ImageData(view.width, view.height);
        words = new Int32Array(image.data.buffer);
      }
      ({ linkCount, gliding } = scene.draw(words!, performance.timeOrigin + start));
    }
    const { id: viewId, width, height, ratio } = view;
    written = { viewId, width, height, ratio, linkCount, at: performance.timeOrigin + start, writeMs: performance.now() - start };
    // Nothing moves and nothing changed: no picture until the next message.
    return gliding;
  },
  show() {
    if (!context) return;
    const start = performance.now();
    const { viewId, width, height, ratio, linkCount, at, writeMs } = written;
    const canvas = context.canvas;
    if (canvas.width !== width || canvas.height !== height) {
      canvas.width = width;
      canvas.height = height;
    }
    if (image && width > 0 && height > 0) {
      context.putImageData(image, 0, 0);
      strokeEscortLines(context, scene.linkSegments, ratio, linkCount);
    }
    scope.postMessage({ type: 'drawn', viewId, at, drawMs: writeMs + performance.now() - start });
  },
  // The worker's own animation frames where the browser has them (a worker with an OffscreenCanvas), else a timer.
  nextFrame(callback) {
    if (typeof scope.requestAnimationFrame === 'function') scope.requestAnimationFrame(callback);
    else setTimeout(callback, 16);
  },
  soon(callback) {
    soon.port1.onmessage = callback;
    soon.port2.postMessage(null);
  },
});

scope.onmessage = ({ data: message }) => {
  if (message.type === 'init') context = message.canvas.getContext('2d');
  else if (message.type === 'sprites') {
    scene.setSprites(
      message.sprites.map(({ rgba, size }) => spritePixels(rgba, size)),
      message.staleSprite,
    );
  } else scene.apply(message);
  pacing.changed();
};
