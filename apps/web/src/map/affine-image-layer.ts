// A Leaflet layer that draws an image placed by three ground points (a site plan, decision 065): an <img> in its own
// pane under the geofences and markers, its CSS matrix computed from where the image's top-left, top-right and
// bottom-left corners fall on the map, again after every zoom.
import L from 'leaflet';

export interface ImageCorners {
  topLeft: { lat: number; lng: number };
  topRight: { lat: number; lng: number };
  bottomLeft: { lat: number; lng: number };
}

/** Above the tiles (200), below the geofences' overlay pane (400) and the markers. */
export const SITE_PLAN_PANE = 'site-plan';
const SITE_PLAN_PANE_Z = '250';

export class AffineImageLayer extends L.Layer {
  private readonly image: HTMLImageElement;

  constructor(
    url: string,
    private corners: ImageCorners,
    private readonly size: { width: number; height: number },
    opacity: number,
    alt: string,
  ) {
    super();
    this.image = L.DomUtil.create('img', 'site-plan-image leaflet-zoom-hide') as HTMLImageElement;
    this.image.src = url;
    this.image.alt = alt;
    this.image.draggable = false;
    this.image.dataset.testid = 'site-plan-image';
    Object.assign(this.image.style, { position: 'absolute', left: '0', top: '0', transformOrigin: '0 0', pointerEvents: 'none', maxWidth: 'none' });
    this.image.style.width = `${size.width}px`;
    this.image.style.height = `${size.height}px`;
    this.setOpacity(opacity);
  }

  override onAdd(map: L.Map): this {
    const pane = map.getPane(SITE_PLAN_PANE) ?? map.createPane(SITE_PLAN_PANE);
    pane.style.zIndex = SITE_PLAN_PANE_Z;
    pane.style.pointerEvents = 'none';
    pane.appendChild(this.image);
    map.on('zoomend viewreset resize', this.place, this);
    this.place();
    return this;
  }

  override onRemove(map: L.Map): this {
    map.off('zoomend viewreset resize', this.place, this);
    this.image.remove();
    return this;
  }

  setOpacity(opacity: number) {
    this.image.style.opacity = String(opacity);
  }

  setCorners(corners: ImageCorners) {
    this.corners = corners;
    this.place();
  }

  /** Image pixel (u, v) -> layer point P0 + u (P1 - P0) / width + v (P2 - P0) / height. */
  private place() {
    const map = this._map;
    if (!map) return;
    const p0 = map.latLngToLayerPoint(this.corners.topLeft);
    const p1 = map.latLngToLayerPoint(this.corners.topRight);
    const p2 = map.latLngToLayerPoint(this.corners.bottomLeft);
    const { width, height } = this.size;
    const matrix = [(p1.x - p0.x) / width, (p1.y - p0.y) / width, (p2.x - p0.x) / height, (p2.y - p0.y) / height, p0.x, p0.y];
    this.image.style.transform = `matrix(${matrix.join(',')})`;
  }
}
