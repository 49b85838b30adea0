// The control-room log (/communication): read newest first, post, and every open browser gets it live.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponse, logMessage, messageInput, messageList, messageListQuery } from '@prison/shared';
import { auditActor, requireAdmin } from '../../plugins/auth';
import { listMessages, postMessage } from './messages-service';

const messagesRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/messages',
    {
      config: { access: 'live.read' },
      schema: {
        tags: ['messages'],
        summary: 'Control-room log entries, newest first; `before` (a message id) pages back',
        querystring: messageListQuery,
        response: { 200: messageList, 400: errorResponse },
      },
    },
    async (request) => listMessages(app.db, request.query),
  );

  app.post(
    '/messages',
    {
      config: { access: 'messages.post' },
      schema: {
        tags: ['messages'],
        summary: 'Post an entry to the control-room log; every open browser receives it (messagePosted)',
        body: messageInput,
        response: { 200: logMessage, 400: errorResponse },
      },
    },
    async (request) => {
      const message = await postMessage(app.db, requireAdmin(request), request.body, auditActor(request));
      app.realtime.toBrowsers().emit('messagePosted', message);
      return message;
    },
  );
};

export default messagesRoutes;
