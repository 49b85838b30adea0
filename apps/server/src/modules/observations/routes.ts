// Observation checks (decision 063): a prisoner's level, checks and corrections (never edited or
// deleted: there are no such routes), the constant watch's handover, a block's due list, the chain's verification.
// This plugin also runs the overdue watcher.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  errorResponse,
  intText,
  observationCheckInput,
  observationCheckResponse,
  observationDueQuery,
  observationDueResponse,
  observationHandoverInput,
  observationHistoryQuery,
  observationHistoryResponse,
  observationLevelInput,
  observationVerifyResponse,
  observationWriteResponse,
  type ObservationStatus,
} from '@prison/shared';
import { caseloadOf } from '../../lib/caseload';
import { notFound } from '../../lib/http-errors';
import { auditActor } from '../../plugins/auth';
import { verifyChain } from './observation-chain';
import { intervalsFrom } from './observation-schedule';
import { handOver, listChecks, recordCheck, setObservationLevel, type ObservationOptions } from './observation-service';
import { listDue, readObservation } from './observation-status';
import { createOverdueWatcher } from './overdue-watcher';

const idParams = z.object({ id: intText() });
const PRISONER_NOT_FOUND = 'Prisoner {id} not found';

const observationRoutes: FastifyPluginAsyncZod = async (app) => {
  const intervals = intervalsFrom(app.config);
  const options = (): ObservationOptions => ({ intervals, offlineSeconds: app.config.DEVICE_OFFLINE_SECONDS });
  const watcher = createOverdueWatcher(app, intervals);
  app.addHook('onReady', async () => watcher.start());
  app.addHook('onClose', async () => watcher.stop());

  /** Open due screens refetch; ended alerts leave the lists and the Critical bar. */
  const changed = async (alertsEnded: number) => {
    app.realtime.toBrowsers().emit('dataChanged', 'observations');
    if (alertsEnded > 0) await app.cluster.alerts.changed();
  };
  const statusOf = async (prisonerId: number): Promise<ObservationStatus> => {
    const status = await readObservation(app.db, prisonerId, intervals);
    if (!status) throw notFound(`Prisoner ${prisonerId} not found`);
    return status;
  };

  app.get(
    '/observations/due',
    {
      config: { access: 'records.read' },
      schema: {
        tags: ['observations'],
        summary:
          "Every prisoner in custody in the block (block_id: the block's name) with level, last_check_at, due_at (always set: " +
          'one never checked is put on the schedule, due within his first interval) and overdue; overdue first, then by due_at',
        querystring: observationDueQuery,
        response: { 200: observationDueResponse, 400: errorResponse },
      },
    },
    async (request) => {
      const now = new Date();
      const data = await listDue(app.db, request.query.block_id, caseloadOf(request), intervals, now);
      return { block: request.query.block_id, now: now.toISOString(), data };
    },
  );

  app.post(
    '/observations',
    {
      config: { access: 'observations.record', caseload: { record: 'prisoner', field: 'prisoner_id', from: 'body', status: 400, notFound: 'prisoner_id: prisoner {id} does not exist' } },
      schema: {
        tags: ['observations'],
        summary:
          'Record an observation check: what the officer saw (observed, at least 3 words), or on standard observation a ' +
          'one-tap entry (quick: seen_well, asleep_breathing, or not_in_cell with where). Whether it was made within 10 m of the ' +
          "prisoner is judged from the officer's tracker; the next check is due at a random moment in the last third of " +
          'the interval. corrects_id: a correction of an earlier check, which stays as it was',
        body: observationCheckInput,
        response: { 201: observationCheckResponse, 400: errorResponse },
      },
    },
    async (request, reply) => {
      const { check, alertsEnded } = await recordCheck(app.db, auditActor(request), request.body, options());
      await changed(alertsEnded);
      const observation = await statusOf(check.prisoner_id);
      return reply.status(201).send({ message: check.corrects_id === null ? 'Check recorded.' : 'Correction recorded.', check, observation });
    },
  );

  app.get(
    '/observations/verify',
    {
      config: { access: 'audit.read' },
      schema: {
        tags: ['observations'],
        summary: 'Recompute the chain of every check: ok, or the first check changed or removed after it was recorded',
        response: { 200: observationVerifyResponse },
      },
    },
    async () => verifyChain(app.db),
  );

  app.put(
    '/prisoners/:id/observation',
    {
      config: { access: 'observations.level', caseload: { record: 'prisoner', field: 'id', from: 'params', notFound: PRISONER_NOT_FOUND } },
      schema: {
        tags: ['observations'],
        summary: "Set a prisoner's observation level (standard, enhanced, high, constant), optionally his own interval_minutes, with a reason",
        params: idParams,
        body: observationLevelInput,
        response: { 200: observationWriteResponse, 400: errorResponse, 404: errorResponse, 409: errorResponse },
      },
    },
    async (request) => {
      const { alertsEnded } = await setObservationLevel(app.db, auditActor(request), request.params.id, request.body, options());
      await changed(alertsEnded);
      return { message: 'Observation level set.', observation: await statusOf(request.params.id) };
    },
  );

  app.get(
    '/prisoners/:id/observation',
    {
      config: { access: 'records.read', caseload: { record: 'prisoner', field: 'id', from: 'params', notFound: PRISONER_NOT_FOUND } },
      schema: {
        tags: ['observations'],
        summary: "A prisoner's observation and his checks, newest first",
        params: idParams,
        querystring: observationHistoryQuery,
        response: { 200: observationHistoryResponse, 400: errorResponse, 404: errorResponse },
      },
    },
    async (request) => ({
      observation: await statusOf(request.params.id),
      checks: await listChecks(app.db, request.params.id, request.query.limit),
    }),
  );

  app.post(
    '/prisoners/:id/observation/handover',
    {
      config: { access: 'observations.record', caseload: { record: 'prisoner', field: 'id', from: 'params', notFound: PRISONER_NOT_FOUND } },
      schema: {
        tags: ['observations'],
        summary: 'Constant observation: the named officer now watching the prisoner (one at a time); the handover is recorded',
        params: idParams,
        body: observationHandoverInput,
        response: { 200: observationWriteResponse, 400: errorResponse, 404: errorResponse, 409: errorResponse },
      },
    },
    async (request) => {
      await handOver(app.db, auditActor(request), request.params.id, request.body.staff_id);
      await changed(0);
      return { message: 'Handover recorded.', observation: await statusOf(request.params.id) };
    },
  );
};

export default observationRoutes;
