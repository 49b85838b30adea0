// GET /overview: the operations overview on the home page (issue 11, decision 021).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { overviewResponse } from '@prison/shared';
import { readOverview } from './overview-service';

const overviewRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/overview',
    {
      schema: {
        tags: ['overview'],
        summary:
          'The roll per block and for the prison (capacity, assigned, tracked, online, offline, in violation, ' +
          'untracked), open alerts by level and offline trackers, counted in one statement',
        response: { 200: overviewResponse },
      },
    },
    async () => readOverview(app.db),
  );
};

export default overviewRoutes;
