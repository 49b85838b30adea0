// GET /settings: what the web app needs from the server's configuration (map tiles, start point, offline threshold).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { API_PREFIX, clientSettings } from '@prison/shared';
import { LOCAL_TILES_PATH } from '../tiles/routes';
import type { MapTiles } from '../../lib/map-tiles-setting';

/** The tile URL template the browser loads: another server's, ours for a local file, none when off. */
function browserTileUrl(tiles: MapTiles): string | null {
  if (tiles.kind === 'off') return null;
  return tiles.kind === 'url' ? tiles.template : `${API_PREFIX}${LOCAL_TILES_PATH}`;
}

/** Settings the web app needs from the server's configuration (map tiles and start point). */
const settingsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/settings', { config: { access: 'records.read' }, schema: { tags: ['settings'], response: { 200: clientSettings } } }, async () => ({
    mapTileUrl: browserTileUrl(app.config.MAP_TILES),
    mapCenter: { lat: app.config.MAP_CENTER_LAT, lng: app.config.MAP_CENTER_LNG },
    mapZoom: 13,
    deviceOfflineSeconds: app.config.DEVICE_OFFLINE_SECONDS,
    deviceSecretRequired: app.config.DEVICE_SECRET_REQUIRED,
  }));
};

export default settingsRoutes;
