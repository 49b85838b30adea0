import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

// Routes of the audit feature (to be filled).
const auditRoutes: FastifyPluginAsyncZod = async () => {};

export default auditRoutes;
