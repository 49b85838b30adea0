import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

// Routes of the incidents feature (to be filled).
const incidentsRoutes: FastifyPluginAsyncZod = async () => {};

export default incidentsRoutes;
