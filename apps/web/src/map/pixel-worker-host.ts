// The main thread's handle on the pixel worker (marker-pixels.worker.ts): starts it with a canvas of its own just
// below the layer's (which keeps the labels), sends it the sprites and what changed in its scene (pixel-scene-sync.ts),
// places its canvas where each picture's view was, hides it while Leaflet animates a zoom, and gives up for good when
// a worker cannot draw (no OffscreenCanvas, tests, a CSP that forbids it): then the main thread draws.
import L from 'leaflet';
import type { MarkerSprites } from './marker-sprites';
import { staleSpriteIndexes, spriteIndex } from './marker-sprites';
import type { PixelWorkerReply, PixelWorkerRequest } from './marker-pixels-protocol';
import { PixelSceneSync } from './pixel-scene-sync';
import type { Marker } from './tracked-marker';

/** The view a picture is drawn for. */
export interface WorkerView {
  ratio: number;
  offsetX: number;
  offsetY: number;
  /** Where the layer's canvas is (layer pixels): the worker's canvas goes there with the picture. */
  topLeft: L.Point;
  width: number;
  height: number;
  stale: boolean;
}

export class PixelWorkerHost {
  private worker: Worker | null = null;
  private canvas: HTMLCanvasElement | null = null;
  private failed = false;
  /** The worker draws the markers (above the threshold); when false its canvas is blank. */
  private active = false;
  private scene = new PixelSceneSync();
  private spriteRatio = 0;
  /** Where the layer's canvas was for each view sent to the worker: the worker's canvas goes there with its picture. */
  private viewPlaces = new Map<number, L.Point>();
  private zooming = false;
  /** The next view sent is a new zoom's: the worker's canvas is shown again with the first picture of it. */
  private zoomed = false;
  private revealFromView = 0;

  constructor(
    /** The layer's markers (the same map for the layer's life). */
    private readonly markers: ReadonlyMap<string, Marker>,
    /** Told each time the worker has drawn a picture, with how long it took and when it started (performance.now()). */
    private readonly onPicture: (drawMs: number, at: number) => void,
    /** Told when the worker failed: the caller draws on the main thread from now on. */
    private readonly onFailed: () => void,
  ) {}

  /** Whether the worker draws the markers now. */
  get drawing(): boolean {
    return this.active;
  }

  /** A new marker: the worker draws it too while it draws. */
  added(marker: Marker): void {
    if (this.active) this.scene.add(marker);
  }

  /** The marker's glide or sprite changed. */
  changed(marker: Marker): void {
    this.scene.changed(marker);
  }

  removed(marker: Marker): void {
    this.scene.remove(marker);
  }

  /** Every marker left. */
  cleared(): void {
    if (this.active) this.scene.reset([]);
  }

  linksMayHaveChanged(): void {
    this.scene.linksMayHaveChanged();
  }

  /**
   * Started on first use (its canvas inserted in `pane` just below `below`); false where a worker cannot draw or after
   * one failed.
   */
  ready(pane: HTMLElement | null | undefined, below: HTMLCanvasElement): boolean {
    if (this.worker) return true;
    if (this.failed || !pane || typeof Worker === 'undefined' || !('transferControlToOffscreen' in HTMLCanvasElement.prototype)) {
      return false;
    }
    try {
      const canvas = document.createElement('canvas');
      canvas.className = 'tracked-markers-canvas';
      Object.assign(canvas.style, { position: 'absolute', left: '0', top: '0', visibility: below.style.visibility });
      const offscreen = canvas.transferControlToOffscreen();
      const worker = new Worker(new URL('./marker-pixels.worker.ts', import.meta.url), { type: 'module' });
      worker.onmessage = (event: MessageEvent<PixelWorkerReply>) => this.pictureDrawn(event.data);
      worker.onerror = (event) => {
        // Drawn on the main thread from now on (e.g. a CSP that forbids the worker).
        event.preventDefault();
        this.giveUp();
        this.onFailed();
      };
      const init: PixelWorkerRequest = { type: 'init', canvas: offscreen };
      worker.postMessage(init, [offscreen]);
      pane.insertBefore(canvas, below);
      this.worker = worker;
      this.canvas = canvas;
      this.spriteRatio = 0;
      this.active = false;
      return true;
    } catch {
      this.giveUp();
      return false;
    }
  }

