// Sends JSON text the route already holds (from PostgreSQL, decision 049) as the answer, without parsing it again.
import type { FastifyReply } from 'fastify';

/**
 * Fastify sends a string body as it is, so the route's zod response schema is not run on it: the schema still
 * documents the answer (OpenAPI), and the route's test checks the text against it.
 */
export function sendJsonText(reply: FastifyReply, json: string): FastifyReply {
  return reply.type('application/json; charset=utf-8').send(json);
}
