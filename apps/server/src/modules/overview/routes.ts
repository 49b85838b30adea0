// GET /overview: the operations overview on the home page (decision 021).
import { caseloadOf } from '../../lib/caseload';
import { caseloadKey } from '../../lib/caseload-audience';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { overviewResponse, type Overview } from '@prison/shared';
import { ShortLivedCache } from '../../lib/short-lived-cache';
import { readOverview } from './overview-service';

const overviewRoutes: FastifyPluginAsyncZod = async (app) => {
  // Nothing is kept: requests that arrive while the counts are being taken share that one statement (at most one
  // statement's duration older than the request), so 50 screens refreshing at once cost one query, not 50.
  const inFlight = new ShortLivedCache<Overview>(0);
  const keepNothing = { keep: () => false };

  app.get(
    '/overview',
    {
      config: { access: 'records.read' },
      schema: {
        tags: ['overview'],
        summary:
          'The roll per block and for the prison (capacity, assigned, tracked, online, offline, in violation, in zone, ' +
          'untracked), open alerts by level and offline trackers, counted in one statement',
        response: { 200: overviewResponse },
      },
    },
    // One read in flight per caseload (decision 051): accounts of one set of blocks share it.
    async (request) => {
      const caseload = caseloadOf(request);
      return inFlight.get(`overview:${caseloadKey(caseload)}`, () => readOverview(app.db, caseload), keepNothing);
    },
  );
};

export default overviewRoutes;
