import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

// Routes of the location feature (to be filled).
const locationRoutes: FastifyPluginAsyncZod = async () => {};

export default locationRoutes;
