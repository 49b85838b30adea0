// Web Mercator (Leaflet's default CRS, EPSG:3857) from degrees to world pixels, spelled out: the live map projects
// every fix of every marker (200,000 a second at 50,000 markers moving), and Leaflet's map.project builds a LatLng
// and a Point for each. No Leaflet here, so it is tested in Node against the map tiles' own formula.
/** Leaflet's SphericalMercator.MAX_LATITUDE: the poles are cut where the map is square. */
const MAX_LATITUDE = 85.0511287798;
const RADIANS = Math.PI / 180;

/** World pixels across the world at `zoom` (256 at zoom 0, as L.CRS.EPSG3857.scale). */
export function worldSize(zoom: number): number {
  return 256 * Math.pow(2, zoom);
}

/** A longitude's world pixel x, the world being `size` pixels across (worldSize). */
export function mercatorX(longitude: number, size: number): number {
  return size * (longitude / 360 + 0.5);
}

/** A latitude's world pixel y (north up), the world being `size` pixels across (worldSize). */
export function mercatorY(latitude: number, size: number): number {
  const sin = Math.sin(Math.max(-MAX_LATITUDE, Math.min(MAX_LATITUDE, latitude)) * RADIANS);
  return size * (0.5 - Math.log((1 + sin) / (1 - sin)) / (4 * Math.PI));
}
