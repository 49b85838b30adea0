// Tiles of the local file MAP_TILES names (decision 065), behind a session: GET /tiles/{z}/{x}/{y}.
// Always declared (so the route enumerating tests see it); without a tile file it answers 404. A file that cannot be
// opened stops the start, naming it.
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { intText } from '@prison/shared';
import { notFound } from '../../lib/http-errors';
import { openTileFile } from './tile-file';

export const LOCAL_TILES_PATH = '/tiles/{z}/{x}/{y}';

const tileParams = z
  .object({ z: intText(0, 24), x: intText(0, 2 ** 24), y: intText(0, 2 ** 24) })
  .refine((tile) => tile.x < 2 ** tile.z && tile.y < 2 ** tile.z, { message: 'x and y must be below 2^z', path: ['x'] });

const tileRoutes: FastifyPluginAsyncZod = async (app) => {
  const setting = app.config.MAP_TILES;
  const file =
    setting.kind === 'file'
      ? await openTileFile(setting.path, setting.format).catch((error: Error) => {
          throw new Error(`MAP_TILES: cannot read ${setting.path}: ${error.message}`);
        })
      : null;
  if (file) app.addHook('onClose', () => file.close());

  app.get(
    '/tiles/:z/:x/:y',
    {
      config: { access: 'live.read' },
      // No response schema: the answer is the tile's bytes (or the error handler's 404).
      schema: { tags: ['settings'], summary: 'A background map tile from the local tile file (MAP_TILES)', params: tileParams },
    },
    async (request, reply) => {
      if (!file) throw notFound('No local tile file is configured (MAP_TILES)');
      const tile = await file.tile(request.params.z, request.params.x, request.params.y);
      if (!tile) throw notFound('No tile here');
      return reply.type(tile.contentType).header('cache-control', 'private, max-age=86400').send(tile.data);
    },
  );
};

export default tileRoutes;
