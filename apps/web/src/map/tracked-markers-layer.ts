// One canvas for every tracked prisoner: DOM or SVG markers stop scaling near a thousand moving points, so all
// markers are drawn in one pass per animation frame, gliding to each new position over GLIDE_MS (SPEC.md section 9).
// Above PIXEL_PATH_THRESHOLD markers the sprites' pixels are written directly, by a worker on a canvas of its own
// where the browser allows it (marker-pixels.worker.ts), which also glides the markers on its own animation frames:
// on a machine without a GPU that pixel work is most of a frame, and the main thread has the feed and the page to run.
import L from 'leaflet';
import { LABEL_MIN_ZOOM, MARKER_COLOURS, MARKER_LEVELS, type MarkerLevel } from './marker-style';
import { strokeEscortLines } from './escort-lines';
import { GLIDE_MS, type PixelWorkerReply, type PixelWorkerRequest } from './marker-pixels-protocol';
import { PixelSceneSync } from './pixel-scene-sync';
import { blitAll, spritePixels, type SpritePixels } from './sprite-pixels';
import { placeLabels, type LabelCandidate } from './label-placement';

export { GLIDE_MS };
const RADIUS = 7;
const HIT_RADIUS = RADIUS + 4;
const PANE = 'trackedMarkers';

export interface MarkerPosition {
  name: string;
  /** Shown under the name in the popup, e.g. "#12 · cell B-4": names are not unique. */
  detail?: string;
  latitude: number;
  longitude: number;
  /** The colour (marker-style.ts); unchanged when absent, 'none' for a new marker. */
  level?: MarkerLevel;
  /** Drawn beside the marker from LABEL_MIN_ZOOM on, e.g. "JW B-4". */
  label?: string;
  /** 'staff': a police officer's or guard's tracker, drawn as a diamond (decision 035); a prisoner's is a dot. */
  shape?: MarkerShape;
}

export type MarkerShape = 'dot' | 'staff';

interface Marker {
  shape: MarkerShape;
  name: string;
  detail: string;
  level: MarkerLevel;
  label: string;
  fromLat: number;
  fromLng: number;
  toLat: number;
  toLng: number;
  /** The same two points projected to world pixels at the layer's projection zoom: drawing is arithmetic only. */
  fromX: number;
  fromY: number;
  toX: number;
  toY: number;
  glideStart: number;
  /** Its slot in the pixel worker's scene (pixel-scene-sync.ts), -1 while the worker does not draw. */
  slot: number;
  queued: boolean;
}

/** How far along its glide a marker is, 0 to 1. */
function progress(marker: Marker, now: number): number {
  const t = (now - marker.glideStart) / GLIDE_MS;
  return t >= 1 ? 1 : t <= 0 ? 0 : t;
}

/**
 * A pre-rendered dot (a prisoner) or diamond (staff): copying a small bitmap is much cheaper than filling and
 * stroking a path per marker.
 */
function markerSprite(fill: string, ratio: number, shape: MarkerShape = 'dot'): HTMLCanvasElement {
  const size = Math.ceil((RADIUS + 2) * 2 * ratio);
  const sprite = document.createElement('canvas');
  sprite.width = size;
  sprite.height = size;
  const ctx = sprite.getContext('2d')!;
  ctx.scale(ratio, ratio);
  ctx.beginPath();
  const c = RADIUS + 2;
  if (shape === 'staff') {
    ctx.moveTo(c, c - RADIUS);
    ctx.lineTo(c + RADIUS, c);
    ctx.lineTo(c, c + RADIUS);
    ctx.lineTo(c - RADIUS, c);
    ctx.closePath();
  } else {
    ctx.arc(c, c, RADIUS, 0, Math.PI * 2);
  }
  ctx.fillStyle = fill;
  ctx.fill();
  ctx.lineWidth = 2;
  ctx.strokeStyle = '#ffffff';
  ctx.stroke();
  return sprite;
}

/** The pixel worker and the canvas it draws on (just below the layer's own, which keeps the labels). */
interface PixelWorker {
  worker: Worker;
  canvas: HTMLCanvasElement;
}

/** A sprite's place in the list the pixel worker is given: two per level, a dot and a staff diamond. */
function spriteIndex(level: MarkerLevel, shape: MarkerShape): number {
  return MARKER_LEVELS.indexOf(level) * 2 + (shape === 'staff' ? 1 : 0);
}

