// /keep-apart: keep-apart pairs (non-associations): create, list (all or one prisoner's), end.
import { caseloadOf } from '../../lib/caseload';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  cellRuleConflict,
  errorResponse,
  intText,
  keepApartEndInput,
  keepApartInput,
  keepApartListResponse,
  keepApartQuery,
  keepApartWriteResponse,
  pendingChange,
} from '@prison/shared';
import { auditActor } from '../../plugins/auth';
import { createPair, listPairs, requestEndPair } from './keep-apart-service';

const idParams = z.object({ id: intText() });

const keepApartRoutes: FastifyPluginAsyncZod = async (app) => {
  /** Open screens refetch, and the live monitor re-reads the active pairs. */
  const changed = async (moved = false) => {
    app.realtime.toBrowsers().emit('dataChanged', 'keep-apart');
    if (moved) {
      // The move made with the pair: as a move of /cell_controls/assign tells the screens and the geofences.
      for (const topic of ['cells', 'prisoners']) app.realtime.toBrowsers().emit('dataChanged', topic);
      void app.tracking.wearersChanged();
    }
    // Committed already: a failed reload is logged, not answered as a failure of the write.
    await app.reloadKeepApart().catch((error: unknown) => app.log.error({ err: error }, 'keep-apart pairs not reloaded'));
  };

  app.get(
    '/keep-apart',
    {
      config: { access: 'records.read' },
      schema: {
        tags: ['keep-apart'],
        summary: 'Keep-apart pairs: all, or those of one prisoner (prisoner_id); active=true leaves out ended pairs',
        querystring: keepApartQuery,
        response: { 200: keepApartListResponse, 400: errorResponse },
      },
    },
    async (request) => ({ data: await listPairs(app.db, request.query, caseloadOf(request)) }),
  );

  app.post(
    '/keep-apart',
    {
      // Both prisoners in the caseload (decision 051): one outside answers as one that does not exist, so the pair
      // cannot be used to probe another block; a pair across blocks is made by an account of both.
      config: {
        access: 'keepapart.create',
        // The move offered with the pair is a cell move (decision 102): who may move, into a cell of the caseload.
        bodyFieldAccess: { move_cell_id: 'records.write' },
        caseload: [
          { record: 'prisoner', field: 'prisoner_a', from: 'body', status: 400, notFound: 'prisoner_a: prisoner {id} does not exist' },
          { record: 'prisoner', field: 'prisoner_b', from: 'body', status: 400, notFound: 'prisoner_b: prisoner {id} does not exist' },
          { record: 'cell', field: 'move_cell_id', from: 'body', status: 400, notFound: 'move_cell_id: cell {id} does not exist' },
        ],
      },
      schema: {
        tags: ['keep-apart'],
        summary:
          'Keep two prisoners apart: never one cell, nor one block when scope is block; their trackers meeting raise a ' +
          'Warning (409 when the pair is already active). Two prisoners who share what the scope forbids answer 409 ' +
          'naming it, unless one of them moves in the same request (move_prisoner_id, move_cell_id: a cell move under ' +
          'every cell rule, audited; one that lifts an alarm answers 409: it waits for a second person, ask it first)',
        body: keepApartInput,
        response: { 200: keepApartWriteResponse, 400: errorResponse, 409: cellRuleConflict },
      },
    },
    async (request) => {
      const pair = await createPair(app.db, auditActor(request), request.body);
      await changed(request.body.move_cell_id !== undefined);
      return { message: 'Keep-apart pair created.', pair };
    },
  );

  app.post(
    '/keep-apart/:id/end',
    {
      config: { access: 'keepapart.end' },
      schema: {
        tags: ['keep-apart'],
        summary:
          'Ask to end a keep-apart pair, with the reason: 202, the pair stays active until another administrator ' +
          'approves (409 when it has already ended or an end is already pending)',
        params: idParams,
        body: keepApartEndInput,
        response: {
          202: keepApartWriteResponse.extend({ pending: pendingChange }),
          400: errorResponse,
          404: errorResponse,
          409: errorResponse,
        },
      },
    },
    async (request, reply) => {
      const { pair, pending } = await requestEndPair(app.db, auditActor(request), request.params.id, request.body.reason);
      app.realtime.toBrowsers().emit('dataChanged', 'pending-changes');
      return reply.code(202).send({ message: "Ending the pair waits for another administrator's approval.", pair, pending });
    },
  );
};

export default keepApartRoutes;
