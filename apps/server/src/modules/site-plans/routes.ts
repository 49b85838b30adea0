// Site plans (decision 065): list and image for every map; upload, replace, default and delete for the
// administrator. Uploads are multipart (`file`, `name`, `points`), checked by content, never by name.
import multipart from '@fastify/multipart';
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponse, sitePlan, sitePlanIdParams, sitePlanList } from '@prison/shared';
import { auditActor } from '../../plugins/auth';
import { createPlan, deletePlan, listPlans, makeDefaultPlan, readPlanImage, replacePlan } from './site-plan-service';
import { readPlanUpload, UPLOAD_LIMITS } from './upload-reader';

/** An SVG shown on its own runs nothing and loads nothing: it is an image, not a page (decision 065). */
const IMAGE_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; sandbox";

const sitePlanRoutes: FastifyPluginAsyncZod = async (app) => {
  // Scoped to these routes: no other route parses multipart.
  await app.register(multipart, { limits: UPLOAD_LIMITS });

  app.get(
    '/site-plans',
    { config: { access: 'live.read' }, schema: { tags: ['site-plans'], summary: 'Site plans, each with its placement points', response: { 200: sitePlanList } } },
    async () => listPlans(app.db),
  );

  app.get(
    '/site-plans/:id/image',
    {
      config: { access: 'live.read' },
      // No response schema: the answer is the image's bytes (or a 304, or the error handler's 404).
      schema: { tags: ['site-plans'], summary: "A site plan's image (its address carries its version: kept a year)", params: sitePlanIdParams },
    },
    async (request, reply) => {
      const image = await readPlanImage(app.db, request.params.id);
      const etag = `"${image.digest}"`;
      reply
        .header('etag', etag)
        .header('cache-control', 'private, max-age=31536000, immutable')
        .header('content-security-policy', IMAGE_CSP)
        .header('content-disposition', 'inline')
        .type(image.contentType);
      if (request.headers['if-none-match'] === etag) return reply.status(304).send();
      return reply.send(image.image);
    },
  );

  app.post(
    '/site-plans',
    {
      config: { access: 'settings.write', multipartBody: true },
      schema: {
        tags: ['site-plans'],
        summary: 'Upload a site plan (multipart: file = PNG, JPEG or SVG up to 20 MB; name; points = JSON of three { x, y, lat, lng })',
        response: { 201: sitePlan, 400: errorResponse },
      },
    },
    async (request, reply) => reply.status(201).send(await createPlan(app.db, await readPlanUpload(request), auditActor(request))),
  );

  app.put(
    '/site-plans/:id',
    {
      config: { access: 'settings.write', multipartBody: true },
      schema: {
        tags: ['site-plans'],
        summary: "Replace a site plan's name and points, and its image when a file is sent (multipart)",
        params: sitePlanIdParams,
        response: { 200: sitePlan, 400: errorResponse, 404: errorResponse },
      },
    },
    async (request) => replacePlan(app.db, request.params.id, await readPlanUpload(request), auditActor(request)),
  );

  app.put(
    '/site-plans/:id/default',
    {
      config: { access: 'settings.write' },
      schema: { tags: ['site-plans'], summary: 'Make a site plan the one every map draws', params: sitePlanIdParams, response: { 200: sitePlan, 404: errorResponse } },
    },
    async (request) => makeDefaultPlan(app.db, request.params.id, auditActor(request)),
  );

  app.delete(
    '/site-plans/:id',
    {
      config: { access: 'settings.write' },
      schema: { tags: ['site-plans'], summary: 'Delete a site plan', params: sitePlanIdParams, response: { 204: z.null().describe('Deleted'), 404: errorResponse } },
    },
    async (request, reply) => {
      await deletePlan(app.db, request.params.id, auditActor(request));
      return reply.status(204).send(null);
    },
  );
};

export default sitePlanRoutes;