/** Above this many markers the layer writes pixels itself instead of calling drawImage per marker. */
const PIXEL_PATH_THRESHOLD = 1500;
/** At most this many labels per frame (only markers in view are labelled, and only from LABEL_MIN_ZOOM on). */
const MAX_LABELS = 300;
/** Markers in view considered for a label per frame: the placement picks among them by priority (decision 044). */
const MAX_LABEL_CANDIDATES = 2000;
/** A label's priority: the selected marker (open popup) first, then by level, worst first (MARKER_LEVELS order). */
const LABEL_PRIORITY = Object.fromEntries(MARKER_LEVELS.map((level, index) => [level, index + 1])) as Record<
  MarkerLevel,
  number
>;
/** Label bitmaps kept (one per distinct text); the cache starts over beyond this. */
const MAX_LABEL_SPRITES = 5000;

interface Sprite {
  canvas: HTMLCanvasElement;
  pixels: SpritePixels;
  /** Its bitmap (not premultiplied), for the pixel worker. */
  rgba: Uint8ClampedArray;
  /** Its place in the list the pixel worker is given. */
  index: number;
}

/** The popup of one marker: the layer fills the name and detail; `extra` is for the page (React renders into it). */
export interface MarkerPopupSlot {
  id: string;
  extra: HTMLElement;
}

export class TrackedMarkersLayer extends L.Layer {
  private markers = new Map<string, Marker>();
  private canvas: HTMLCanvasElement | null = null;
  private frame = 0;
  private popup: L.Popup | null = null;
  private popupId: string | null = null;
  /** Zoom at which marker positions are projected to world pixels; reprojected when the zoom changes. */
  private projectionZoom: number | null = null;
  private sprites: {
    ratio: number;
    byLevel: Record<MarkerLevel, Sprite>;
    staffByLevel: Record<MarkerLevel, Sprite>;
    /** Every sprite by index (spriteIndex: the order the pixel worker is given too), and their pixels. */
    all: Sprite[];
    list: SpritePixels[];
  } | null = null;
  /** Escorts (decision 035): a line between each pair of markers, both present. */
  private links: [string, string][] = [];
  private frameImage: ImageData | null = null;
  /** The frame's pixels as 32-bit words (a view of frameImage). */
  private frameWords: Int32Array | null = null;
  /**
   * Above the pixel threshold the markers are drawn by a worker (marker-pixels.worker.ts) on a canvas of its own. It
   * holds its own copy of the markers, kept by `scene`, and glides them on its own animation frames.
   */
  private pixelWorker: PixelWorker | null = null;
  private workerFailed = false;
  /** The worker draws the markers (above the threshold); when false its canvas is blank. */
  private workerActive = false;
  private scene = new PixelSceneSync();
  private workerSpriteRatio = 0;
  /** Where the layer's canvas was for each view sent to the worker: the worker's canvas goes there with its picture. */
  private viewPlaces = new Map<number, L.Point>();
  /** Nothing on the layer's own canvas (the worker draws the markers and no label is shown). */
  private canvasBlank = false;
  private zooming = false;
  /** The next view sent is a new zoom's: the worker's canvas is shown again with the first picture of it. */
  private zoomed = false;
  private revealFromView = 0;
  /** Reused between frames. */
  private markerBuffer = new Int32Array(0);
  private linkBuffer = new Float32Array(0);
  /** Pictures of the markers drawn so far, on either thread (the benchmark counts them). */
  framesDrawn = 0;
  /**
   * Told each time the worker has drawn a picture, with how long it took and when it started (on the page's clock:
   * performance.now()); the benchmark records them.
   */
  onPixelFrame: ((drawMs: number, at: number) => void) | null = null;
  private popupContent: HTMLElement | null = null;
  /** Every marker drawn grey: the live feed is not live (the page says since when). */
  private stale = false;
  /** Above this many markers, pixels are written directly (the benchmark compares both ways). */
  pixelPathThreshold = PIXEL_PATH_THRESHOLD;
  /** Told when a marker's popup opens (with the slot for the page's part) and when it closes (null). */
  onPopupChange: ((slot: MarkerPopupSlot | null) => void) | null = null;

  get size(): number {
    return this.markers.size;
  }

  has(id: string): boolean {
    return this.markers.has(id);
  }

