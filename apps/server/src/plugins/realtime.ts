// Socket.IO on the same HTTP server. Browsers are admitted only from this app's own origin (or ALLOWED_ORIGINS) and
// with a live session cookie (docs/CLIENT-CONTRACT.md), and are disconnected when that session ends (decision 012).
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { Server, type Socket } from 'socket.io';
import {
  AUTH_COOKIE,
  forbiddenMessage,
  seesEveryBlock,
  roleMay,
  sessionEndedMessage,
  type Action,
  type BrowserHandshakeAuth,
  type ClientToServerEvents,
  type ServerToClientEvents,
  type ServiceUnavailableData,
  type SessionEndReason,
} from '@prison/shared';
import { caseloadKey, type Audience } from '../lib/caseload-audience';
import type { Caseload } from '../lib/caseload';
import { isTrustedOrigin } from '../lib/origins';
import { auditRefusal } from './access';
import { accountActions } from './account-gate';
import { findEndedSessions, findSessionAccess, findSessionAdmin, sessionsChanged, type AuthenticatedAdmin } from '../sessions/session-service';

export type RealtimeServer = Server<ClientToServerEvents, ServerToClientEvents>;
export type RealtimeSocket = Socket<ClientToServerEvents, ServerToClientEvents>;

export const BROWSERS_ROOM = 'browsers';
/** Browsers that asked for deltas (handshake `auth: { deltas: true }`, our web app): batched `locationChanges`. */
export const DELTA_BROWSERS_ROOM = 'browsers:deltas';
/** Browsers that asked for nothing (the spec's client): the complete set as `locationUpdate`, once a second at most. */
export const FULL_SET_BROWSERS_ROOM = 'browsers:full-set';
export const sessionRoom = (sessionId: string) => `session:${sessionId}`;
/** Browsers whose account sees every block (decision 051): every prisoner's alerts and positions. */
export const EVERY_BLOCK_ROOM = 'caseload:every-block';
/** Browsers whose caseload holds this block: its prisoners' alerts. */
export const blockRoom = (block: string) => `caseload:block:${block}`;
/** The browsers of one feed kind and one caseload: they share each filtered position message. */
const feedRoom = (kind: FeedKind, caseload: Caseload) => `${kind === 'deltas' ? DELTA_BROWSERS_ROOM : FULL_SET_BROWSERS_ROOM}:${caseloadKey(caseload)}`;

export type FeedKind = 'deltas' | 'full-set';

/** The rooms of the browsers that may see an item of this audience: its prisoner's block and every block, or all. */
export function audienceRooms(audience: Audience): string | string[] {
  if ('everyone' in audience) return BROWSERS_ROOM;
  if (audience.block === null) return EVERY_BLOCK_ROOM;
  return [EVERY_BLOCK_ROOM, blockRoom(audience.block)];
}

/** This process's browsers of one feed kind and one caseload, with the room to emit their positions to. */
export interface FeedGroup {
  caseload: Caseload;
  emitter: ReturnType<RealtimeServer['to']>;
}

/**
 * What a browser needs to open the live feed, and each event it may send with the action it needs (decision 050):
 * the sockets' declarations, as routes have `config.access`. An event not listed is never handled for a browser;
 * `updateLocation` is a device's (phone-app sockets authenticate as devices, not staff).
 */
export const BROWSER_CONNECTION_ACCESS: Action = 'live.read';
export const BROWSER_EVENT_ACCESS = {
  requestSnapshot: 'live.read',
} as const satisfies Partial<Record<keyof ClientToServerEvents, Action>>;
export type BrowserEvent = keyof typeof BROWSER_EVENT_ACCESS;

/** Handles a browser event once its role is allowed; `admin` is the session's account as it is now (2 s cache). */
export type BrowserEventHandler<E extends BrowserEvent> = (
  socket: RealtimeSocket,
  admin: AuthenticatedAdmin,
  ...args: Parameters<ClientToServerEvents[E]>
) => void;

/** Socket handshakes that carry device credentials are handed to this hook (the tracking module sets it). */
export type DeviceConnectionHandler = (socket: RealtimeSocket) => Promise<boolean>;

