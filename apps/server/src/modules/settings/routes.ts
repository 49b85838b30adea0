import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { clientSettings } from '@prison/shared';

/** Settings the web app needs from the server's configuration (map tiles and start point). */
const settingsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/settings', { config: { access: 'records.read' }, schema: { tags: ['settings'], response: { 200: clientSettings } } }, async () => ({
    mapTileUrl: app.config.MAP_TILE_URL,
    mapCenter: { lat: app.config.MAP_CENTER_LAT, lng: app.config.MAP_CENTER_LNG },
    mapZoom: 13,
    deviceOfflineSeconds: app.config.DEVICE_OFFLINE_SECONDS,
    deviceSecretRequired: app.config.DEVICE_SECRET_REQUIRED,
  }));
};

export default settingsRoutes;