  /** Ends the worker and takes its canvas away; every marker loses its slot. */
  stop(): void {
    this.worker?.terminate();
    this.canvas?.remove();
    this.worker = null;
    this.canvas = null;
    this.active = false;
    this.scene.reset(this.markers.values(), false);
    this.viewPlaces.clear();
  }

  zoomStarted(): void {
    this.zooming = true;
    if (this.canvas) this.canvas.style.visibility = 'hidden';
  }

  zoomEnded(): void {
    this.zooming = false;
    // The worker's canvas still shows the old zoom: it is shown again with its first picture of the new one.
    this.zoomed = true;
    this.revealFromView = Number.POSITIVE_INFINITY;
  }

  /**
   * Sends the worker what changed since the last frame: sprites (new pixel ratio), markers, escort lines, the view.
   * With `blank` it empties the worker's scene (back under the threshold). `links`: the escort lines' marker pairs.
   */
  update(
    links: readonly [string, string][],
    sprites: MarkerSprites,
    view: WorkerView,
    blank = false,
  ): void {
    const { worker, canvas, markers } = this;
    if (!worker || !canvas) return;
    const { ratio, offsetX, offsetY, topLeft, width, height, stale } = view;
    if (this.spriteRatio !== ratio) {
      const list = sprites.all.map(({ rgba, canvas }) => ({ rgba, size: canvas.width }));
      // While stale every sprite is drawn as the offline one of its shape.
      const message: PixelWorkerRequest = { type: 'sprites', sprites: list, staleSprite: staleSpriteIndexes() };
      worker.postMessage(message);
      this.spriteRatio = ratio;
    }
    if (blank) {
      this.scene.reset(markers.values(), false);
      this.active = false;
    } else if (!this.active) {
      this.scene.reset(markers.values());
      this.active = true;
    }
    const sent = this.scene.setView({ width, height, ratio, offsetX, offsetY, stale }, this.zoomed);
    if (!this.viewPlaces.has(sent.id)) {
      this.viewPlaces.set(sent.id, topLeft);
      // The placeholder canvas is sized by the worker (its pixels) and here (its CSS size).
      Object.assign(canvas.style, { width: `${width / ratio}px`, height: `${height / ratio}px` });
    }
    if (this.zoomed) {
      this.zoomed = false;
      this.revealFromView = sent.id;
    }
    const update = this.scene.flush(
      (marker) => spriteIndex((marker as Marker).level, (marker as Marker).shape),
      () => linkSlots(markers, links),
    );
    if (!update) return;
    const message: PixelWorkerRequest = { type: 'update', ...update };
    const transfer = [update.slots?.buffer, update.values?.buffer, update.links?.buffer].filter((buffer) => buffer !== undefined);
    worker.postMessage(message, transfer);
  }

  private giveUp(): void {
    this.stop();
    this.failed = true;
  }

  /** The worker drew a picture: its canvas goes where the layer's was for that view. */
  private pictureDrawn(reply: PixelWorkerReply): void {
    const canvas = this.canvas;
    if (!canvas) return;
    const place = this.viewPlaces.get(reply.viewId);
    if (place) {
      L.DomUtil.setPosition(canvas, place);
      for (const id of this.viewPlaces.keys()) if (id < reply.viewId) this.viewPlaces.delete(id);
    }
    if (!this.zooming && reply.viewId >= this.revealFromView) canvas.style.visibility = '';
    this.onPicture(reply.drawMs, reply.at - performance.timeOrigin);
  }
}

/** Escort lines as pairs of the two markers' slots, both present. */
function linkSlots(markers: ReadonlyMap<string, Marker>, links: readonly [string, string][]): Int32Array<ArrayBuffer> {
  const slots: number[] = [];
  for (const [a, b] of links) {
    const from = markers.get(a);
    const to = markers.get(b);
    if (from && to && from.slot >= 0 && to.slot >= 0) slots.push(from.slot, to.slot);
  }
  return Int32Array.from(slots);
}
