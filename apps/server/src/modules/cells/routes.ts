import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

// Routes of the cells feature (to be filled).
const cellsRoutes: FastifyPluginAsyncZod = async () => {};

export default cellsRoutes;