  /** Places a new marker at once; moves a known one by gliding from where it is drawn now. */
  upsert(id: string, position: MarkerPosition, now = performance.now()): void {
    const known = this.markers.get(id);
    if (!known) {
      const { latitude: lat, longitude: lng } = position;
      const marker: Marker = {
        shape: position.shape ?? 'dot',
        name: position.name,
        detail: position.detail ?? '',
        level: position.level ?? 'none',
        label: position.label ?? '',
        fromLat: lat,
        fromLng: lng,
        toLat: lat,
        toLng: lng,
        fromX: 0,
        fromY: 0,
        toX: 0,
        toY: 0,
        glideStart: now - GLIDE_MS,
        slot: -1,
        queued: false,
      };
      this.project(marker);
      this.markers.set(id, marker);
      if (this.workerActive) this.scene.add(marker);
    } else {
      known.name = position.name;
      known.detail = position.detail ?? '';
      if (position.shape !== undefined) known.shape = position.shape;
      if (position.label !== undefined) known.label = position.label;
      if (position.level !== undefined && position.level !== known.level) {
        known.level = position.level;
        if (this.popupId === id && this.popupContent) this.popupContent.dataset.level = position.level;
      }
      if (known.toLat !== position.latitude || known.toLng !== position.longitude) {
        const t = progress(known, now);
        known.fromLat += (known.toLat - known.fromLat) * t;
        known.fromLng += (known.toLng - known.fromLng) * t;
        known.fromX += (known.toX - known.fromX) * t;
        known.fromY += (known.toY - known.fromY) * t;
        known.toLat = position.latitude;
        known.toLng = position.longitude;
        if (this._map && this.projectionZoom !== null) {
          const to = this._map.project([known.toLat, known.toLng], this.projectionZoom);
          known.toX = to.x;
          known.toY = to.y;
        }
        known.glideStart = now;
      }
      this.scene.changed(known);
    }
    this.requestFrame();
  }

  /** The marker's shape (tests read it instead of pixels). */
  shapeOf(id: string): MarkerShape | null {
    return this.markers.get(id)?.shape ?? null;
  }

  /** Escort lines: each pair of marker ids is joined by a line while both markers are on the map. */
  setLinks(links: [string, string][]): void {
    this.links = links;
    this.scene.linksMayHaveChanged();
    this.requestFrame();
  }

  setLevel(id: string, level: MarkerLevel): void {
    const marker = this.markers.get(id);
    if (marker && marker.level !== level) {
      marker.level = level;
      if (this.popupId === id && this.popupContent) this.popupContent.dataset.level = level;
      this.scene.changed(marker);
      this.requestFrame();
    }
  }

  /** The level a marker is drawn with (tests read it instead of pixels); 'offline' for every marker while stale. */
  levelOf(id: string): MarkerLevel | null {
    const marker = this.markers.get(id);
    if (!marker) return null;
    return this.stale ? 'offline' : marker.level;
  }

  /** Greys every marker (the live connection is down, so no position is current); false restores the colours. */
  setStale(stale: boolean): void {
    // The canvas says it too, for tests and for anyone inspecting the page.
    if (this.canvas) this.canvas.dataset.stale = String(stale);
    if (this.stale === stale) return;
    this.stale = stale;
    if (this.popupId && this.popupContent) this.popupContent.dataset.level = this.levelOf(this.popupId) ?? 'none';
    this.requestFrame();
  }

  get isStale(): boolean {
    return this.stale;
  }

  /** Re-measures the open popup after its content changed size. */
  updatePopup(): void {
    this.popup?.update();
  }

  removeMarker(id: string): void {
    const marker = this.markers.get(id);
    if (marker) {
      this.markers.delete(id);
      this.scene.remove(marker);
      if (this.popupId === id) this.closeMarkerPopup();
      this.requestFrame();
    }
  }

  clear(): void {
    this.markers.clear();
    if (this.workerActive) this.scene.reset([]);
    this.closeMarkerPopup();
    this.requestFrame();
  }

  ids(): string[] {
    return [...this.markers.keys()];
  }

  /** Where the marker is drawn now (mid-glide included). */
  positionOf(id: string, now = performance.now()): L.LatLng | null {
    const marker = this.markers.get(id);
    if (!marker) return null;
    const t = progress(marker, now);
    return L.latLng(
      marker.fromLat + (marker.toLat - marker.fromLat) * t,
      marker.fromLng + (marker.toLng - marker.fromLng) * t,
    );
  }

