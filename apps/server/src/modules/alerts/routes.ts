import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

// Routes of the alerts feature (to be filled).
const alertsRoutes: FastifyPluginAsyncZod = async () => {};

export default alertsRoutes;
