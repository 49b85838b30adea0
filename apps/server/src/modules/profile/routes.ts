import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

// Routes of the profile feature (to be filled).
const profileRoutes: FastifyPluginAsyncZod = async () => {};

export default profileRoutes;
