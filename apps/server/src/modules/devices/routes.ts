import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

// Routes of the devices feature (to be filled).
const devicesRoutes: FastifyPluginAsyncZod = async () => {};

export default devicesRoutes;