  openMarkerPopup(id: string): void {
    const map = this._map;
    const marker = this.markers.get(id);
    if (!map || !marker) return;
    this.closeMarkerPopup();
    const content = document.createElement('div');
    content.dataset.testid = 'marker-popup';
    content.dataset.level = this.stale ? 'offline' : marker.level;
    const name = content.appendChild(document.createElement('div'));
    name.textContent = `Name: ${marker.name}`;
    if (marker.detail) {
      const detail = content.appendChild(document.createElement('div'));
      detail.textContent = marker.detail;
      detail.dataset.testid = 'marker-popup-detail';
    }
    const extra = content.appendChild(document.createElement('section'));
    this.popupId = id;
    this.popupContent = content;
    const popup = L.popup({ offset: [0, -RADIUS], autoPan: false, minWidth: 220, maxWidth: 320 })
      .setLatLng(this.positionOf(id)!)
      .setContent(content);
    this.popup = popup;
    popup.on('remove', () => {
      // Only this popup's own closing: a popup replaced by another has already been forgotten.
      if (this.popup !== popup) return;
      this.popup = null;
      this.popupId = null;
      this.popupContent = null;
      this.onPopupChange?.(null);
    });
    popup.openOn(map);
    this.onPopupChange?.({ id, extra });
  }

  /** The marker whose popup is open, if any. */
  get openPopupId(): string | null {
    return this.popupId;
  }

  override onAdd(map: L.Map): this {
    const canvas = document.createElement('canvas');
    canvas.className = 'tracked-markers-canvas';
    canvas.dataset.testid = 'tracked-markers-canvas';
    // In a pane of its own: above the geofences (400), below popups and drawing tooltips (700). Clicks pass
    // through to the map (the drawing tools need them); markerAt() finds the marker under a click.
    const pane = map.getPane(PANE) ?? map.createPane(PANE);
    Object.assign(pane.style, { zIndex: '450', pointerEvents: 'none' });
    Object.assign(canvas.style, { position: 'absolute', left: '0', top: '0' });
    pane.appendChild(canvas);
    this.canvas = canvas;
    this.setStale(this.stale);
    this.projectionZoom = map.getZoom();
    for (const marker of this.markers.values()) this.project(marker);
    map.on('move zoom viewreset resize zoomend', this.requestFrame, this);
    map.on('click', this.handleClick, this);
    // The canvas does not follow Leaflet's zoom animation; hide it for that quarter second.
    map.on('zoomstart', this.hideDuringZoom, this);
    map.on('zoomend', this.showAfterZoom, this);
    this.resize();
    this.requestFrame();
    return this;
  }

  override onRemove(map: L.Map): this {
    map.off('move zoom viewreset resize zoomend', this.requestFrame, this);
    map.off('click', this.handleClick, this);
    map.off('zoomstart', this.hideDuringZoom, this);
    map.off('zoomend', this.showAfterZoom, this);
    cancelAnimationFrame(this.frame);
    this.frame = 0;
    this.closeMarkerPopup();
    this.stopWorker();
    this.canvas?.remove();
    this.canvas = null;
    this.projectionZoom = null;
    return this;
  }

  /** Escort lines in canvas pixels (x1, y1, x2, y2 each) into `linkBuffer`; returns how many. */
  private linkSegments(now: number, ratio: number, offsetX: number, offsetY: number): number {
    if (this.linkBuffer.length < this.links.length * 4) this.linkBuffer = new Float32Array(this.links.length * 4);
    const buffer = this.linkBuffer;
    let count = 0;
    for (const [a, b] of this.links) {
      const from = this.markers.get(a);
      const to = this.markers.get(b);
      if (!from || !to) continue;
      const ta = progress(from, now);
      const tb = progress(to, now);
      buffer[count * 4] = (from.fromX + (from.toX - from.fromX) * ta + offsetX) * ratio;
      buffer[count * 4 + 1] = (from.fromY + (from.toY - from.fromY) * ta + offsetY) * ratio;
      buffer[count * 4 + 2] = (to.fromX + (to.toX - to.fromX) * tb + offsetX) * ratio;
      buffer[count * 4 + 3] = (to.fromY + (to.toY - to.fromY) * tb + offsetY) * ratio;
      count++;
    }
    return count;
  }

  /** A marker's label beside its sprite (top left x, y), ranked for the placement. */
  private labelCandidate(marker: Marker, x: number, y: number, spriteSize: number): LabelCandidate {
    const selected = this.popupId !== null && this.markers.get(this.popupId) === marker;
    return {
      rightX: x + spriteSize,
      leftX: x,
      y: y + spriteSize / 2,
      text: marker.label,
      priority: selected ? 0 : LABEL_PRIORITY[this.stale ? 'offline' : marker.level],
    };
  }

