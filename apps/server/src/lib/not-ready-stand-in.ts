// What holds the process's ports while it waits for its database at start (decision 056): the HTTP port answers
// /healthz 200 (alive), /readyz 503 (not ready: a balancer sends nothing) and every other path 503 with Retry-After;
// the device ports answer 503 too, so a device retries instead of finding nothing. Binding them now also fails a start
// whose port is taken at once, naming it, instead of after the database returns.
import { createServer, type Server } from 'node:http';
import Fastify, { type FastifyBaseLogger, type FastifyServerOptions } from 'fastify';
import { DATABASE_RETRY_AFTER_SECONDS, DATABASE_UNAVAILABLE_MESSAGE } from './database-errors';
import { listenNamed } from './listen-failure';

export interface StandInPorts {
  host: string;
  http: { variable: string; port: number };
  devices: { variable: string; port: number; what: string }[];
}

export interface NotReadyStandIn {
  log: FastifyBaseLogger;
  /** Binds every port; rejects with a ListenFailure naming the first that cannot be bound (and frees the others). */
  listen(): Promise<void>;
  /** Frees every port, so the real server can take them. */
  close(): Promise<void>;
}

export function createNotReadyStandIn(ports: StandInPorts, logger: FastifyServerOptions['logger']): NotReadyStandIn {
  const http = Fastify({ logger });
  http.get('/healthz', async () => ({ status: 'ok' }));
  const unavailable = { message: DATABASE_UNAVAILABLE_MESSAGE };
  http.get('/readyz', async (_request, reply) =>
    reply.status(503).header('retry-after', String(DATABASE_RETRY_AFTER_SECONDS)).send({ status: 'database unavailable' }),
  );
  http.setNotFoundHandler(async (_request, reply) =>
    reply.status(503).header('retry-after', String(DATABASE_RETRY_AFTER_SECONDS)).send(unavailable),
  );
  const deviceServers: Server[] = [];
  const closeDevices = () =>
    Promise.all(
      deviceServers.splice(0).map(
        (server) =>
          new Promise<void>((resolve) => {
            server.close(() => resolve());
            server.closeAllConnections();
          }),
      ),
    );
  return {
    log: http.log,
    listen: async () => {
      try {
        for (const device of ports.devices) {
          const server = createServer((_request, response) => {
            response.writeHead(503, { 'content-type': 'application/json', 'retry-after': String(DATABASE_RETRY_AFTER_SECONDS) });
            response.end(JSON.stringify(unavailable));
          });
          await listenNamed(device.variable, device.port, device.what, () =>
            new Promise<void>((resolve, reject) => {
              server.once('error', reject);
              server.listen(device.port, ports.host, () => resolve());
            }),
          );
          deviceServers.push(server);
        }
        await listenNamed(ports.http.variable, ports.http.port, 'HTTP: web app, API and Socket.IO', () =>
          http.listen({ port: ports.http.port, host: ports.host }),
        );
      } catch (error) {
        await closeDevices();
        throw error;
      }
    },
    close: async () => {
      await closeDevices();
      await http.close();
    },
  };
}
