// Tracking devices: list, register (the secret is answered once), assign or unassign, rotate the secret, require it
// (decision 038), remove.
import { caseloadOf } from '../../lib/caseload';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { device, deviceAssignInput, deviceCreated, deviceInput, deviceList, deviceSecretRequiredInput, errorResponse, idText, messageResponse } from '@prison/shared';
import { auditActor } from '../../plugins/auth';
import { assignDevice, getDevice, listDevices, registerDevice, removeDevice, rotateDeviceSecret, setSecretRequired, wearerOf } from './device-service';

const idParams = z.object({ id: idText(100).min(1, 'id is required') });

/** A tracker worn by a prisoner outside the account's caseload answers as an unknown one (decision 051). */
const deviceById = { record: 'device', field: 'id', from: 'params', notFound: 'Device {id} not found' } as const;
/** The prisoner a tracker is given to: one outside the caseload is as unknown (assignInTx's own answer). */
const wearerInBody = { record: 'prisoner', field: 'prisoner_id', from: 'body', notFound: 'prisoner_id: prisoner {id} not found' } as const;

const devicesRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/devices',
    { config: { access: 'records.read' }, schema: { tags: ['devices'], summary: 'Every tracking device with its prisoner, last position, battery and online state', response: { 200: deviceList } } },
    async (request) => ({ data: await listDevices(app.db, caseloadOf(request)) }),
  );

  app.get(
    '/devices/:id',
    { config: { access: 'records.read', caseload: deviceById }, schema: { tags: ['devices'], summary: 'One tracking device', params: idParams, response: { 200: device, 404: errorResponse } } },
    async (request) => getDevice(app.db, request.params.id),
  );

  app.post(
    '/devices',
    {
      config: { access: 'devices.write', caseload: wearerInBody },
      schema: {
        tags: ['devices'],
        summary: 'Register a device; the answer holds its secret, shown this once (only a hash is stored)',
        body: deviceInput,
        response: { 201: deviceCreated, 400: errorResponse, 404: errorResponse, 409: errorResponse },
      },
    },
    async (request, reply) => {
      const displaced: string[] = [];
      const created = await registerDevice(app.db, auditActor(request), request.body, displaced);
      await app.tracking.deviceChanged(created.id, { reassigned: true });
      // The prisoner's previous device is free now: its next fixes belong to nobody.
      for (const id of displaced) await app.tracking.deviceChanged(id, { reassigned: true });
      return reply.status(201).send(created);
    },
  );

  app.put(
    '/devices/:id/assign',
    {
      config: { access: 'devices.write', caseload: [deviceById, wearerInBody] },
      schema: {
        tags: ['devices'],
        summary: 'Assign the device to a prisoner (prisoner_id) or a staff member (staff_id), never both, moving it from anyone else; neither unassigns it',
        params: idParams,
        body: deviceAssignInput,
        response: { 200: device, 400: errorResponse, 404: errorResponse },
      },
    },
    async (request) => {
      const displaced: string[] = [];
      const updated = await assignDevice(app.db, auditActor(request), request.params.id, wearerOf(request.body), displaced);
      await app.tracking.deviceChanged(updated.id, { reassigned: true });
      for (const id of displaced) await app.tracking.deviceChanged(id, { reassigned: true });
      return updated;
    },
  );

  app.post(
    '/devices/:id/rotate-secret',
    {
      config: { access: 'devices.write', caseload: deviceById },
      schema: {
        tags: ['devices'],
        summary: 'Issue a new secret (shown this once); the old one stops working at once',
        params: idParams,
        response: { 200: deviceCreated, 404: errorResponse },
      },
    },
    async (request) => {
      const rotated = await rotateDeviceSecret(app.db, auditActor(request), request.params.id);
      await app.tracking.deviceChanged(rotated.id);
      return rotated;
    },
  );

  app.put(
    '/devices/:id/secret-required',
    {
      config: { access: 'devices.write', caseload: deviceById },
      schema: {
        tags: ['devices'],
        summary: 'Whether the device must send its secret even while DEVICE_SECRET_REQUIRED is off (on by default: then every device must)',
        params: idParams,
        body: deviceSecretRequiredInput,
        response: { 200: device, 400: errorResponse, 404: errorResponse },
      },
    },
    async (request) => {
      const updated = await setSecretRequired(app.db, auditActor(request), request.params.id, request.body.secret_required);
      await app.tracking.deviceChanged(updated.id);
      return updated;
    },
  );

  app.delete(
    '/devices/:id',
    {
      config: { access: 'devices.write', caseload: deviceById },
      schema: {
        tags: ['devices'],
        summary: 'Remove a device; its fixes stay in the location history',
        params: idParams,
        response: { 200: messageResponse, 404: errorResponse },
      },
    },
    async (request) => {
      await removeDevice(app.db, auditActor(request), request.params.id);
      await app.tracking.deviceChanged(request.params.id, { reassigned: true });
      return { message: 'Device removed' };
    },
  );
};

export default devicesRoutes;
