// The control-room log (/communication): read and search newest first, post, and every open browser gets it live;
// the handovers an account has still to confirm reading, and the confirmation.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  errorResponse,
  logMessage,
  messageIdParams,
  messageInput,
  messageList,
  messageListQuery,
  pendingHandovers,
  postedMessage,
} from '@prison/shared';
import { auditActor, requireAdmin } from '../../plugins/auth';
import { caseloadOf } from '../../lib/caseload';
import { confirmHandoverRead, pendingHandovers as pendingHandoversOf } from './handover-reads';
import { listMessages, postMessage } from './messages-service';

const messagesRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/messages',
    {
      config: {
        access: 'live.read',
        // Entries about a record outside the caseload: that record is as unknown.
        caseload: [
          { record: 'prisoner', field: 'prisoner_id', from: 'query', notFound: 'Prisoner {id} not found' },
          { record: 'alert', field: 'alert_id', from: 'query', notFound: 'Alert {id} not found' },
          { record: 'incident', field: 'incident_id', from: 'query', notFound: 'Incident {id} not found' },
        ],
      },
      schema: {
        tags: ['messages'],
        summary:
          'Control-room log entries, newest first; `before` (a message id) pages back; searched by words (`q`), ' +
          '`type`, a time range (`from`, `to`) and a linked prisoner, alert or incident',
        querystring: messageListQuery,
        response: { 200: messageList, 400: errorResponse, 404: errorResponse },
      },
    },
    async (request) => listMessages(app.db, request.query, caseloadOf(request)),
  );

  app.post(
    '/messages',
    {
      config: { access: 'messages.post' },
      schema: {
        tags: ['messages'],
        summary:
          'Post an entry to the control-room log, of a type and linked to prisoners, alerts and incidents; every open ' +
          'browser receives it (messagePosted, without its links)',
        body: messageInput,
        response: { 200: logMessage, 400: errorResponse },
      },
    },
    async (request) => {
      const message = await postMessage(app.db, requireAdmin(request), request.body, auditActor(request));
      // Links name prisoners: each browser reads them through its own caseload, so the event carries none.
      app.realtime.toBrowsers().emit('messagePosted', postedMessage.parse(message));
      return message;
    },
  );

  app.get(
    '/messages/handovers/pending',
    {
      config: { access: 'handovers.confirm' },
      schema: {
        tags: ['messages'],
        summary:
          'The handover entries this account has still to confirm reading: written by another account before this ' +
          'login, at most a day before it; oldest first',
        response: { 200: pendingHandovers },
      },
    },
    async (request) => pendingHandoversOf(app.db, requireAdmin(request)),
  );

  app.post(
    '/messages/:id/read',
    {
      config: { access: 'handovers.confirm' },
      schema: {
        tags: ['messages'],
        summary: 'Confirm having read a handover entry (who and when are kept and shown on the entry)',
        params: messageIdParams,
        response: { 200: logMessage, 400: errorResponse, 404: errorResponse },
      },
    },
    async (request) => {
      const message = await confirmHandoverRead(app.db, requireAdmin(request), request.params.id, auditActor(request));
      app.realtime.toBrowsers().emit('dataChanged', 'messages');
      return message;
    },
  );
};

export default messagesRoutes;