export interface Realtime {
  io: RealtimeServer;
  /** Emits to every authenticated browser (of every process, in cluster mode). */
  toBrowsers(): ReturnType<RealtimeServer['to']>;
  /** Emits to the browsers connected to this process only (its own database or Redis status). */
  toLocalBrowsers(): ReturnType<RealtimeServer['to']>;
  /**
   * Emits to this process's browsers that asked for deltas. Local: in cluster mode every process holds every position
   * (decision 036) and feeds its own browsers, so each browser gets each change once.
   */
  toDeltaBrowsers(): ReturnType<RealtimeServer['to']>;
  /** Emits to this process's browsers that want the complete set every time (local, as above). */
  toFullSetBrowsers(): ReturnType<RealtimeServer['to']>;
  /** Whether any browser of this process wants the complete set (if none, it is not built). */
  hasFullSetBrowsers(): boolean;
  /** This process's browsers of a feed kind, one group per caseload (decision 051): positions go out filtered per group. */
  feedGroups(kind: FeedKind): FeedGroup[];
  /** Emits to this process's browsers that may see an item of this audience (its prisoner's block; decision 051). */
  toLocalAudience(audience: Audience): ReturnType<RealtimeServer['to']>;
  /** Emits to the browsers of every process that may see an item of this audience (decision 093). */
  toAudience(audience: Audience): ReturnType<RealtimeServer['to']>;
  /** Handlers run for each authenticated browser on connect (the tracking module sends its snapshot). */
  onBrowserConnect(handler: (socket: RealtimeSocket, admin: AuthenticatedAdmin) => void): void;
  /** Handlers run when a connected browser's caseload changed (the tracking module sends the new snapshot). */
  onCaseloadChange(handler: (socket: RealtimeSocket, caseload: Caseload) => void): void;
  /** Handles an event browsers send, checked against its declaration in BROWSER_EVENT_ACCESS first. */
  onBrowserEvent<E extends BrowserEvent>(event: E, handler: BrowserEventHandler<E>): void;
  setDeviceHandler(handler: DeviceConnectionHandler): void;
  /** Tells every browser socket of a session why it ended, then disconnects them (logout, revocation). */
  endSession(sessionId: string, reason: SessionEndReason, options?: { localOnly?: boolean }): void;
}

/** How often connected browsers' sessions are checked again (idle, expired, or ended by another process). */
export const SESSION_SWEEP_MS = 2_500;

/**
 * Whether a handshake may open a socket: a browser's `Origin` must be this server's own host or one of
 * ALLOWED_ORIGINS, so a page of another site (or another port of this host) cannot use the operator's cookie. A
 * request without `Origin` (a device, a server-side client) is not a browser page; its credentials decide.
 */
export function isAllowedOrigin(request: Pick<IncomingMessage, 'headers'>, allowedOrigins: readonly string[]): boolean {
  const origin = request.headers.origin;
  if (origin === undefined) return true;
  return isTrustedOrigin(origin, request.headers.host, allowedOrigins);
}

/** A browser asks for deltas in its handshake (`auth: { deltas: true }`); anything else gets the complete set. */
export function wantsDeltas(socket: RealtimeSocket): boolean {
  const auth = socket.handshake.auth as BrowserHandshakeAuth | undefined;
  return auth?.deltas === true;
}

declare module 'fastify' {
  interface FastifyInstance {
    realtime: Realtime;
  }
}

