// /prisoner/*: the records of docs/CLIENT-CONTRACT.md, with search, filters and pagination on the server.
import { caseloadOf } from '../../lib/caseload';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { preValidationHookHandler } from 'fastify';
import { z } from 'zod';
import {
  cellRuleConflict,
  errorResponse,
  intText,
  messageResponse,
  pendingChange,
  prisoner,
  prisonerCreateInput,
  prisonerEnvelope,
  prisonerHoldings,
  prisonerInput,
  prisonerListQuery,
  prisonerListResponse,
} from '@prison/shared';
import { sendJsonText } from '../../lib/json-text-reply';
import { auditActor } from '../../plugins/auth';
import {
  PRISONER_DELETED_MESSAGE,
  archivePrisoner,
  createPrisoner,
  getPrisoner,
  listPrisonerPageJson,
  prisonerHoldings as readPrisonerHoldings,
  restorePrisoner,
  updatePrisoner,
} from './prisoner-service';

const idParams = z.object({ id: intText() });

// Forms send "" for a field left empty; for dates, lists and the cell that means "none", exactly like null
// (and for a required field, "is required").
const EMPTY_MEANS_NULL = ['date_of_birth', 'gender', 'national_id', 'entry_date', 'release_date', 'status', 'cell_id', 'override_reason'];
const emptyStringsToNull: preValidationHookHandler = async (request) => {
  const body = request.body as Record<string, unknown> | null;
  if (!body || typeof body !== 'object') return;
  // A prison number left empty: the server assigns one (create) or keeps his (update).
  if (typeof body.prison_number === 'string' && body.prison_number.trim() === '') delete body.prison_number;
  for (const key of EMPTY_MEANS_NULL) if (typeof body[key] === 'string' && body[key].trim() === '') body[key] = null;
};

// `?status=` with nothing after it is "no filter", not a bad status.
const blankQueryMeansAbsent: preValidationHookHandler = async (request) => {
  const query = request.query as Record<string, unknown>;
  for (const key of Object.keys(query)) if (query[key] === '') delete query[key];
};

/** The prisoner these routes name must be in the account's caseload: else the same 404 as an unknown id (decision 051). */
const prisonerById = { record: 'prisoner', field: 'id', from: 'params', notFound: 'Prisoner {id} not found' } as const;

