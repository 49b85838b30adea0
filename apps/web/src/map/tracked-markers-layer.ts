// The live map's marker layer as Leaflet sees it: one canvas for every tracked prisoner (DOM or SVG markers stop
// scaling near a thousand moving points), its life on the map, the markers it keeps, and one frame loop that draws
// them all gliding to their new positions (docs/CLIENT-CONTRACT.md). Each step is a file of its own:
//   tracked-marker.ts      a marker and its glide            frame-placement.ts     where each marker is this frame
//   marker-sprites.ts      the dot and diamond bitmaps       main-thread-markers.ts drawing them on this thread
//   pixel-worker-host.ts   the worker that draws above PIXEL_PATH_THRESHOLD markers (marker-pixels.worker.ts)
//   marker-labels.ts       labels and their bitmaps          marker-popup.ts        the open marker's popup
//   marker-picking.ts      the marker under a click          marker-cluster(-list).ts the list of a crowd
import L from 'leaflet';
import { clusterAt } from './marker-cluster';
import { openClusterList } from './marker-cluster-list';
import { FramePlacement, type FrameView } from './frame-placement';
import type { LabelCandidate } from './label-placement';
import { MainThreadMarkers } from './main-thread-markers';
import { LabelBitmaps } from './marker-labels';
import { GLIDE_MS } from './marker-pixels-protocol';
import { markerNearest } from './marker-picking';
import { MarkerPopup } from './marker-popup';
import { markerSprites, MARKER_RADIUS, type MarkerSprites } from './marker-sprites';
import { LABEL_MIN_ZOOM, type MarkerLevel } from './marker-style';
import { PixelWorkerHost } from './pixel-worker-host';
import { glidedLatLng, glideTo, isGliding, newMarker, type Marker, type MarkerPosition, type MarkerShape } from './tracked-marker';
import { mercatorX, mercatorY, worldSize } from './web-mercator';

/** Markers drawn within this many pixels of a click overprint each other there: the click lists them. */
const CLUSTER_RADIUS = MARKER_RADIUS * 2;

export { GLIDE_MS };
export type { MarkerPosition, MarkerShape } from './tracked-marker';
export type { MarkerPopupSlot } from './marker-popup';

const PANE = 'trackedMarkers';
/**
 * Above this many markers the sprites' pixels are written directly instead of calling drawImage per marker, by a
 * worker on a canvas of its own where the browser allows it, which also glides the markers on its own animation
 * frames: on a machine without a GPU that pixel work is most of a frame, and the main thread has the feed and the
 * page to run.
 */
const PIXEL_PATH_THRESHOLD = 1500;

export class TrackedMarkersLayer extends L.Layer {
  private markers = new Map<string, Marker>();
  private canvas: HTMLCanvasElement | null = null;
  private frame = 0;
  /** Zoom at which marker positions are projected to world pixels; reprojected when the zoom changes. */
  private projectionZoom: number | null = null;
  private sprites: MarkerSprites | null = null;
  /** Escorts (decision 035): a line between each pair of markers, both present. */
  private links: [string, string][] = [];
  private placement = new FramePlacement();
  private mainThread = new MainThreadMarkers();
  private labels = new LabelBitmaps();
  private popup = new MarkerPopup();
  /**
   * Above the pixel threshold the markers are drawn by a worker on a canvas of its own; it holds its own copy of the
   * markers and glides them on its own animation frames.
   */
  private pixelWorker = new PixelWorkerHost(
    this.markers,
    (drawMs, at) => {
      this.framesDrawn++;
      this.onPixelFrame?.(drawMs, at);
    },
    () => this.requestFrame(),
  );
  /** Nothing on the layer's own canvas (the worker draws the markers and no label is shown). */
  private canvasBlank = false;
  /** Pictures of the markers drawn so far, on either thread (the benchmark counts them). */
  framesDrawn = 0;
  /**
   * Told each time the worker has drawn a picture, with how long it took and when it started (on the page's clock:
   * performance.now()); the benchmark records them.
   */
  onPixelFrame: ((drawMs: number, at: number) => void) | null = null;
  /** Every marker drawn grey: the live feed is not live (the page says since when). */
  private stale = false;
  /** Above this many markers, pixels are written directly (the benchmark compares both ways). */
  pixelPathThreshold = PIXEL_PATH_THRESHOLD;

