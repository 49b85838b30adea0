// Socket.IO on the same HTTP server. Browsers are admitted only with a live session cookie (DECISIONS.md item 3).
import type { FastifyInstance } from 'fastify';
import { Server, type Socket } from 'socket.io';
import { AUTH_COOKIE, type ClientToServerEvents, type ServerToClientEvents, type ServiceUnavailableData } from '@prison/shared';
import { findSessionAdmin, type AuthenticatedAdmin } from '../modules/admin/session-service';

export type RealtimeServer = Server<ClientToServerEvents, ServerToClientEvents>;
export type RealtimeSocket = Socket<ClientToServerEvents, ServerToClientEvents>;

export const BROWSERS_ROOM = 'browsers';
export const sessionRoom = (sessionId: string) => `session:${sessionId}`;

/** Socket handshakes that carry device credentials are handed to this hook (the tracking module sets it). */
export type DeviceConnectionHandler = (socket: RealtimeSocket) => Promise<boolean>;

export interface Realtime {
  io: RealtimeServer;
  /** Emits to every authenticated browser. */
  toBrowsers(): ReturnType<RealtimeServer['to']>;
  /** Handlers run for each authenticated browser on connect (the tracking module sends its snapshot). */
  onBrowserConnect(handler: (socket: RealtimeSocket, admin: AuthenticatedAdmin) => void): void;
  setDeviceHandler(handler: DeviceConnectionHandler): void;
  /** Disconnects every browser socket of a session (logout, revocation). */
  endSession(sessionId: string): void;
}

declare module 'fastify' {
  interface FastifyInstance {
    realtime: Realtime;
  }
}

export function registerRealtime(app: FastifyInstance) {
  const io: RealtimeServer = new Server(app.server, {
    serveClient: false,
    // Same origin only: the web app is served by this server.
    cors: { origin: false },
  });
  const browserHandlers: ((socket: RealtimeSocket, admin: AuthenticatedAdmin) => void)[] = [];
  let deviceHandler: DeviceConnectionHandler | null = null;

  io.use(async (socket, next) => {
    try {
      const auth = socket.handshake.auth as Record<string, unknown> | undefined;
      if (auth && (auth.deviceId || auth.trackingId || auth.secret)) {
        socket.data.kind = 'device';
        return next();
      }
      const cookies = app.parseCookie(socket.handshake.headers.cookie ?? '');
      const bearer = typeof auth?.token === 'string' ? auth.token : undefined;
      const token = cookies[AUTH_COOKIE] ?? bearer;
      const admin = token ? await findSessionAdmin(app.db, token) : null;
      if (!admin) return next(new Error('Authentication required'));
      socket.data.kind = 'browser';
      socket.data.admin = admin;
      next();
    } catch (error) {
      // The session could not be checked. With the database down the browser is told so: it shows the outage banner
      // and connects again later (socket.io-client does not retry a refused handshake by itself).
      const unavailable = app.databaseHealth.failed(error, 'socket authentication');
      const refusal: Error & { data?: ServiceUnavailableData } = new Error(unavailable ? 'Service unavailable' : 'Authentication failed');
      if (unavailable) refusal.data = { database: 'unavailable' };
      next(refusal);
    }
  });

  io.on('connection', async (socket: RealtimeSocket) => {
    if (socket.data.kind === 'device') {
      const accepted = deviceHandler ? await deviceHandler(socket).catch(() => false) : false;
      if (!accepted) socket.disconnect(true);
      return;
    }
    const admin = socket.data.admin as AuthenticatedAdmin;
    socket.join([BROWSERS_ROOM, sessionRoom(admin.sessionId)]);
    for (const handler of browserHandlers) handler(socket, admin);
  });

  const realtime: Realtime = {
    io,
    toBrowsers: () => io.to(BROWSERS_ROOM),
    onBrowserConnect: (handler) => browserHandlers.push(handler),
    setDeviceHandler: (handler) => {
      deviceHandler = handler;
    },
    endSession: (sessionId) => {
      io.to(sessionRoom(sessionId)).emit('sessionRevoked');
      io.in(sessionRoom(sessionId)).disconnectSockets(true);
    },
  };
  app.decorate('realtime', realtime);
  app.addHook('onClose', async () => {
    await io.close();
  });
}