const prisonersRoutes: FastifyPluginAsyncZod = async (app) => {
  const changed = () => {
    // A prisoner write can change a cell's occupancy too.
    app.realtime.toBrowsers().emit('dataChanged', 'prisoners');
    app.realtime.toBrowsers().emit('dataChanged', 'cells');
  };

  // The live map and alert messages show the wearer's name from the tracking registry: reload the device at once
  // rather than at the next periodic refresh. The write is committed, so a failed reload is logged, not reported.
  const trackedDeviceChanged = async (deviceId: string | null | undefined, options: { reassigned?: boolean } = {}) => {
    if (!deviceId) return;
    try {
      await app.tracking.deviceChanged(deviceId, options);
    } catch (error) {
      app.databaseHealth.failed(error, 'tracking device reload after a prisoner change');
    }
  };

  app.get(
    '/prisoner/all',
    {
      preValidation: blankQueryMeansAbsent,
      config: { access: 'records.read' },
      schema: {
        tags: ['prisoners'],
        summary: 'One page of prisoners, newest first, with search (q) and filters; totals count every match',
        querystring: prisonerListQuery,
        response: { 200: prisonerListResponse, 400: errorResponse },
      },
    },
    async (request, reply) => sendJsonText(reply, await listPrisonerPageJson(app.db, request.query, caseloadOf(request))),
  );

  app.get(
    '/prisoner/prisonerid/:id',
    {
      config: { access: 'records.read', caseload: prisonerById },
      schema: {
        tags: ['prisoners'],
        summary: 'One prisoner with its cell block and tracking device',
        params: idParams,
        response: { 200: prisonerEnvelope, 400: errorResponse, 404: errorResponse },
      },
    },
    async (request) => ({ data: await getPrisoner(app.db, request.params.id) }),
  );

  app.post(
    '/prisoner/add',
    {
      preValidation: emptyStringsToNull,
      config: { access: 'records.write', bodyFieldAccess: { override_reason: 'cells.override' } },
      schema: {
        tags: ['prisoners'],
        summary:
          'Create a prisoner: first_name, last_name, date_of_birth (in the past) and status are required; prison_number is given or assigned (A0001...; 409 when another prisoner has it); a cell, when given, must exist and have room and pass the cell rules (409 { message, rule }; override_reason overrides any rule but capacity)',
        body: prisonerCreateInput,
        response: { 200: prisoner, 400: errorResponse, 409: cellRuleConflict },
      },
    },
    async (request) => {
      const created = await createPrisoner(app.db, auditActor(request), request.body);
      changed();
      return created;
    },
  );

  app.put(
    '/prisoner/update/:id',
    {
      preValidation: emptyStringsToNull,
      config: { access: 'records.write', bodyFieldAccess: { override_reason: 'cells.override' }, caseload: prisonerById },
      schema: {
        tags: ['prisoners'],
        summary:
          'Update a prisoner: the full field set or any single field; null or "" clears an optional field, a required one cannot be cleared. ' +
          'A cell change that takes him out of a Critical or Warning zone, or made while he has an open violation, needs a reason ' +
          'and answers 202: the prisoner unchanged, with the update pending approval',
        params: idParams,
        body: prisonerInput,
        response: {
          200: prisoner,
          202: prisoner.extend({ pending: pendingChange }),
          400: errorResponse,
          404: errorResponse,
          409: cellRuleConflict,
        },
      },
    },
    async (request, reply) => {
      const { prisoner: updated, pending } = await updatePrisoner(app.db, auditActor(request), request.params.id, request.body);
      if (pending) {
        app.realtime.toBrowsers().emit('dataChanged', 'pending-changes');
        return reply.code(202).send({ ...updated, pending });
      }
      changed();
      await trackedDeviceChanged(updated.tracking_device_id);
      return updated;
    },
  );

  app.get(
    '/prisoner/holdings/:id',
    {
      config: { access: 'records.read', caseload: prisonerById },
      schema: {
        tags: ['prisoners'],
        summary: 'What a prisoner still has (status, tracker, open alerts, keep-apart pairs, active escorts): the Delete confirmation names it',
        params: idParams,
        response: { 200: prisonerHoldings, 400: errorResponse, 404: errorResponse },
      },
    },
    async (request) => readPrisonerHoldings(app.db, request.params.id),
  );

  app.delete(
    '/prisoner/delete/:id',
    {
      config: { access: 'records.delete', caseload: prisonerById },
      schema: {
        tags: ['prisoners'],
        summary:
          'Delete a prisoner from the lists: the record is archived with its track, pairs, alerts and audit (decision 042); his tracker is unassigned, his escorts end; restorable. ' +
          'Only a Released or Transferred prisoner, or one never placed in a cell: one On Trial or Incarcerated in a cell answers 409 (release or transfer him first)',
        params: idParams,
        response: { 200: messageResponse, 400: errorResponse, 404: errorResponse, 409: errorResponse },
      },
    },
    async (request) => {
      const { wore, escortsEnded } = await archivePrisoner(app.db, auditActor(request), request.params.id);
      changed();
      // Unassigned: the engine forgets his geofence states, like any device given to another wearer (nobody).
      await trackedDeviceChanged(wore, { reassigned: true });
      await app.reloadKeepApart().catch((error: unknown) => app.log.error({ err: error }, 'keep-apart pairs not reloaded'));
      if (escortsEnded > 0) {
        app.realtime.toBrowsers().emit('dataChanged', 'escorts');
        await app.reloadEscorts().catch((error: unknown) => app.log.error({ err: error }, 'escorts not reloaded'));
      }
      return { message: PRISONER_DELETED_MESSAGE };
    },
  );

  app.post(
    '/prisoner/restore/:id',
    {
      config: { access: 'records.write', caseload: prisonerById },
      schema: {
        tags: ['prisoners'],
        summary:
          'Restore an archived prisoner to the lists as he was (in custody, his cell is checked by the cell rules: 409 naming the rule and the way out); his tracker is not given back',
        params: idParams,
        response: { 200: prisoner, 400: errorResponse, 404: errorResponse, 409: cellRuleConflict },
      },
    },
    async (request) => {
      const restored = await restorePrisoner(app.db, auditActor(request), request.params.id);
      changed();
      await app.reloadKeepApart().catch((error: unknown) => app.log.error({ err: error }, 'keep-apart pairs not reloaded'));
      return restored;
    },
  );
};

export default prisonersRoutes;
