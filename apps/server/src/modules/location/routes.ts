// Location history: the thinned track with its distance, geofence time and alerts; export as GPX or CSV.
// This plugin also runs the retention job for the fixes it serves.
import { Readable } from 'node:stream';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponse, historyExportQuery, historyQuery, historyResponse, replayQuery, replayResponse } from '@prison/shared';
import { recordAudit } from '../../lib/audit';
import { caseloadOf } from '../../lib/caseload';
import { withinBudget } from '../../lib/query-budget';
import { auditActor } from '../../plugins/auth';
import { startRetentionJob, type RetentionJob } from '../../tracking/retention-job';
import { EXPORT_CONTENT_TYPES, exportFilename, exportLines } from './export-service';
import { findPrisonerName, readHistory } from './history-service';
import { readReplay } from './replay-service';

/** Whose track: a prisoner in the account's caseload, else the same 404 as an unknown id (decision 051). */
const prisonerByQuery = { record: 'prisoner', field: 'prisoner_id', from: 'query', notFound: 'No prisoner with id {id}' } as const;

/** A history or replay too large to answer in time names the window. */
const NARROW = { field: 'to', narrow: 'narrow the window (from, to)' };

const locationRoutes: FastifyPluginAsyncZod = async (app) => {
  const timeoutMs = app.config.HEAVY_QUERY_TIMEOUT_MS;
  let retention: RetentionJob | null = null;
  app.addHook('onReady', async () => {
    retention = startRetentionJob(app);
  });
  app.addHook('onClose', async () => {
    await retention?.stop();
  });

  app.get(
    '/location/history',
    {
      config: { access: 'live.read', caseload: prisonerByQuery, heavyQuery: true },
      schema: {
        tags: ['location'],
        summary: "A prisoner's track over a time range (thinned to max_points), distance, time per geofence and alerts",
        querystring: historyQuery,
        response: { 200: historyResponse, 400: errorResponse, 404: errorResponse, 429: errorResponse },
      },
    },
    async (request) => withinBudget(app.database, timeoutMs, NARROW, (db) => readHistory(db, request.query)),
  );

  app.get(
    '/location/replay',
    {
      // Everyone's fixes in the account's caseload (staff and unassigned trackers are nobody's prisoner, decision 051).
      config: { access: 'live.read', heavyQuery: true },
      schema: {
        tags: ['location'],
        summary: "Every tracker's fixes over a window (or a block's, or chosen people's), the window's alerts and the geofences as they were",
        querystring: replayQuery,
        response: { 200: replayResponse, 400: errorResponse, 429: errorResponse },
      },
    },
    async (request) => {
      const answer = await withinBudget(app.database, timeoutMs, NARROW, (db) => readReplay(db, request.query, caseloadOf(request)));
      // Replaying everyone's whereabouts is sensitive, as an export is: it leaves a trace in the audit trail.
      const { from, to, block, prisoner_ids, staff_ids } = request.query;
      await recordAudit(app.db, auditActor(request), {
        action: 'location.replay',
        entity: 'replay',
        after: { from, to, block: block ?? null, prisoner_ids: prisoner_ids ?? null, staff_ids: staff_ids ?? null, tracks: answer.tracks.length },
      });
      return answer;
    },
  );

  app.get(
    '/location/export',
    {
      config: { access: 'live.read', caseload: prisonerByQuery, heavyQuery: true },
      schema: {
        tags: ['location'],
        summary: 'Every fix of the range as a GPX 1.1 or CSV download',
        querystring: historyExportQuery,
        response: {
          200: z.string().describe('GPX (application/gpx+xml) or CSV (text/csv) file'),
          400: errorResponse,
          404: errorResponse,
          429: errorResponse,
        },
      },
    },
    async (request, reply) => {
      const query = request.query;
      const prisonerName = await findPrisonerName(app.db, query.prisoner_id);
      // Reading someone's whereabouts is sensitive: an export leaves a trace in the audit trail.
      await recordAudit(app.db, auditActor(request), {
        action: 'location.export',
        entity: 'prisoner',
        entityId: query.prisoner_id,
        after: { from: query.from, to: query.to, format: query.format },
      });
      reply
        .header('content-type', EXPORT_CONTENT_TYPES[query.format])
        .header('content-disposition', `attachment; filename="${exportFilename(query)}"`)
        .header('cache-control', 'no-store');
      // A stream is sent as it is (not serialised); the 200 schema above documents the file for OpenAPI.
      const file = Readable.from(exportLines(app.db, query, prisonerName));
      return reply.send(file as unknown as string);
    },
  );
};

export default locationRoutes;
