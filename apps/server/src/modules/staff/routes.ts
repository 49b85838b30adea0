// /staff/*: police officers and guards (docs/CLIENT-CONTRACT.md).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { preValidationHookHandler } from 'fastify';
import { z } from 'zod';
import {
  STAFF_ROLES,
  errorResponse,
  intText,
  messageResponse,
  staffInput,
  staffListQuery,
  staffListResponse,
  staffMember,
} from '@prison/shared';
import { auditActor } from '../../plugins/auth';
import {
  STAFF_DELETED_MESSAGE,
  createStaffMember,
  deleteStaffMember,
  getStaffMember,
  listStaffPage,
  restoreStaffMember,
  updateStaffMember,
} from './staff-service';

const idParams = z.object({ id: intText() });
const roleParams = z.object({
  role: z.enum(STAFF_ROLES, { message: `role must be one of ${STAFF_ROLES.join(', ')}` }),
});

// `?department=` with nothing after it is "no filter", not a bad department.
const blankQueryMeansAbsent: preValidationHookHandler = async (request) => {
  const query = request.query as Record<string, unknown>;
  for (const key of Object.keys(query)) if (query[key] === '') delete query[key];
};

const staffRoutes: FastifyPluginAsyncZod = async (app) => {
  const changed = () => app.realtime.toBrowsers().emit('dataChanged', 'staff');

  app.get(
    '/staff/getbyRole/:role',
    {
      preValidation: blankQueryMeansAbsent,
      config: { access: 'records.read' },
      schema: {
        tags: ['staff'],
        summary: 'One page of police officers or guards, newest first, with search (q) and filters',
        params: roleParams,
        querystring: staffListQuery,
        response: { 200: staffListResponse, 400: errorResponse },
      },
    },
    async (request) => listStaffPage(app.db, request.params.role, request.query),
  );

  app.get(
    '/staff/:id',
    {
      config: { access: 'records.read' },
      schema: {
        tags: ['staff'],
        summary: 'One staff member',
        params: idParams,
        response: { 200: staffMember, 400: errorResponse, 404: errorResponse },
      },
    },
    async (request) => getStaffMember(app.db, request.params.id),
  );

  app.post(
    '/staff/add',
    {
      config: { access: 'records.write' },
      schema: {
        tags: ['staff'],
        summary: 'Create a police officer or guard (409 when the badge number is in use)',
        body: staffInput,
        response: { 200: staffMember, 400: errorResponse, 409: errorResponse },
      },
    },
    async (request) => {
      const created = await createStaffMember(app.db, auditActor(request), request.body);
      changed();
      return created;
    },
  );

  app.put(
    '/staff/update/:id',
    {
      config: { access: 'records.write' },
      schema: {
        tags: ['staff'],
        summary: 'Replace a staff record with the full edited record',
        params: idParams,
        body: staffInput,
        response: { 200: staffMember, 400: errorResponse, 404: errorResponse, 409: errorResponse },
      },
    },
    async (request) => {
      const updated = await updateStaffMember(app.db, auditActor(request), request.params.id, request.body);
      changed();
      return updated;
    },
  );

  app.delete(
    '/staff/delete/:id',
    {
      config: { access: 'records.delete' },
      schema: {
        tags: ['staff'],
        summary:
          'Delete a staff member: one with history (escorts, a tracker with fixes) is retired instead, their escorts kept (decision 042); 409 while they escort a prisoner',
        params: idParams,
        response: { 200: messageResponse, 400: errorResponse, 404: errorResponse, 409: errorResponse },
      },
    },
    async (request) => {
      const { freedDevice } = await deleteStaffMember(app.db, auditActor(request), request.params.id);
      changed();
      if (freedDevice) {
        // The registry must stop filing the tracker's fixes under them; the write is committed, so only logged.
        await app.tracking
          .deviceChanged(freedDevice, { reassigned: true })
          .catch((error: unknown) => app.databaseHealth.failed(error, 'tracking device reload after a staff change'));
      }
      return { message: STAFF_DELETED_MESSAGE };
    },
  );

  app.post(
    '/staff/restore/:id',
    {
      config: { access: 'records.write' },
      schema: {
        tags: ['staff'],
        summary: 'Bring a retired staff member back into the lists (without their former tracker)',
        params: idParams,
        response: { 200: staffMember, 400: errorResponse, 404: errorResponse, 409: errorResponse },
      },
    },
    async (request) => {
      const restored = await restoreStaffMember(app.db, auditActor(request), request.params.id);
      changed();
      return restored;
    },
  );
};

export default staffRoutes;
