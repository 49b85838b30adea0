// Indoor readers (decision 067): list with their state, register (the secret answered once), a new secret,
// remove; and
// the HTTP sightings route, public by design like the device protocols because each message carries its reader's secret.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponse, httpSightings, idText, MAX_SIGHTING_TAGS, messageResponse, READER_FORMAT_LABELS, readerCreated, readerInput, readerList, sightingsResult } from '@prison/shared';
import { badRequest, HttpError } from '../../lib/http-errors';
import { auditActor } from '../../plugins/auth';
import { listReaderRows, registerReader, removeReader, rotateReaderSecret, toPlace, toReader } from './reader-repository';
import { SIGHTING_DECODERS } from './formats';
import { READER_REFUSED_MESSAGE, readerProtocol, SightingIntake } from './sighting-intake';

const idParams = z.object({ id: idText(100).min(1, 'id is required') });

/** The reader's secret from `Authorization: Bearer SECRET` or Basic (any user name, the secret as password). */
function secretOf(header: string | undefined): string | null {
  const [scheme, value] = (header ?? '').split(' ', 2);
  if (!value || value.length > 400) return null;
  if (scheme?.toLowerCase() === 'bearer') return value;
  if (scheme?.toLowerCase() !== 'basic') return null;
  const decoded = Buffer.from(value, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon >= 0 && colon < decoded.length - 1 ? decoded.slice(colon + 1) : null;
}

const readersRoutes: FastifyPluginAsyncZod = async (app) => {
  const runtime = app.readers;
  const intake = new SightingIntake(app.tracking, runtime.registry, runtime.resolver);
  app.addHook('onReady', async () => runtime.start());
  app.addHook('onClose', async () => runtime.stop());

  app.get(
    '/readers',
    { config: { access: 'live.read' }, schema: { tags: ['readers'], summary: 'Every indoor reader with its state (reporting or silent), last seen and refusals', response: { 200: readerList } } },
    async () => {
      // This process's latest activity first, so the list shows what was just heard.
      await runtime.writeActivity();
      return { data: (await listReaderRows(app.db)).map(toReader) };
    },
  );

  app.post(
    '/readers',
    {
      config: { access: 'readers.write' },
      schema: {
        tags: ['readers'],
        summary: 'Register a fixed reader at a point of the plan; the answer holds its secret, shown this once (only a hash is stored)',
        body: readerInput,
        response: { 201: readerCreated, 400: errorResponse, 409: errorResponse },
      },
    },
    async (request, reply) => {
      const { created, row } = await registerReader(app.db, auditActor(request), request.body);
      runtime.registry.put(toPlace(row));
      return reply.status(201).send(created);
    },
  );

  app.post(
    '/readers/:id/rotate-secret',
    {
      config: { access: 'readers.write' },
      schema: {
        tags: ['readers'],
        summary: "A new secret for the reader, shown this once: the old one is refused from now on (on every process within the registry's refresh)",
        params: idParams,
        response: { 200: readerCreated, 404: errorResponse },
      },
    },
    async (request) => {
      const { created, row } = await rotateReaderSecret(app.db, auditActor(request), request.params.id);
      runtime.registry.put(toPlace(row));
      return created;
    },
  );

  app.delete(
    '/readers/:id',
    {
      config: { access: 'readers.write' },
      schema: { tags: ['readers'], summary: 'Remove a reader; the fixes it made stay in the location history', params: idParams, response: { 200: messageResponse, 404: errorResponse } },
    },
    async (request) => {
      await removeReader(app.db, auditActor(request), request.params.id);
      runtime.registry.remove(request.params.id);
      return { message: 'Reader removed' };
    },
  );

  app.post(
    '/ingest/sightings',
    {
      config: { public: true },
      // Thousands of messages a second would drown the log: only failures are logged.
      logLevel: 'warn',
      schema: {
        tags: ['ingest'],
        summary: `An indoor reader's sightings: { reader_id, secret, tags: [{ id, rssi, at }] } (at most ${MAX_SIGHTING_TAGS} tags); each registered tracker's tag becomes a fix at the reader`,
        // Read here, not by the schema, so a malformed message is counted as a refusal too.
        body: z.unknown(),
        response: { 200: sightingsResult, 400: errorResponse, 401: errorResponse },
      },
    },
    async (request) => {
      const parsed = httpSightings.safeParse(request.body);
      if (!parsed.success) {
        const readerId = (request.body as { reader_id?: unknown } | null)?.reader_id;
        intake.refuse('reader', typeof readerId === 'string' ? readerId : null, 1);
        const issue = parsed.error.issues[0]!;
        throw badRequest(`${issue.path.join('.') || 'body'}: ${issue.message}`);
      }
      const { reader_id, secret, tags } = parsed.data;
      return intake.take('reader', reader_id, secret, tags);
    },
  );

  app.post(
    '/ingest/readers/:id/sightings',
    {
      config: { public: true },
      logLevel: 'warn',
      schema: {
        tags: ['ingest'],
        summary:
          "A gateway's upload in the format its reader was registered with (OpenMQTTGateway / Theengs objects, a Minew array, or ours); the reader's secret as `Authorization: Bearer SECRET` or Basic password",
        params: idParams,
        // Read by the reader's decoder, so a malformed message is counted as a refusal too.
        body: z.unknown(),
        response: { 200: sightingsResult, 400: errorResponse, 401: errorResponse },
      },
    },
    async (request) => {
      const readerId = request.params.id;
      const secret = secretOf(request.headers.authorization);
      const reader = secret === null ? null : runtime.registry.authenticate(readerId, secret);
      if (!reader) {
        intake.refuse('reader', readerId, 1);
        throw new HttpError(401, READER_REFUSED_MESSAGE);
      }
      const protocol = readerProtocol(reader.format, 'http');
      const decoded = SIGHTING_DECODERS[reader.format].decode(request.body);
      if (!decoded) {
        intake.refuse(protocol, readerId, 1);
        throw badRequest(`body: not a message in this reader's format (${READER_FORMAT_LABELS[reader.format]}), or more than ${MAX_SIGHTING_TAGS} tags`);
      }
      return intake.place(protocol, reader, decoded.tags);
    },
  );
};

export default readersRoutes;