  private labelSprites = new Map<string, HTMLCanvasElement>();
  private labelRatio = 0;
  /** Label sizes by text, measured without drawing: most candidates are only measured, never drawn. */
  private labelSizes = new Map<string, { width: number; height: number }>();
  private labelSizesRatio = 0;
  private measureContext: CanvasRenderingContext2D | null = null;

  private labelSize(text: string, ratio: number): { width: number; height: number } {
    if (ratio !== this.labelSizesRatio || this.labelSizes.size > MAX_LABEL_SPRITES * 4) {
      this.labelSizes.clear();
      this.labelSizesRatio = ratio;
    }
    let size = this.labelSizes.get(text);
    if (!size) {
      this.measureContext ??= document.createElement('canvas').getContext('2d')!;
      size = labelBox(this.measureContext, text, ratio);
      this.labelSizes.set(text, size);
    }
    return size;
  }

  private labelSprite(text: string, ratio: number): HTMLCanvasElement {
    if (ratio !== this.labelRatio || this.labelSprites.size > MAX_LABEL_SPRITES) {
      this.labelSprites.clear();
      this.labelRatio = ratio;
    }
    let sprite = this.labelSprites.get(text);
    if (!sprite) {
      sprite = labelBitmap(text, ratio);
      this.labelSprites.set(text, sprite);
    }
    return sprite;
  }

  private hideDuringZoom(): void {
    this.zooming = true;
    if (this.canvas) this.canvas.style.visibility = 'hidden';
    if (this.pixelWorker) this.pixelWorker.canvas.style.visibility = 'hidden';
  }

  private showAfterZoom(): void {
    this.zooming = false;
    if (this.canvas) this.canvas.style.visibility = '';
    // The worker's canvas still shows the old zoom: it is shown again with its first picture of the new one.
    this.zoomed = true;
    this.revealFromView = Number.POSITIVE_INFINITY;
  }

  /**
   * The pixel worker and its canvas (just below the layer's own, which keeps the labels), started on first use; null
   * where a worker cannot draw (no OffscreenCanvas, tests) or after one failed: the main thread draws.
   */
  private pixelWorkerReady(): PixelWorker | null {
    if (this.pixelWorker) return this.pixelWorker;
    const pane = this.canvas?.parentElement;
    if (this.workerFailed || !pane || typeof Worker === 'undefined' || !('transferControlToOffscreen' in HTMLCanvasElement.prototype)) {
      return null;
    }
    try {
      const canvas = document.createElement('canvas');
      canvas.className = 'tracked-markers-canvas';
      Object.assign(canvas.style, { position: 'absolute', left: '0', top: '0', visibility: this.canvas!.style.visibility });
      const offscreen = canvas.transferControlToOffscreen();
      const worker = new Worker(new URL('./marker-pixels.worker.ts', import.meta.url), { type: 'module' });
      worker.onmessage = (event: MessageEvent<PixelWorkerReply>) => this.pixelPictureDrawn(event.data);
      worker.onerror = (event) => {
        // Drawn on the main thread from now on (e.g. a CSP that forbids the worker).
        event.preventDefault();
        this.stopWorker();
        this.workerFailed = true;
        this.requestFrame();
      };
      const init: PixelWorkerRequest = { type: 'init', canvas: offscreen };
      worker.postMessage(init, [offscreen]);
      pane.insertBefore(canvas, this.canvas);
      this.pixelWorker = { worker, canvas };
      this.workerSpriteRatio = 0;
      this.workerActive = false;
      return this.pixelWorker;
    } catch {
      this.stopWorker();
      this.workerFailed = true;
      return null;
    }
  }

  private stopWorker(): void {
    if (this.pixelWorker) {
      this.pixelWorker.worker.terminate();
      this.pixelWorker.canvas.remove();
    }
    this.pixelWorker = null;
    this.workerActive = false;
    this.scene.reset(this.markers.values(), false);
    this.viewPlaces.clear();
  }

