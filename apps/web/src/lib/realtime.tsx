// One Socket.IO connection per logged-in browser, with the spec's client defaults (docs/CLIENT-CONTRACT.md).
import { createContext, useContext, useEffect, useRef, useState, type ReactNode } from 'react';
import { io, type Socket } from 'socket.io-client';
import { useQueryClient } from '@tanstack/react-query';
import type {
  BrowserHandshakeAuth,
  ClientToServerEvents,
  ServerToClientEvents,
  ServiceUnavailableData,
} from '@prison/shared/realtime';
import { SESSION_QUERY_KEY, useAuth } from './auth';
import { coalescedRefreshByKey } from './coalesced-refresh';
import { watchFeed } from './feed-health';
import { leaveForLogin } from './session-end';
import { reportServerDatabaseStatus } from './service-status';
import { useToast } from './toast';

export type BrowserSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

const SocketContext = createContext<BrowserSocket | null>(null);

export function RealtimeProvider({ children }: { children: ReactNode }) {
  const { status } = useAuth();
  const { pushAlert, dropAlerts } = useToast();
  const queryClient = useQueryClient();
  const [socket, setSocket] = useState<BrowserSocket | null>(null);

  useEffect(() => {
    if (status !== 'authenticated') return;
    const next: BrowserSocket = io({
      reconnectionDelay: 1000,
      reconnectionDelayMax: 5000,
      timeout: 20_000,
      withCredentials: true,
      // Batched `locationChanges` after the snapshot, not the complete set every second (docs/decisions/018).
      auth: { deltas: true } satisfies BrowserHandshakeAuth,
    });
    // Live, reconnecting or lost, and the age of the newest data (lib/feed-health, decision 028).
    const unwatchFeed = watchFeed(next);
    // Lists refresh without a reload, one refresh per topic at a time however fast events come: every path below
    // goes through this one refresher, so no event cancels another's refetch (coalesced-refresh.ts).
    const refresh = coalescedRefreshByKey((topic) => queryClient.invalidateQueries({ queryKey: [topic] }));
    next.on('showAlert', (alert) => {
      pushAlert(alert);
      // The web client never re-posts a received alert (docs/CLIENT-CONTRACT.md).
      refresh('alerts');
    });
    next.on('dataChanged', (topic) => refresh(topic));
    // Acknowledged or resolved here, in another browser or through another process: its toast has nothing left to ask.
    next.on('alertStatusChanged', ({ ids }) => dropAlerts(ids));
    // Events sent while the connection was down are lost: refetch what they would have refreshed. (The live map
    // asks for a fresh position snapshot on every connect itself.) Every connect after the first counts, also the
    // retry below after a handshake refused for the database.
    const refetchWhatEventsRefresh = () => {
      for (const topic of ['alerts', 'geofences', 'devices', 'overview']) refresh(topic);
    };
    let connectedBefore = false;
    next.on('connect', () => {
      if (connectedBefore) refetchWhatEventsRefresh();
      connectedBefore = true;
    });
    // The server's cluster link is back (decision 036): what the other processes sent meanwhile was lost; refetch it.
    let partial = false;
    next.on('clusterFeed', ({ otherProcesses }) => {
      const wasPartial = partial;
      partial = otherProcesses === 'interrupted';
      if (!wasPartial || partial) return;
      next.emit('requestSnapshot');
      refetchWhatEventsRefresh();
    });
    // The session ended (idle, expired, logged out, revoked, password changed, disabled): /login says why.
    next.on('sessionEnded', ({ message }) => leaveForLogin(message));
    next.on('serviceStatus', (status) => reportServerDatabaseStatus(status.database));
    let retry: ReturnType<typeof setTimeout> | undefined;
    next.on('connect_error', (error: Error & { data?: Partial<ServiceUnavailableData> }) => {
      // A reconnect refused for want of a session: the session check finds out why and the guards go to /login.
      if (error.message === 'Authentication required') void queryClient.invalidateQueries({ queryKey: SESSION_QUERY_KEY });
      // A handshake refused because the database is down (the session cannot be checked) is not retried by
      // socket.io-client itself: show the banner and try again later.
      if (error.data?.database !== 'unavailable') return;
      reportServerDatabaseStatus('unavailable');
      clearTimeout(retry);
      retry = setTimeout(() => next.connect(), 5_000);
    });
    setSocket(next);
    return () => {
      clearTimeout(retry);
      unwatchFeed();
      next.close();
      setSocket(null);
    };
  }, [status, pushAlert, dropAlerts, queryClient]);

  return <SocketContext.Provider value={socket}>{children}</SocketContext.Provider>;
}

export function useSocket(): BrowserSocket | null {
  return useContext(SocketContext);
}

/** Subscribes to a server event for the life of the component; the handler may change between renders. */
export function useSocketEvent<E extends keyof ServerToClientEvents>(event: E, handler: ServerToClientEvents[E]) {
  const socket = useSocket();
  const latest = useRef(handler);
  latest.current = handler;
  useEffect(() => {
    if (!socket) return;
    const listener = ((...args: unknown[]) => (latest.current as (...a: unknown[]) => void)(...args)) as never;
    socket.on(event, listener);
    return () => {
      socket.off(event, listener);
    };
  }, [socket, event]);
}
