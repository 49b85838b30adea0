import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

// Routes of the geofences feature (to be filled).
const geofencesRoutes: FastifyPluginAsyncZod = async () => {};

export default geofencesRoutes;
