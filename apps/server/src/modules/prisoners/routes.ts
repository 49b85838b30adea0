import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

// Routes of the prisoners feature (to be filled).
const prisonersRoutes: FastifyPluginAsyncZod = async () => {};

export default prisonersRoutes;