  /** The worker drew a picture: its canvas goes where the layer's was for that view. */
  private pixelPictureDrawn(reply: PixelWorkerReply): void {
    const canvas = this.pixelWorker?.canvas;
    if (!canvas) return;
    const place = this.viewPlaces.get(reply.viewId);
    if (place) {
      L.DomUtil.setPosition(canvas, place);
      for (const id of this.viewPlaces.keys()) if (id < reply.viewId) this.viewPlaces.delete(id);
    }
    if (!this.zooming && reply.viewId >= this.revealFromView) canvas.style.visibility = '';
    this.framesDrawn++;
    this.onPixelFrame?.(reply.drawMs, reply.at - performance.timeOrigin);
  }

  /**
   * Sends the worker what changed since the last frame: sprites (new pixel ratio), markers, escort lines, the view.
   * With `blank` it empties the worker's scene (back under the threshold).
   */
  private updateWorker(pixelWorker: PixelWorker, ratio: number, offsetX: number, offsetY: number, topLeft: L.Point, width: number, height: number, blank = false): void {
    const { worker, canvas } = pixelWorker;
    if (this.workerSpriteRatio !== ratio) {
      const sprites = this.sprites!.all.map(({ rgba, canvas }) => ({ rgba, size: canvas.width }));
      // While stale every sprite is drawn as the offline one of its shape.
      const staleSprite: number[] = [];
      for (const level of MARKER_LEVELS) {
        for (const shape of ['dot', 'staff'] as const) staleSprite[spriteIndex(level, shape)] = spriteIndex('offline', shape);
      }
      const message: PixelWorkerRequest = { type: 'sprites', sprites, staleSprite };
      worker.postMessage(message);
      this.workerSpriteRatio = ratio;
    }
    if (blank) {
      this.scene.reset(this.markers.values(), false);
      this.workerActive = false;
    } else if (!this.workerActive) {
      this.scene.reset(this.markers.values());
      this.workerActive = true;
    }
    const view = this.scene.setView({ width, height, ratio, offsetX, offsetY, stale: this.stale }, this.zoomed);
    if (!this.viewPlaces.has(view.id)) {
      this.viewPlaces.set(view.id, topLeft);
      // The placeholder canvas is sized by the worker (its pixels) and here (its CSS size).
      Object.assign(canvas.style, { width: `${width / ratio}px`, height: `${height / ratio}px` });
    }
    if (this.zoomed) {
      this.zoomed = false;
      this.revealFromView = view.id;
    }
    const update = this.scene.flush(
      (marker) => spriteIndex((marker as Marker).level, (marker as Marker).shape),
      () => this.linkSlots(),
    );
    if (!update) return;
    const message: PixelWorkerRequest = { type: 'update', ...update };
    const transfer = [update.slots?.buffer, update.values?.buffer, update.links?.buffer].filter((buffer) => buffer !== undefined);
    worker.postMessage(message, transfer);
  }

  /** Escort lines as pairs of the two markers' slots, both present. */
  private linkSlots(): Int32Array<ArrayBuffer> {
    const slots: number[] = [];
    for (const [a, b] of this.links) {
      const from = this.markers.get(a);
      const to = this.markers.get(b);
      if (from && to && from.slot >= 0 && to.slot >= 0) slots.push(from.slot, to.slot);
    }
    return Int32Array.from(slots);
  }

  /**
   * Every marker in view at its glided position, as x, y (the sprite's top left, whole canvas pixels) and sprite
   * index into `markerBuffer`, in drawing order; collects the labels to draw. Returns how many.
   */
  private collectMarkers(
    now: number,
    ratio: number,
    offsetX: number,
    offsetY: number,
    width: number,
    height: number,
    labelled: LabelCandidate[] | null,
  ): number {
    const { byLevel, staffByLevel } = this.sprites!;
    if (this.markerBuffer.length < this.markers.size * 3) this.markerBuffer = new Int32Array(this.markers.size * 3);
    const buffer = this.markerBuffer;
    const stale = this.stale;
    const spriteSize = byLevel.none.canvas.width;
    const half = spriteSize / 2;
    let count = 0;
    for (const marker of this.markers.values()) {
      const t = progress(marker, now);
      const x = Math.round((marker.fromX + (marker.toX - marker.fromX) * t + offsetX) * ratio - half);
      const y = Math.round((marker.fromY + (marker.toY - marker.fromY) * t + offsetY) * ratio - half);
      if (x <= -spriteSize || y <= -spriteSize || x >= width || y >= height) continue;
      buffer[count * 3] = x;
      buffer[count * 3 + 1] = y;
      buffer[count * 3 + 2] = (marker.shape === 'staff' ? staffByLevel : byLevel)[stale ? 'offline' : marker.level].index;
      count++;
      if (labelled && marker.label && labelled.length < MAX_LABEL_CANDIDATES)
        labelled.push(this.labelCandidate(marker, x, y, spriteSize));
    }
    return count;
  }

