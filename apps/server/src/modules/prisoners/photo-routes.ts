// /prisoners/:id/photo (decision 101): a prisoner's photo, uploaded by records staff (multipart `photo`, PNG or JPEG
// up to 5 MB) and shown only to accounts whose caseload covers him (else the same 404 as an unknown prisoner).
import multipart from '@fastify/multipart';
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponse, intText } from '@prison/shared';
import { auditActor } from '../../plugins/auth';
import { PHOTO_UPLOAD_LIMITS, deletePhoto, preparePhoto, readPhoto, readPhotoUpload, savePhoto } from './photo-service';

const idParams = z.object({ id: intText() });
const prisonerById = { record: 'prisoner', field: 'id', from: 'params', notFound: 'Prisoner {id} not found' } as const;
const photoStored = z.object({ prisoner_id: z.number().int(), photo_digest: z.string(), byte_size: z.number().int() });

const prisonerPhotoRoutes: FastifyPluginAsyncZod = async (app) => {
  // Scoped to these routes: no other route of this plugin parses multipart.
  await app.register(multipart, { limits: PHOTO_UPLOAD_LIMITS });

  const changed = () => app.realtime.toBrowsers().emit('dataChanged', 'prisoners');

  app.get(
    '/prisoners/:id/photo',
    {
      config: { access: 'records.read', caseload: prisonerById },
      // No response schema: the answer is the image's bytes (or a 304, or the error handler's 404).
      schema: {
        tags: ['prisoners'],
        summary: "A prisoner's photo (JPEG; 404 when he has none or is outside the caseload)",
        params: idParams,
        querystring: z.object({ v: z.string().max(64).optional() }),
      },
    },
    async (request, reply) => {
      const photo = await readPhoto(app.db, request.params.id);
      const etag = `"${photo.digest}"`;
      // Private: a shared cache must never hold a prisoner's face; the address changes with the photo.
      reply.header('etag', etag).header('cache-control', 'private, max-age=86400').header('content-disposition', 'inline').type('image/jpeg');
      if (request.headers['if-none-match'] === etag) return reply.status(304).send();
      return reply.send(photo.image);
    },
  );

  app.put(
    '/prisoners/:id/photo',
    {
      config: { access: 'records.write', multipartBody: true, caseload: prisonerById },
      schema: {
        tags: ['prisoners'],
        summary: "Set a prisoner's photo (multipart: photo = PNG or JPEG up to 5 MB, checked by content; stored resized, without metadata)",
        params: idParams,
        response: { 200: photoStored, 400: errorResponse, 404: errorResponse },
      },
    },
    async (request) => {
      const image = await preparePhoto(await readPhotoUpload(request));
      const stored = await savePhoto(app.db, auditActor(request), request.params.id, image);
      changed();
      return { prisoner_id: request.params.id, photo_digest: stored.digest, byte_size: stored.byteSize };
    },
  );

  app.delete(
    '/prisoners/:id/photo',
    {
      config: { access: 'records.write', caseload: prisonerById },
      schema: {
        tags: ['prisoners'],
        summary: "Remove a prisoner's photo",
        params: idParams,
        response: { 204: z.null().describe('Removed'), 400: errorResponse, 404: errorResponse },
      },
    },
    async (request, reply) => {
      await deletePhoto(app.db, auditActor(request), request.params.id);
      changed();
      return reply.status(204).send(null);
    },
  );
};

export default prisonerPhotoRoutes;
