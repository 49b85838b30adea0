// The health of the live feed (docs/decisions/028): live, reconnecting (with the age of the newest
// data), or lost. A control room must never be shown stale data as if it were live. realtime.tsx hands its one socket
// to watchFeed(); screens read useFeedHealth().
import { useSyncExternalStore } from 'react';
import type { Socket } from 'socket.io-client';
import type { ClusterFeedEvent } from '@prison/shared/realtime';
import { formatAge } from './format';

/**
 * 'partial': connected, but the server says live events from the other processes of its cluster are not reaching it
 * (Redis down, decision 036): what is shown may be missing other trackers' moves and alerts, so it is not "live".
 */
export type FeedState = 'connecting' | 'live' | 'partial' | 'reconnecting' | 'lost';

/** Without a connection for longer than this, the feed is "lost" rather than "reconnecting". */
export const LOST_AFTER_MS = 30_000;

/** Server events that carry live data (positions and alerts). */
const DATA_EVENTS = new Set(['locationUpdate', 'locationChanges', 'userDisconnected', 'showAlert']);

export interface FeedSignals {
  /** The socket is connected now. */
  connected: boolean;
  /** When this socket was opened (login or page load). */
  openedAt: number;
  /** When the connection last dropped; null while it has not dropped since it was opened. */
  disconnectedAt: number | null;
  /** socket.io-client stopped trying (reconnect_failed). */
  gaveUp: boolean;
  /** Newest live data event received (positions, alerts). */
  newestDataAt: number | null;
  /**
   * The last moment the browser's data is known to match the server's: the newest packet or heartbeat heard, or the
   * moment of a clean close (everything sent before it has arrived).
   */
  currentAt: number | null;
  /** Since when the server has said the other processes' events are interrupted; null while they arrive. */
  partialSince: number | null;
}

export interface FeedHealth {
  state: FeedState;
  /** The time the shown live data is as of; null while live (it is current) or when none was ever received. */
  dataAsOf: number | null;
  /** Newest live data event received, as of the last state change (not updated while live). */
  newestDataAt: number | null;
}

/** The state machine, a pure function of what the socket said and the time. */
export function feedState(signals: FeedSignals, now: number): FeedState {
  if (signals.connected) return signals.partialSince === null ? 'live' : 'partial';
  if (signals.gaveUp) return 'lost';
  const since = signals.disconnectedAt ?? signals.openedAt;
  if (now - since > LOST_AFTER_MS) return 'lost';
  return signals.disconnectedAt === null ? 'connecting' : 'reconnecting';
}

export function feedHealthAt(signals: FeedSignals, now: number): FeedHealth {
  const state = feedState(signals, now);
  const known = [signals.currentAt, signals.newestDataAt].filter((t): t is number => t !== null);
  return {
    state,
    // Partly live: complete as of the moment the other processes' events stopped arriving.
    dataAsOf: state === 'partial' ? signals.partialSince : state === 'live' || known.length === 0 ? null : Math.max(...known),
    newestDataAt: signals.newestDataAt,
  };
}

/** Whether a screen must present its live data as not current. */
export function isStale(state: FeedState): boolean {
  return state === 'partial' || state === 'reconnecting' || state === 'lost';
}

// The store: one socket at a time (realtime.tsx). Packets only move the mutable times; listeners hear of a change of
// state, so a busy feed does not re-render every screen several times a second.
const IDLE: FeedSignals = {
  connected: false,
  openedAt: 0,
  disconnectedAt: null,
  gaveUp: false,
  newestDataAt: null,
  currentAt: null,
  partialSince: null,
};
let signals: FeedSignals = { ...IDLE, openedAt: Date.now() };
let snapshot: FeedHealth = feedHealthAt(signals, Date.now());
let lostTimer: ReturnType<typeof setTimeout> | undefined;
const listeners = new Set<() => void>();

function recompute() {
  const now = Date.now();
  const next = feedHealthAt(signals, now);
  clearTimeout(lostTimer);
  lostTimer = undefined;
  if (next.state === 'connecting' || next.state === 'reconnecting') {
    const since = signals.disconnectedAt ?? signals.openedAt;
    lostTimer = setTimeout(recompute, Math.max(0, since + LOST_AFTER_MS - now) + 1);
  }
  if (
    next.state === snapshot.state &&
    next.dataAsOf === snapshot.dataAsOf &&
    next.newestDataAt === snapshot.newestDataAt
  )
    return;
  snapshot = next;
  for (const listener of listeners) listener();
}

/** The subset of a socket.io-client Socket the feed watches (a fake one in the tests). */
export type WatchedSocket = Pick<Socket, 'on' | 'off' | 'onAny' | 'offAny' | 'connected'> & {
  io: Pick<Socket['io'], 'on' | 'off'>;
};

/** Follows one socket until the returned function is called (logout, socket replaced). */
export function watchFeed(socket: WatchedSocket): () => void {
  signals = { ...IDLE, openedAt: Date.now(), connected: socket.connected };
  const heard = () => {
    signals.currentAt = Date.now();
  };
  const onAny = (event: string) => {
    if (DATA_EVENTS.has(event)) signals.newestDataAt = Date.now();
  };
  const onConnect = () => {
    // A new connection starts complete; the server says at once if its cluster link is down.
    signals = { ...signals, connected: true, disconnectedAt: null, gaveUp: false, currentAt: Date.now(), partialSince: null };
    recompute();
  };
  const onDisconnect = (reason: string) => {
    const now = Date.now();
    // A clean close comes after everything sent before it; a dead link (ping timeout, transport error) may have
    // swallowed what came after the last packet heard.
    const clean = reason === 'transport close' || reason === 'io server disconnect';
    signals = { ...signals, connected: false, disconnectedAt: now, currentAt: clean ? now : signals.currentAt };
    recompute();
  };
  const onClusterFeed = ({ otherProcesses }: ClusterFeedEvent) => {
    if ((otherProcesses === 'interrupted') === (signals.partialSince !== null)) return;
    signals = { ...signals, partialSince: otherProcesses === 'interrupted' ? Date.now() : null };
    recompute();
  };
  const onGaveUp = () => {
    signals = { ...signals, gaveUp: true };
    recompute();
  };
  socket.on('connect', onConnect);
  socket.on('disconnect', onDisconnect);
  socket.on('clusterFeed', onClusterFeed);
  socket.onAny(onAny);
  socket.io.on('packet', heard);
  socket.io.on('ping', heard);
  socket.io.on('reconnect_failed', onGaveUp);
  recompute();
  return () => {
    socket.off('connect', onConnect);
    socket.off('disconnect', onDisconnect);
    socket.off('clusterFeed', onClusterFeed);
    socket.offAny(onAny);
    socket.io.off('packet', heard);
    socket.io.off('ping', heard);
    socket.io.off('reconnect_failed', onGaveUp);
    signals = { ...IDLE, openedAt: Date.now() };
    recompute();
  };
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export const getFeedHealth = () => snapshot;

export function useFeedHealth(): FeedHealth {
  return useSyncExternalStore(subscribe, getFeedHealth);
}

/** "14:02:11" (en-GB, 24 h). */
export function formatClock(time: number): string {
  return new Date(time).toLocaleTimeString('en-GB');
}


/**
 * A live row's age (decision 044): "12 s ago" while the feed is live; while it is not, the age would go on saying
 * "just now" about a fix that may no longer be the newest, so it freezes to the clock time and says so.
 */
export function liveAgeText(time: number, now: number, stale: boolean): string {
  return stale ? `at ${formatClock(time)}, feed not live` : formatAge(now - time);
}