  private project(marker: Marker): void {
    const map = this._map;
    if (!map) return;
    this.projectionZoom ??= map.getZoom();
    const from = map.project([marker.fromLat, marker.fromLng], this.projectionZoom);
    const to = map.project([marker.toLat, marker.toLng], this.projectionZoom);
    marker.fromX = from.x;
    marker.fromY = from.y;
    marker.toX = to.x;
    marker.toY = to.y;
    this.scene.changed(marker);
  }

  private closeMarkerPopup(): void {
    const hadPopup = this.popup !== null;
    const popup = this.popup;
    this.popup = null;
    this.popupId = null;
    this.popupContent = null;
    if (popup && this._map) this._map.closePopup(popup);
    if (hadPopup) this.onPopupChange?.(null);
  }

  /** The marker drawn nearest to a point of the map's container, within a few pixels. */
  markerAt(containerPoint: L.Point): string | null {
    const map = this._map;
    if (!map) return null;
    let best: string | null = null;
    let bestDistance = HIT_RADIUS * HIT_RADIUS;
    const { x, y } = containerPoint;
    const now = performance.now();
    for (const id of this.markers.keys()) {
      const point = map.latLngToContainerPoint(this.positionOf(id, now)!);
      const distance = (point.x - x) ** 2 + (point.y - y) ** 2;
      if (distance <= bestDistance) {
        best = id;
        bestDistance = distance;
      }
    }
    return best;
  }

  private handleClick(event: L.LeafletMouseEvent): void {
    const best = this.markerAt(event.containerPoint);
    if (best) this.openMarkerPopup(best);
  }

  /** One requestAnimationFrame loop for all markers; it stops when nothing glides and the view is still. */
  private requestFrame(): void {
    if (!this.frame && this.canvas) this.frame = requestAnimationFrame(this.draw);
  }

  private resize(): void {
    const map = this._map;
    const canvas = this.canvas;
    if (!map || !canvas) return;
    const size = map.getSize();
    const ratio = window.devicePixelRatio || 1;
    if (canvas.width !== Math.round(size.x * ratio) || canvas.height !== Math.round(size.y * ratio)) {
      canvas.width = Math.round(size.x * ratio);
      canvas.height = Math.round(size.y * ratio);
      canvas.style.width = `${size.x}px`;
      canvas.style.height = `${size.y}px`;
    }
  }

