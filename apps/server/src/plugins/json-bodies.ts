// JSON routes take JSON bodies only (decision 043): a form-encoded, text or multipart body answers 415, so a
// cross-site HTML form (which can send those without a preflight) never reaches a handler with fields it parsed.
// A route that takes a form by design (OsmAnd devices) says so with `config: { formBody: true }`; a file upload (site
// plans, decision 065) with `config: { multipartBody: true }`, and then takes multipart/form-data only.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { HttpError } from '../lib/http-errors';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Accepts form-encoded bodies as well as JSON (device ingestion, decision 043). */
    formBody?: boolean;
    /** Takes multipart/form-data only (file uploads, decision 065); a cross-site form is refused by its Origin. */
    multipartBody?: boolean;
  }
}

export const JSON_ONLY_MESSAGE = 'Content-Type must be application/json';
export const MULTIPART_ONLY_MESSAGE = 'Content-Type must be multipart/form-data';

/** A body is there when its length is above zero or it is sent in chunks; a form content type with no body is harmless. */
function carriesBody(request: FastifyRequest): boolean {
  const length = request.headers['content-length'];
  return request.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

function mediaType(contentType: string | undefined): string | undefined {
  return contentType?.split(';')[0]?.trim().toLowerCase();
}

export function registerJsonBodies(app: FastifyInstance) {
  app.addHook('preParsing', async (request, _reply, payload) => {
    // Unmatched URLs answer 404 as before; a route that takes forms declares it.
    if (request.routeOptions.url === undefined || request.routeOptions.config?.formBody) return payload;
    if (request.method === 'GET' || request.method === 'HEAD' || request.method === 'OPTIONS') return payload;
    const type = mediaType(request.headers['content-type']);
    if (request.routeOptions.config?.multipartBody) {
      if (type === 'multipart/form-data') return payload;
      throw new HttpError(415, MULTIPART_ONLY_MESSAGE);
    }
    if (!carriesBody(request) || type === 'application/json') return payload;
    throw new HttpError(415, JSON_ONLY_MESSAGE);
  });
}
