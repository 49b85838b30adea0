// Duress in one tap (decision 100): "Need assistance" from any staff screen raises a Critical naming the officer and
// where he is, the account's own open alarm for its screen, and its stand-down with a note.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { alertRecord, currentDuress, duressStandDownRequest, errorResponse } from '@prison/shared';
import { tooManyRequests } from '../../lib/http-errors';
import { PerKeyQuota } from '../../lib/per-key-quota';
import { auditActor, requireAdmin } from '../../plugins/auth';
import { alertAudiences } from '../alerts/alert-records';
import { showAlertEvent } from '../alerts/alert-store';
import { findOpenDuress, raiseDuress, standDownDuress } from '../alerts/staff-alarms';
import { draftDuress } from './duress-service';

/**
 * New alarms per account per hour. A press while one is open repeats it and is never refused, and each new one needs
 * the last stood down with a note first, so only a misuse reaches this.
 */
export const DURESS_NEW_PER_HOUR = 10;

const duressRoutes: FastifyPluginAsyncZod = async (app) => {
  const quota = new PerKeyQuota(DURESS_NEW_PER_HOUR, 3_600_000);

  app.post(
    '/duress',
    {
      config: { access: 'duress.raise' },
      schema: {
        tags: ['staff safety'],
        summary:
          'Need assistance: raises a Critical "Officer NAME needs assistance at PLACE" (PLACE: the block area or geofence of ' +
          'the linked staff record\'s tracker\'s fresh fix, else "location not known") with the nearest staff (201). While ' +
          'the account\'s alarm is open a press repeats it (200); never refused then',
        response: { 200: alertRecord, 201: alertRecord, 429: errorResponse },
      },
    },
    async (request, reply) => {
      const admin = requireAdmin(request);
      const draft = await draftDuress(app.db, app.tracking.registry, admin.id, new Date(), app.config.DEVICE_OFFLINE_SECONDS);
      const raised = await raiseDuress(app.db, draft, auditActor(request), () => {
        const key = String(admin.id);
        if (quota.take(key)) return;
        reply.header('retry-after', quota.secondsUntilReset(key));
        throw tooManyRequests(`Too many duress alarms from this account: at most ${DURESS_NEW_PER_HOUR} an hour`);
      });
      if (!raised.created) {
        await app.cluster.alerts.changed();
        return reply.status(200).send(raised.record);
      }
      await app.cluster.alerts.raised([showAlertEvent(raised.alert, { prisonerName: null, cellId: null, block: null })]);
      return reply.status(201).send(raised.record);
    },
  );

  app.get(
    '/duress/current',
    {
      config: { access: 'duress.raise' },
      schema: {
        tags: ['staff safety'],
        summary: "The account's own open duress alarm, with who is responding, or null",
        response: { 200: currentDuress },
      },
    },
    async (request) => ({ data: await findOpenDuress(app.db, requireAdmin(request).id) }),
  );

  app.post(
    '/duress/stand-down',
    {
      config: { access: 'duress.raise' },
      schema: {
        tags: ['staff safety'],
        summary:
          'The account stands its own open duress alarm down with a note in words: resolved at once (404 when none is ' +
          'open). A supervisor closes anyone\'s through the alert workflow',
        body: duressStandDownRequest,
        response: { 200: alertRecord, 400: errorResponse, 404: errorResponse },
      },
    },
    async (request) => {
      const record = await standDownDuress(app.db, requireAdmin(request).id, request.body.note, auditActor(request));
      await app.cluster.alerts.changed({ status: 'Resolved', groups: await alertAudiences(app.db, [record.id]) });
      return record;
    },
  );
};

export default duressRoutes;