  private draw = (now: number): void => {
    this.frame = 0;
    const map = this._map;
    const canvas = this.canvas;
    if (!map || !canvas) return;
    this.resize();
    const ctx = canvas.getContext('2d');
    if (!ctx) return;
    const ratio = window.devicePixelRatio || 1;
    if (!this.sprites || this.sprites.ratio !== ratio) {
      const byLevel = {} as Record<MarkerLevel, Sprite>;
      const staffByLevel = {} as Record<MarkerLevel, Sprite>;
      for (const level of MARKER_LEVELS) {
        byLevel[level] = spriteOf(markerSprite(MARKER_COLOURS[level], ratio), spriteIndex(level, 'dot'));
        staffByLevel[level] = spriteOf(markerSprite(MARKER_COLOURS[level], ratio, 'staff'), spriteIndex(level, 'staff'));
      }
      const all: Sprite[] = [];
      for (const sprite of [...Object.values(byLevel), ...Object.values(staffByLevel)]) all[sprite.index] = sprite;
      this.sprites = { ratio, byLevel, staffByLevel, all, list: all.map((sprite) => sprite.pixels) };
    }
    const zoom = map.getZoom();
    if (zoom !== this.projectionZoom) {
      this.projectionZoom = zoom;
      for (const marker of this.markers.values()) this.project(marker);
    }
    ctx.setTransform(1, 0, 0, 1, 0, 0);

    // The pane moves with the map while it is dragged: keep the canvas over the visible container.
    const topLeft = map.containerPointToLayerPoint([0, 0]);
    L.DomUtil.setPosition(canvas, topLeft);
    // World pixels -> canvas pixels: one offset per frame instead of a projection per marker.
    const origin = map.getPixelOrigin();
    const offsetX = -origin.x - topLeft.x;
    const offsetY = -origin.y - topLeft.y;
    const { byLevel, staffByLevel } = this.sprites;
    const stale = this.stale;
    const spriteSize = byLevel.none.canvas.width;
    const half = spriteSize / 2;
    const width = canvas.width;
    const height = canvas.height;
    const usePixels = this.markers.size > this.pixelPathThreshold;
    // Labels only from LABEL_MIN_ZOOM on and only for markers in view: at lower zooms no text is laid out at all.
    const labelled = zoom >= LABEL_MIN_ZOOM ? ([] as LabelCandidate[]) : null;
    const linkCount = this.linkSegments(now, ratio, offsetX, offsetY);
    if (canvas.dataset.escortLines !== String(linkCount)) canvas.dataset.escortLines = String(linkCount);
    const pixelWorker = usePixels ? this.pixelWorkerReady() : null;
    if (pixelWorker) {
      // The worker draws and glides the markers and escort lines; this canvas keeps only the labels.
      this.updateWorker(pixelWorker, ratio, offsetX, offsetY, topLeft, width, height);
      if (labelled) this.collectMarkers(now, ratio, offsetX, offsetY, width, height, labelled);
      // Cleared only when labels are on it: a canvas changed every frame costs a copy to the compositor each frame.
      if (!this.canvasBlank) ctx.clearRect(0, 0, width, height);
      this.canvasBlank = !labelled?.length;
    } else {
      this.canvasBlank = false;
      if (this.pixelWorker && this.workerActive) {
        // Back under the threshold: empty the worker's canvas.
        this.updateWorker(this.pixelWorker, ratio, offsetX, offsetY, topLeft, width, height, true);
      }
      if (usePixels) {
        if (!this.frameImage || this.frameImage.width !== width || this.frameImage.height !== height) {
          this.frameImage = ctx.createImageData(width, height);
          this.frameWords = new Int32Array(this.frameImage.data.buffer);
        }
        const count = this.collectMarkers(now, ratio, offsetX, offsetY, width, height, labelled);
        blitAll(this.frameWords!, width, height, this.sprites.list, this.markerBuffer, count);
        ctx.putImageData(this.frameImage, 0, 0);
      } else {
        ctx.clearRect(0, 0, width, height);
      }
      for (const marker of usePixels ? [] : this.markers.values()) {
        const t = progress(marker, now);
        // Whole pixels: a sub-pixel copy is filtered and costs several times more.
        const x = Math.round((marker.fromX + (marker.toX - marker.fromX) * t + offsetX) * ratio - half);
        const y = Math.round((marker.fromY + (marker.toY - marker.fromY) * t + offsetY) * ratio - half);
        if (x <= -spriteSize || y <= -spriteSize || x >= width || y >= height) continue;
        const sprite = (marker.shape === 'staff' ? staffByLevel : byLevel)[stale ? 'offline' : marker.level];
        ctx.drawImage(sprite.canvas, x, y);
        if (labelled && marker.label && labelled.length < MAX_LABEL_CANDIDATES) {
          labelled.push(this.labelCandidate(marker, x, y, spriteSize));
        }
      }
      strokeEscortLines(ctx, this.linkBuffer, ratio, linkCount);
      this.framesDrawn++;
    }
    if (labelled?.length) {
      // Each label is rendered once into a small bitmap and then copied: laying out text every frame costs ~50 µs a
      // label in software rendering, a copy a few. None overprints another (label-placement.ts).
      const labelSize = (text: string) => this.labelSize(text, ratio);
      for (const { x, y, text } of placeLabels(labelled, labelSize, MAX_LABELS)) {
        ctx.drawImage(this.labelSprite(text, ratio), x, y);
      }
    }
    // While the worker draws, the main thread's frames are needed only by labels and an open popup following a glide.
    let gliding = false;
    if (!pixelWorker || labelled?.length || this.popup) {
      for (const marker of this.markers.values()) {
        if (now - marker.glideStart < GLIDE_MS) {
          gliding = true;
          break;
        }
      }
    }

    if (this.popup && this.popupId) {
      const position = this.positionOf(this.popupId, now);
      if (position) this.popup.setLatLng(position);
    }
    if (gliding) this.requestFrame();
  };
}

const labelFont = (ratio: number) => `600 ${Math.round(11 * ratio)}px system-ui, sans-serif`;

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

function spriteOf(canvas: HTMLCanvasElement, index: number): Sprite {
  const rgba = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height).data;
  return { canvas, rgba, pixels: spritePixels(rgba, canvas.width), index };
}
