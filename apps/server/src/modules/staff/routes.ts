import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

// Routes of the staff feature (to be filled).
const staffRoutes: FastifyPluginAsyncZod = async () => {};

export default staffRoutes;