export function registerRealtime(app: FastifyInstance) {
  const allowedOrigins = app.config.ALLOWED_ORIGINS;
  const io: RealtimeServer = new Server(app.server, {
    serveClient: false,
    // The web app is served by this server; pages of ALLOWED_ORIGINS may use the polling transport too.
    cors: allowedOrigins.length > 0 ? { origin: allowedOrigins, credentials: true } : { origin: false },
    // Refuses the HTTP request itself (polling and the WebSocket upgrade) before any Socket.IO handshake.
    allowRequest: (request, callback) => callback(null, isAllowedOrigin(request, allowedOrigins)),
  });
  const browserHandlers: ((socket: RealtimeSocket, admin: AuthenticatedAdmin) => void)[] = [];
  /** The caseload of each feed room this process has had (a room name says its caseload only as a key). */
  const feedCaseloads = new Map<string, { kind: FeedKind; caseload: Caseload }>();
  const caseloadHandlers: ((socket: RealtimeSocket, caseload: Caseload) => void)[] = [];
  /**
   * Puts a browser in the rooms of its caseload (decision 051): one per block, or the room of every block, and the feed
   * room of its kind and caseload. Called on connect and again when its account's blocks change (the sweep, an event),
   * so the live feed follows a changed caseload within the sweep's period.
   */
  const joinCaseload = (socket: RealtimeSocket, caseload: Caseload) => {
    const kind = socket.data.feedKind as FeedKind;
    const room = feedRoom(kind, caseload);
    const rooms = [room, ...(seesEveryBlock(caseload) ? [EVERY_BLOCK_ROOM] : caseload.map(blockRoom))];
    const before = (socket.data.caseloadRooms as string[] | undefined) ?? [];
    if (before.length === rooms.length && before.every((r) => rooms.includes(r))) return;
    for (const old of before) if (!rooms.includes(old)) void socket.leave(old);
    if (!feedCaseloads.has(room)) feedCaseloads.set(room, { kind, caseload: [...caseload] });
    void socket.join(rooms);
    socket.data.caseloadRooms = rooms;
    // A changed caseload: the browser is given the picture of its new caseload (markers it may no longer see go).
    if (before.length > 0) for (const handler of caseloadHandlers) handler(socket, caseload);
  };
  const browserEventHandlers = new Map<BrowserEvent, BrowserEventHandler<BrowserEvent>>();

  /**
   * Runs a browser event's handler if the session still lives and its role may take the event's action; otherwise
   * the browser is told `accessRefused` (and the refusal audited) and nothing is done.
   */
  const handleBrowserEvent = async (socket: RealtimeSocket, event: BrowserEvent, args: unknown[]) => {
    const admin = await findSessionAdmin(app.db, socket.data.token as string, app.config.SESSION_IDLE_MINUTES);
    // An ended session: the sweep disconnects the socket within its period; nothing is answered meanwhile.
    if (!admin) return;
    socket.data.admin = admin;
    joinCaseload(socket, admin.blocks);
    const action = BROWSER_EVENT_ACCESS[event];
    if (!roleMay(admin.role, action)) {
      await auditRefusal(app, admin, socket.handshake.address, { target: `socket ${event}`, action });
      socket.emit('accessRefused', { event, message: forbiddenMessage(admin.role, action) });
      return;
    }
    const handler = browserEventHandlers.get(event);
    (handler as ((socket: RealtimeSocket, admin: AuthenticatedAdmin, ...rest: unknown[]) => void) | undefined)?.(socket, admin, ...args);
  };
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
      // Connecting is not the user's activity (a reconnect happens by itself); an ended session cannot reconnect.
      const admin = token ? await findSessionAdmin(app.db, token, app.config.SESSION_IDLE_MINUTES) : null;
      if (!admin) return next(new Error('Authentication required'));
      // A password to change or two-factor login to enrol first (plugins/account-gate): no live data until then.
      const pending = accountActions(admin, app.config.REQUIRE_TOTP);
      if (pending.passwordChangeRequired || pending.totpEnrolmentRequired) return next(new Error('Account setup required'));
      if (!roleMay(admin.role, BROWSER_CONNECTION_ACCESS)) {
        await auditRefusal(app, admin, socket.handshake.address, { target: 'socket connect', action: BROWSER_CONNECTION_ACCESS });
        return next(new Error(forbiddenMessage(admin.role, BROWSER_CONNECTION_ACCESS)));
      }
      socket.data.kind = 'browser';
      socket.data.admin = admin;
      // Kept to read the session again for each event: a role changed meanwhile applies within the cache's 2 s.
      socket.data.token = token;
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
    const kind: FeedKind = wantsDeltas(socket) ? 'deltas' : 'full-set';
    socket.data.feedKind = kind;
    socket.join([BROWSERS_ROOM, kind === 'deltas' ? DELTA_BROWSERS_ROOM : FULL_SET_BROWSERS_ROOM, sessionRoom(admin.sessionId)]);
    joinCaseload(socket, admin.blocks);
    for (const event of Object.keys(BROWSER_EVENT_ACCESS) as BrowserEvent[]) {
      socket.on(event, (...args: unknown[]) => {
        void handleBrowserEvent(socket, event, args).catch((error: unknown) =>
          app.databaseHealth.failed(error, `the ${event} event of a browser`),
        );
      });
    }
    for (const handler of browserHandlers) handler(socket, admin);
  });

  const realtime: Realtime = {
    io,
    toBrowsers: () => io.to(BROWSERS_ROOM),
    toLocalBrowsers: () => io.local.to(BROWSERS_ROOM),
    toDeltaBrowsers: () => io.local.to(DELTA_BROWSERS_ROOM),
    toFullSetBrowsers: () => io.local.to(FULL_SET_BROWSERS_ROOM),
    hasFullSetBrowsers: () => (io.sockets.adapter.rooms.get(FULL_SET_BROWSERS_ROOM)?.size ?? 0) > 0,
    feedGroups: (kind) => {
      const groups: FeedGroup[] = [];
      for (const [room, group] of feedCaseloads) {
        if (group.kind !== kind) continue;
        if ((io.sockets.adapter.rooms.get(room)?.size ?? 0) === 0) {
          feedCaseloads.delete(room); // nobody left: forgotten until a socket of that caseload connects again
          continue;
        }
        groups.push({ caseload: group.caseload, emitter: io.local.to(room) });
      }
      return groups;
    },
    toLocalAudience: (audience) => io.local.to(audienceRooms(audience)),
    toAudience: (audience) => io.to(audienceRooms(audience)),
    onBrowserConnect: (handler) => browserHandlers.push(handler),
    onCaseloadChange: (handler) => caseloadHandlers.push(handler),
    onBrowserEvent: (event, handler) => {
      browserEventHandlers.set(event, handler as BrowserEventHandler<BrowserEvent>);
    },
    setDeviceHandler: (handler) => {
      deviceHandler = handler;
    },
    endSession: (sessionId, reason, options = {}) => {
      const message = sessionEndedMessage(reason, app.config.SESSION_IDLE_MINUTES);
      const server = options.localOnly ? io.local : io;
      server.to(sessionRoom(sessionId)).emit('sessionEnded', { reason, message });
      server.in(sessionRoom(sessionId)).disconnectSockets(true);
    },
  };
  app.decorate('realtime', realtime);

  // Sessions also end without a request of theirs: idle, expired, or revoked by another process (the admin CLI, a
  // second server). One query for every connected browser's session; an ended one is told why and disconnected.
  let sweeping = false;
  // A role or caseload changed since a browser connected: its socket's account follows (the live feed filters by it).
  const refreshAccess = async (sessionIds: string[]) => {
    const access = await findSessionAccess(app.db, sessionIds);
    for (const socket of io.sockets.sockets.values()) {
      if (socket.data.kind !== 'browser') continue;
      const admin = socket.data.admin as AuthenticatedAdmin;
      const now = access.get(admin.sessionId);
      if (!now) continue;
      socket.data.admin = { ...admin, role: now.role, blocks: now.blocks };
      joinCaseload(socket, now.blocks);
    }
  };
  const sweep = async () => {
    const connectedSessions = new Set<string>();
    for (const socket of io.sockets.sockets.values()) {
      if (socket.data.kind === 'browser') connectedSessions.add((socket.data.admin as AuthenticatedAdmin).sessionId);
    }
    if (connectedSessions.size === 0) return;
    await refreshAccess([...connectedSessions]);
    const ended = await findEndedSessions(app.db, [...connectedSessions], app.config.SESSION_IDLE_MINUTES);
    if (ended.size === 0) return;
    // Ended elsewhere (another process wrote it): cached lookups of these sessions must not let a reconnect back in.
    sessionsChanged();
    // Each process sweeps the browsers connected to it.
    for (const [sessionId, reason] of ended) realtime.endSession(sessionId, reason, { localOnly: true });
  };
  const sweepTimer = setInterval(() => {
    if (sweeping) return;
    sweeping = true;
    sweep()
      .catch((error: unknown) => app.databaseHealth.failed(error, 'checking the sessions of connected browsers'))
      .finally(() => {
        sweeping = false;
      });
  }, SESSION_SWEEP_MS);
  sweepTimer.unref();

  // On shutdown the browsers' connections close first (they reconnect, and their pages say the feed is reconnecting,
  // decision 028): an open WebSocket would otherwise hold the HTTP server's close until the 15 s forced exit.
  app.addHook('preClose', async () => {
    io.engine.close();
  });
  app.addHook('onClose', async () => {
    clearInterval(sweepTimer);
    await io.close();
  });
}