  /** Told when a marker's popup opens (with the slot for the page's part) and when it closes (null). */
  get onPopupChange(): MarkerPopup['onChange'] {
    return this.popup.onChange;
  }

  set onPopupChange(listener: MarkerPopup['onChange']) {
    this.popup.onChange = listener;
  }

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
      const marker = newMarker(position, now);
      this.project(marker);
      this.markers.set(id, marker);
      this.pixelWorker.added(marker);
    } else {
      known.name = position.name;
      if (position.detail !== undefined) known.detail = position.detail;
      if (position.shape !== undefined) known.shape = position.shape;
      if (position.label !== undefined) known.label = position.label;
      if (position.level !== undefined && position.level !== known.level) {
        known.level = position.level;
        this.popup.showLevel(id, position.level);
      }
      if (known.toLat !== position.latitude || known.toLng !== position.longitude) {
        const to =
          this._map && this.projectionZoom !== null ? this.toWorld(this._map, this.projectionZoom, position.latitude, position.longitude) : null;
        glideTo(known, position.latitude, position.longitude, to, now);
      }
      this.pixelWorker.changed(known);
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
    this.pixelWorker.linksMayHaveChanged();
    this.requestFrame();
  }

  setLevel(id: string, level: MarkerLevel): void {
    const marker = this.markers.get(id);
    if (marker && marker.level !== level) {
      marker.level = level;
      this.popup.showLevel(id, level);
      this.pixelWorker.changed(marker);
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
    if (this.popup.id) this.popup.showLevel(this.popup.id, this.levelOf(this.popup.id) ?? 'none');
    this.requestFrame();
  }

  get isStale(): boolean {
    return this.stale;
  }

  /** Re-measures the open popup after its content changed size. */
  updatePopup(): void {
    this.popup.update();
  }

  removeMarker(id: string): void {
    const marker = this.markers.get(id);
    if (marker) {
      this.markers.delete(id);
      this.pixelWorker.removed(marker);
      if (this.popup.id === id) this.popup.close(this._map);
      this.requestFrame();
    }
  }

  clear(): void {
    this.markers.clear();
    this.pixelWorker.cleared();
    this.popup.close(this._map);
    this.requestFrame();
  }

  ids(): string[] {
    return [...this.markers.keys()];
  }

  /** Where the marker is drawn now (mid-glide included). */
  positionOf(id: string, now = performance.now()): L.LatLng | null {
    const marker = this.markers.get(id);
    return marker ? L.latLng(glidedLatLng(marker, now)) : null;
  }

  openMarkerPopup(id: string): void {
    const map = this._map;
    const marker = this.markers.get(id);
    if (!map || !marker) return;
    this.popup.open(map, id, marker, this.levelOf(id)!, this.positionOf(id)!, MARKER_RADIUS);
  }

  /** The marker whose popup is open, if any. */
  get openPopupId(): string | null {
    return this.popup.id;
  }

  /** The marker drawn nearest to a point of the map's container, within a few pixels. */
  markerAt(containerPoint: L.Point): string | null {
    return this._map ? markerNearest(this._map, this.markers, containerPoint, performance.now()) : null;
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
    this.popup.close(map);
    this.pixelWorker.stop();
    this.canvas?.remove();
    this.canvas = null;
    this.projectionZoom = null;
    return this;
  }

  private project(marker: Marker): void {
    const map = this._map;
    if (!map) return;
    this.projectionZoom ??= map.getZoom();
    const from = this.toWorld(map, this.projectionZoom, marker.fromLat, marker.fromLng);
    marker.fromX = from.x;
    marker.fromY = from.y;
    const to = this.toWorld(map, this.projectionZoom, marker.toLat, marker.toLng);
    marker.toX = to.x;
    marker.toY = to.y;
    this.pixelWorker.changed(marker);
  }

  /** A scratch point for toWorld: read at once, it is the next call's too. */
  private readonly worldPoint = { x: 0, y: 0 };

  /**
   * A position in world pixels at `zoom`: Web Mercator spelled out on a map that uses it (Leaflet's default; no
   * objects for the 200,000 fixes a second of 50,000 moving markers), else the map's own projection.
   */
  private toWorld(map: L.Map, zoom: number, latitude: number, longitude: number): { x: number; y: number } {
    const point = this.worldPoint;
    if (map.options.crs === undefined || map.options.crs === L.CRS.EPSG3857) {
      const size = worldSize(zoom);
      point.x = mercatorX(longitude, size);
      point.y = mercatorY(latitude, size);
    } else {
      const projected = map.project([latitude, longitude], zoom);
      point.x = projected.x;
      point.y = projected.y;
    }
    return point;
  }

  private handleClick(event: L.LeafletMouseEvent): void {
    const map = this._map;
    const best = this.markerAt(event.containerPoint);
    if (!map || !best) return;
    // Markers drawn over each other: a list of them all instead of the top one's popup.
    const now = performance.now();
    const drawn = [...this.markers].map(([id, marker]) => {
      const point = map.latLngToContainerPoint(glidedLatLng(marker, now));
      return { id, x: point.x, y: point.y, level: this.levelOf(id)!, name: marker.name };
    });
    const members = clusterAt(drawn, event.containerPoint.x, event.containerPoint.y, CLUSTER_RADIUS);
    if (members.length > 1) openClusterList(map, event.latlng, members, (id) => this.openMarkerPopup(id));
    else this.openMarkerPopup(best);
  }

  private hideDuringZoom(): void {
    if (this.canvas) this.canvas.style.visibility = 'hidden';
    this.pixelWorker.zoomStarted();
  }

  private showAfterZoom(): void {
    if (this.canvas) this.canvas.style.visibility = '';
    this.pixelWorker.zoomEnded();
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

  /** One frame: the markers (here or by the worker), the escort lines, the labels, and the popup on its marker. */
  private draw = (now: number): void => {
    this.frame = 0;
    const map = this._map;
    const canvas = this.canvas;
    if (!map || !canvas) return;
    this.resize();
    const ctx = canvas.getContext('2d');
    if (!ctx) return;
    const ratio = window.devicePixelRatio || 1;
    if (this.sprites?.ratio !== ratio) this.sprites = markerSprites(ratio);
    const sprites = this.sprites;
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
    const view: FrameView = {
      now,
      ratio,
      offsetX: -origin.x - topLeft.x,
      offsetY: -origin.y - topLeft.y,
      width: canvas.width,
      height: canvas.height,
      stale: this.stale,
    };
    const usePixels = this.markers.size > this.pixelPathThreshold;
    // Labels only from LABEL_MIN_ZOOM on and only for markers in view: at lower zooms no text is laid out at all.
    const labelled = zoom >= LABEL_MIN_ZOOM ? ([] as LabelCandidate[]) : null;
    const selected = this.popup.id !== null ? this.markers.get(this.popup.id) : undefined;
    const linkCount = this.placement.placeLinks(this.links, this.markers, view);
    if (canvas.dataset.escortLines !== String(linkCount)) canvas.dataset.escortLines = String(linkCount);
    const workerDraws = usePixels && this.pixelWorker.ready(canvas.parentElement, canvas);
    const workerView = { ...view, topLeft };
    if (workerDraws) {
      // The worker draws and glides the markers and escort lines; this canvas keeps only the labels.
      this.pixelWorker.update(this.links, sprites, workerView);
      if (labelled) this.placement.placeMarkers(this.markers.values(), this.markers.size, view, sprites.size, labelled, selected, true);
      // Cleared only when labels are on it: a canvas changed every frame costs a copy to the compositor each frame.
      if (!this.canvasBlank) ctx.clearRect(0, 0, view.width, view.height);
      this.canvasBlank = !labelled?.length;
    } else {
      this.canvasBlank = false;
      // Back under the threshold: empty the worker's canvas.
      if (this.pixelWorker.drawing) this.pixelWorker.update(this.links, sprites, workerView, true);
      const count = this.placement.placeMarkers(this.markers.values(), this.markers.size, view, sprites.size, labelled, selected);
      this.mainThread.draw(ctx, sprites, this.placement.markers, count, this.placement.links, linkCount, usePixels);
      this.framesDrawn++;
    }
    if (labelled?.length) this.labels.draw(ctx, labelled, ratio);
    // While the worker draws, the main thread's frames are needed only by labels and an open popup following a glide.
    let gliding = false;
    if (!workerDraws || labelled?.length || this.popup.isOpen) {
      for (const marker of this.markers.values()) {
        if (isGliding(marker, now)) {
          gliding = true;
          break;
        }
      }
    }
    if (this.popup.id) {
      const position = this.positionOf(this.popup.id, now);
      if (position) this.popup.follow(position);
    }
    if (gliding) this.requestFrame();
  };
}
