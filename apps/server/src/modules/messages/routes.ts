import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

// Routes of the messages feature (to be filled).
const messagesRoutes: FastifyPluginAsyncZod = async () => {};

export default messagesRoutes;
