// /counts: roll counts (issue 24 item 2): start (a block, or the whole prison), read, submit the number counted, close
// a discrepancy with a note, the history and the last count per block; and the scheduled counts' job.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  countCloseInput,
  countList,
  countListQuery,
  countParams,
  countStartInput,
  countSubmitInput,
  errorResponse,
  latestCountList,
  countRecord,
} from '@prison/shared';
import { caseloadOf } from '../../lib/caseload';
import { auditActor } from '../../plugins/auth';
import { blockRoom, EVERY_BLOCK_ROOM } from '../../plugins/realtime';
import { closeCount, getCount, latestCounts, listCounts, startCount, submitCount } from './count-service';
import { CountScheduler } from './count-scheduler';

const countRoutes: FastifyPluginAsyncZod = async (app) => {
  app.cluster.changes.on('counts', () => app.realtime.toLocalBrowsers().emit('dataChanged', 'counts'));
  const changed = () => app.cluster.changes.publish('counts');
  const offlineMs = () => app.config.DEVICE_OFFLINE_SECONDS * 1000;

  const scheduler = new CountScheduler({
    db: app.db,
    times: app.config.COUNT_TIMES,
    timeZone: app.config.TZ,
    isLeader: () => app.cluster.isLeader(),
    remind: (due) => app.realtime.io.to([EVERY_BLOCK_ROOM, blockRoom(due.block)]).emit('countDue', due),
    raised: (events) => app.cluster.alerts.raised(events),
  });
  app.addHook('onReady', async () => scheduler.start());
  app.addHook('onClose', async () => scheduler.stop());

  app.post(
    '/counts',
    {
      config: { access: 'counts.work' },
      schema: {
        tags: ['counts'],
        summary:
          'Start a roll count of a block (block_id) or of the whole prison (scope: "prison"), one of the two (an empty ' +
          "body is 400): the expected number from the records and each prisoner's line from his tracker (in_block, " +
          'elsewhere, offline, untracked)',
        body: countStartInput,
        response: { 200: countRecord, 400: errorResponse, 403: errorResponse, 404: errorResponse },
      },
    },
    async (request) => {
      const count = await startCount(app.db, auditActor(request), request.body, caseloadOf(request), {
        offlineMs: offlineMs(),
      });
      await changed();
      return count;
    },
  );

  app.get(
    '/counts',
    {
      config: { access: 'records.read' },
      schema: {
        tags: ['counts'],
        summary: 'The history of roll counts, newest first (one block with block_id)',
        querystring: countListQuery,
        response: { 200: countList, 400: errorResponse },
      },
    },
    async (request) => ({ data: await listCounts(app.db, request.query.block_id, caseloadOf(request)) }),
  );

  app.get(
    '/counts/latest',
    {
      config: { access: 'records.read' },
      schema: {
        tags: ['counts'],
        summary: 'The last roll count of each block and its state (null: never counted)',
        response: { 200: latestCountList },
      },
    },
    async (request) => ({ data: await latestCounts(app.db, caseloadOf(request)) }),
  );

  app.get(
    '/counts/:id',
    {
      config: { access: 'records.read' },
      schema: {
        tags: ['counts'],
        summary: 'One roll count with its lines',
        params: countParams,
        response: { 200: countRecord, 400: errorResponse, 404: errorResponse },
      },
    },
    async (request) => getCount(app.db, request.params.id, caseloadOf(request)),
  );

  app.post(
    '/counts/:id/submit',
    {
      config: { access: 'counts.work' },
      schema: {
        tags: ['counts'],
        summary:
          'Enter the number counted: clear when it equals the expected number and every line is in_block, otherwise ' +
          'discrepancy with the prisoners to find (409 when already submitted)',
        params: countParams,
        body: countSubmitInput,
        response: { 200: countRecord, 400: errorResponse, 404: errorResponse, 409: errorResponse },
      },
    },
    async (request) => {
      const count = await submitCount(app.db, auditActor(request), request.params.id, request.body, caseloadOf(request));
      await changed();
      return count;
    },
  );

  app.post(
    '/counts/:id/close',
    {
      config: { access: 'counts.work' },
      schema: {
        tags: ['counts'],
        summary: 'Close a discrepancy with a note saying what was done (409 for a count that is not a discrepancy)',
        params: countParams,
        body: countCloseInput,
        response: { 200: countRecord, 400: errorResponse, 404: errorResponse, 409: errorResponse },
      },
    },
    async (request) => {
      const count = await closeCount(app.db, auditActor(request), request.params.id, request.body.note, caseloadOf(request));
      await changed();
      return count;
    },
  );
};

export default countRoutes;
