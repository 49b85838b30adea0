// /prisoners/:id/flags (decision 101): the risks and medical alerts an officer must see before acting on a prisoner;
// read by every role of his caseload, set and cleared by the staff who assess him.
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponse, intText, prisonerFlag, prisonerFlagClearInput, prisonerFlagInput, prisonerFlagList, prisonerFlagParams } from '@prison/shared';
import { auditActor } from '../../plugins/auth';
import { clearFlag, listFlags, setFlag } from './flag-service';

const idParams = z.object({ id: intText() });
const prisonerById = { record: 'prisoner', field: 'id', from: 'params', notFound: 'Prisoner {id} not found' } as const;

const prisonerFlagRoutes: FastifyPluginAsyncZod = async (app) => {
  // The badges are part of the prisoner as every list shows him.
  const changed = () => app.realtime.toBrowsers().emit('dataChanged', 'prisoners');

  app.get(
    '/prisoners/:id/flags',
    {
      config: { access: 'records.read', caseload: prisonerById },
      schema: {
        tags: ['prisoners'],
        summary: "A prisoner's flags (in force and past), with who set them, from and until, and who cleared them",
        params: idParams,
        response: { 200: prisonerFlagList, 400: errorResponse, 404: errorResponse },
      },
    },
    async (request) => ({ flags: await listFlags(app.db, request.params.id) }),
  );

  app.post(
    '/prisoners/:id/flags',
    {
      config: { access: 'flags.write', caseload: prisonerById },
      schema: {
        tags: ['prisoners'],
        summary: 'Flag a prisoner: self_harm, escape, violence or medical (a medical alert names the condition in its note), from now or starts_at, until ends_at',
        params: idParams,
        body: prisonerFlagInput,
        response: { 201: prisonerFlag, 400: errorResponse, 404: errorResponse, 409: errorResponse },
      },
    },
    async (request, reply) => {
      const flag = await setFlag(app.db, auditActor(request), request.params.id, request.body);
      changed();
      return reply.status(201).send(flag);
    },
  );

  app.post(
    '/prisoners/:id/flags/:flagId/clear',
    {
      config: { access: 'flags.write', caseload: prisonerById },
      schema: {
        tags: ['prisoners'],
        summary: 'Clear a flag that no longer applies, with the reason (kept in its history and the audit trail)',
        params: prisonerFlagParams,
        body: prisonerFlagClearInput,
        response: { 200: prisonerFlag, 400: errorResponse, 404: errorResponse, 409: errorResponse },
      },
    },
    async (request) => {
      const flag = await clearFlag(app.db, auditActor(request), request.params.id, request.params.flagId, request.body.reason);
      changed();
      return flag;
    },
  );
};

export default prisonerFlagRoutes;
