// /blocks: where each block is on the site: the list for the live map, and a block's area drawn there.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { blockArea, blockAreaInput, blockAreaList, blockAreaParams, errorResponse } from '@prison/shared';
import { caseloadOf } from '../../lib/caseload';
import { auditActor } from '../../plugins/auth';
import { listBlockAreas, setBlockArea } from './block-area-service';

const blockAreaRoutes: FastifyPluginAsyncZod = async (app) => {
  // Every process tells its own browsers, through the change feed (cluster mode too, with Redis down as well).
  app.cluster.changes.on('block-areas', () => app.realtime.toLocalBrowsers().emit('dataChanged', 'block-areas'));

  app.get(
    '/blocks/areas',
    {
      config: { access: 'live.read' },
      schema: {
        tags: ['blocks'],
        summary: "Every block's area on the site (a caseload: its blocks')",
        response: { 200: blockAreaList },
      },
    },
    async (request) => ({ data: await listBlockAreas(app.db, caseloadOf(request)) }),
  );

  app.put(
    '/blocks/:id/area',
    {
      config: { access: 'geofences.write' },
      schema: {
        tags: ['blocks'],
        summary: "Set a block's area: a polygon of { lat, lng } points whose edges do not cross (the block is its name)",
        params: blockAreaParams,
        body: blockAreaInput,
        response: { 200: blockArea, 400: errorResponse, 404: errorResponse },
      },
    },
    async (request) => {
      const area = await setBlockArea(app.db, auditActor(request), request.params.id, request.body, caseloadOf(request));
      await app.cluster.changes.publish('block-areas');
      return area;
    },
  );
};

export default blockAreaRoutes;
