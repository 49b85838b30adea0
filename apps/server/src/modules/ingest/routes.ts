import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

// Routes of the ingest feature (to be filled).
const ingestRoutes: FastifyPluginAsyncZod = async () => {};

export default ingestRoutes;
