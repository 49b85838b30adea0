// Device ingestion routes: public by design (docs/CLIENT-CONTRACT.md), because each request authenticates its device.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { batchPositionsResponse, errorResponse, MAX_BATCH_POSITIONS, messageResponse } from '@prison/shared';
import { bearer, tokenMatches } from '../../lib/bearer-token';
import { DeviceFailuresThrottled } from './device-auth-throttle';
import { ingestBatch, ingestOsmand } from './ingest-service';
import { ingestTraccar } from './traccar-forward';

/** One forwarded position with its attributes is a few kilobytes; anything far larger is not Traccar's. */
const TRACCAR_BODY_LIMIT_BYTES = 64 * 1024;

const text = z.string().optional();
/** The OsmAnd parameters as Traccar Client sends them; unknown ones are ignored. */
const osmandQuery = z.looseObject({
  id: text,
  deviceid: text,
  secret: text.describe('the device secret: required when DEVICE_SECRET_REQUIRED is on or the device is marked so; when given it must match'),
  key: text,
  lat: text,
  lon: text,
  location: text.describe('lat,lon'),
  timestamp: text.describe('seconds, milliseconds or ISO 8601'),
  speed: text.describe('knots (stored as metres per second)'),
  bearing: text,
  altitude: text,
  accuracy: text,
  batt: text.describe('battery percent'),
  alarm: text.describe('sos or tamper raise a Critical alert'),
});
const osmandResponses = { 200: messageResponse, 400: errorResponse, 401: errorResponse, 404: errorResponse, 429: errorResponse };

const ingestRoutes: FastifyPluginAsyncZod = async (app) => {
  /** The OsmAnd fix of this request; the address (from TRUST_PROXY's rule) throttles credential failures (decision 038). */
  const ingest = async (request: FastifyRequest, reply: FastifyReply, query: Record<string, unknown>, body: unknown) => {
    try {
      return await ingestOsmand(app.tracking, query, body, { address: request.ip, throttle: app.deviceAuthThrottle });
    } catch (error) {
      if (error instanceof DeviceFailuresThrottled) reply.header('retry-after', String(error.retryAfterSeconds));
      throw error;
    }
  };

  app.get(
    '/ingest/osmand',
    {
      config: { public: true },
      // Thousands of fixes a second would drown the log: only failures are logged.
      logLevel: 'warn',
      schema: {
        tags: ['ingest'],
        summary: 'OsmAnd (Traccar Client) fix as query parameters; answers after the fix is stored',
        querystring: osmandQuery,
        response: osmandResponses,
      },
    },
    async (request, reply) => ingest(request, reply, request.query, undefined),
  );

  app.post(
    '/ingest/osmand',
    {
      // Traccar Client posts a form (decision 043: the one API route that takes non-JSON bodies).
      config: { public: true, formBody: true },
      logLevel: 'warn',
      schema: {
        tags: ['ingest'],
        summary: 'OsmAnd fix as a form (or query) POST, or the JSON form { device_id, location: { timestamp, coords, battery } }',
        querystring: osmandQuery,
        body: z.record(z.string(), z.unknown()).optional(),
        response: osmandResponses,
      },
    },
    async (request, reply) => ingest(request, reply, request.query, request.body),
  );

  app.post(
    '/ingest/positions',
    {
      config: { public: true },
      logLevel: 'warn',
      schema: {
        tags: ['ingest'],
        summary: `Gateway batch: up to ${MAX_BATCH_POSITIONS} fixes of many devices, each with device_id and secret (always required); per-fix results`,
        body: z.object({
          positions: z
            .array(z.unknown())
            .min(1, 'positions must hold at least one fix')
            .max(MAX_BATCH_POSITIONS, `positions may hold at most ${MAX_BATCH_POSITIONS} fixes`),
        }),
        response: { 200: batchPositionsResponse, 400: errorResponse },
      },
    },
    async (request) => ingestBatch(app.tracking, request.body.positions),
  );

  const traccarToken = app.config.TRACCAR_FORWARD_TOKEN;
  app.post(
    '/ingest/traccar',
    {
      // The forwarder's own bearer token authenticates it (decision 106), checked once the (bounded, JSON-only) body
      // is parsed and before it is validated or stored.
      config: { public: true },
      logLevel: 'warn',
      bodyLimit: TRACCAR_BODY_LIMIT_BYTES,
      preValidation: async (request, reply) => {
        if (!traccarToken) return reply.status(404).send({ message: 'The Traccar forwarder is off: set TRACCAR_FORWARD_TOKEN to turn it on' });
        if (!tokenMatches(bearer(request.headers.authorization), traccarToken)) {
          app.tracking.metrics.fixesReceived('traccar', 1);
          app.tracking.metrics.fixesRefused('traccar', 1);
          return reply.status(401).header('www-authenticate', 'Bearer realm="traccar"').send({ message: 'A valid bearer token is required' });
        }
      },
      schema: {
        tags: ['ingest'],
        summary: "A Traccar server's JSON position forwarder: { position, device } as Traccar builds it, the device matched by device.uniqueId; answers after the fix is stored",
        body: z.record(z.string(), z.unknown()),
        response: { 200: messageResponse, 400: errorResponse, 401: errorResponse, 404: errorResponse, 409: errorResponse },
      },
    },
    async (request) => ingestTraccar(app.tracking, request.body),
  );
};

export default ingestRoutes;
