// /counts: roll counts (decisions 062, 098): start (a block, or the whole prison), read, submit who was seen (or a typed
// number) and recount, close a discrepancy by accounting for each prisoner not seen, the history and the last count per
// block; and the scheduled counts' job.
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
          'Submit the count: the prisoners seen ({ seen: [prisoner_id] }) or the number counted ({ counted }). Clear ' +
          'when everyone expected is seen (or the number equals the roll), whatever the trackers say: prisoners seen ' +
          'whose tracker is elsewhere come back as tracker_mismatches and raise one Informational device check per ' +
          'tracker. Otherwise discrepancy, to_find naming the prisoners not seen. A discrepancy is recounted by ' +
          'submitting again (the last submit decides, each is kept); a clear or closed count is 409',
        params: countParams,
        body: countSubmitInput,
        response: { 200: countRecord, 400: errorResponse, 404: errorResponse, 409: errorResponse },
      },
    },
    async (request) => {
      const submitted = await submitCount(app.db, auditActor(request), request.params.id, request.body, caseloadOf(request));
      if (submitted.raised.length > 0) await app.cluster.alerts.raised(submitted.raised);
      await changed();
      return submitted.count;
    },
  );

  app.post(
    '/counts/:id/close',
    {
      config: { access: 'counts.work' },
      schema: {
        tags: ['counts'],
        summary:
          'End a discrepancy by accounting for each prisoner not seen ({ accounts: [{ prisoner_id, reason, note }] }, ' +
          'reason healthcare, court, visits, segregation, escorted_out or other with a note), with an optional note. ' +
          'A note alone, a prisoner left out or a typed count (nobody named: recount cell by cell) is 409; a count that ' +
          'is not a discrepancy is 409',
        params: countParams,
        body: countCloseInput,
        response: { 200: countRecord, 400: errorResponse, 404: errorResponse, 409: errorResponse },
      },
    },
    async (request) => {
      const count = await closeCount(app.db, auditActor(request), request.params.id, request.body, caseloadOf(request));
      await changed();
      return count;
    },
  );
};

export default countRoutes;
