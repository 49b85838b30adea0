// Central error handler: 4xx answers { message } naming what was wrong; 5xx hides internals and logs them.
// A database that cannot be reached answers 503 with Retry-After (the client may send the same request again);
// database failures are logged once per kind per interval (lib/database-health), never with their SQL.
import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { HttpError } from '../lib/http-errors';
import { DATABASE_RETRY_AFTER_SECONDS, DATABASE_UNAVAILABLE_MESSAGE } from '../lib/database-errors';

interface PgLikeError {
  code?: string;
  constraint?: string;
  detail?: string;
}

export function validationMessage(error: FastifyError & { validation: { instancePath: string; message?: string }[] }) {
  const first = error.validation[0];
  const field = first?.instancePath.replace(/^\//, '').replaceAll('/', '.') || error.validationContext || 'request';
  return `${field}: ${first?.message ?? 'is invalid'}`;
}

export function registerErrorHandler(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError & PgLikeError, request, reply) => {
    if (error instanceof HttpError) return reply.status(error.statusCode).send({ ...error.extra, message: error.message });
    if (hasZodFastifySchemaValidationErrors(error)) return reply.status(400).send({ message: validationMessage(error) });
    if (isResponseSerializationError(error)) {
      request.log.error({ err: error, issues: error.cause.issues }, 'response did not match its schema');
      return reply.status(500).send({ message: 'Internal server error' });
    }
    // Unique violations that slipped past a service check still answer as a conflict, not a crash.
    // Drizzle wraps the driver's error (DrizzleQueryError): the database's code is then on `cause`.
    const dbError = (error.cause as PgLikeError | undefined)?.code ? (error.cause as PgLikeError) : error;
    if (dbError.code === '23505') return reply.status(409).send({ message: `Duplicate value (${dbError.constraint ?? 'unique'})` });
    if (dbError.code === '23503') return reply.status(409).send({ message: 'The record is referenced by another record' });
    // Second line behind the route schemas (decision 010): a value the database cannot hold (class 22 "data
    // exception": NUL in text, a number or date out of the column's range...) is the caller's mistake, not a crash.
    if (dbError.code?.startsWith('22')) {
      request.log.warn({ code: dbError.code, route: request.routeOptions.url }, 'value refused by the database');
      return reply.status(400).send({ message: 'A value of the request is out of range or holds characters that cannot be stored' });
    }
    const status = error.statusCode ?? 500;
    if (status >= 500) {
      const where = `${request.method} ${request.routeOptions.url ?? 'unmatched route'}`;
      if (app.databaseHealth.failed(error, where)) {
        return reply.status(503).header('retry-after', String(DATABASE_RETRY_AFTER_SECONDS)).send({ message: DATABASE_UNAVAILABLE_MESSAGE });
      }
      return reply.status(status).send({ message: 'Internal server error' });
    }
    return reply.status(status).send({ message: error.message });
  });
}
