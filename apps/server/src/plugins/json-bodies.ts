// JSON routes take JSON bodies only (decision 043): a form-encoded, text or multipart body answers 415, so a
// cross-site HTML form (which can send those without a preflight) never reaches a handler with fields it parsed.
// A route that takes a form by design (OsmAnd devices) says so with `config: { formBody: true }`.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { HttpError } from '../lib/http-errors';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Accepts form-encoded bodies as well as JSON (device ingestion, decision 043). */
    formBody?: boolean;
  }
}

export const JSON_ONLY_MESSAGE = 'Content-Type must be application/json';

/** A body is there when its length is above zero or it is sent in chunks; a form content type with no body is harmless. */
function carriesBody(request: FastifyRequest): boolean {
  const length = request.headers['content-length'];
  return request.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

function isJson(contentType: string | undefined): boolean {
  return contentType?.split(';')[0]?.trim().toLowerCase() === 'application/json';
}

export function registerJsonBodies(app: FastifyInstance) {
  app.addHook('preParsing', async (request, _reply, payload) => {
    // Unmatched URLs answer 404 as before; a route that takes forms declares it.
    if (request.routeOptions.url === undefined || request.routeOptions.config?.formBody) return payload;
    if (request.method === 'GET' || request.method === 'HEAD' || request.method === 'OPTIONS') return payload;
    if (!carriesBody(request) || isJson(request.headers['content-type'])) return payload;
    throw new HttpError(415, JSON_ONLY_MESSAGE);
  });
}
