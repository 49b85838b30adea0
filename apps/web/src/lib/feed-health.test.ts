import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  LOST_AFTER_MS,
  feedHealthAt,
  feedState,
  getFeedHealth,
  formatClock,
  isStale,
  liveAgeText,
  watchFeed,
  type FeedSignals,
  type WatchedSocket,
} from './feed-health';

const T0 = 1_700_000_000_000;
const base: FeedSignals = {
  connected: false,
  openedAt: T0,
  disconnectedAt: null,
  gaveUp: false,
  newestDataAt: null,
  currentAt: null,
  partialSince: null,
};

describe('the feed state machine', () => {
  it('is connecting after the socket opened, then lost when no connection came for LOST_AFTER_MS', () => {
    expect(feedState(base, T0)).toBe('connecting');
    expect(feedState(base, T0 + LOST_AFTER_MS)).toBe('connecting');
    expect(feedState(base, T0 + LOST_AFTER_MS + 1)).toBe('lost');
    expect(isStale('connecting')).toBe(false);
  });

  it('is live while connected, however old the newest data is', () => {
    expect(feedState({ ...base, connected: true, newestDataAt: T0 - 3_600_000 }, T0)).toBe('live');
    expect(feedHealthAt({ ...base, connected: true, currentAt: T0 }, T0 + 5_000).dataAsOf).toBeNull();
  });

  it('reconnects after a drop, and is lost once the drop lasts longer than LOST_AFTER_MS', () => {
    const dropped = { ...base, disconnectedAt: T0 + 60_000, newestDataAt: T0 + 50_000, currentAt: T0 + 55_000 };
    expect(feedState(dropped, T0 + 60_000)).toBe('reconnecting');
    expect(feedState(dropped, T0 + 60_000 + LOST_AFTER_MS)).toBe('reconnecting');
    expect(feedState(dropped, T0 + 60_001 + LOST_AFTER_MS)).toBe('lost');
    expect(isStale('reconnecting') && isStale('lost')).toBe(true);
    // The data are as of the last moment they were known to match the server's.
    expect(feedHealthAt(dropped, T0 + 70_000)).toEqual({
      state: 'reconnecting',
      dataAsOf: T0 + 55_000,
      newestDataAt: T0 + 50_000,
    });
  });

  it('is partly live, and stale, while the server says the other processes of its cluster are not heard', () => {
    const partial = { ...base, connected: true, currentAt: T0 + 9_000, partialSince: T0 + 5_000 };
    expect(feedState(partial, T0 + 10_000)).toBe('partial');
    expect(isStale('partial')).toBe(true);
    // Complete as of the moment the other processes' events stopped arriving.
    expect(feedHealthAt(partial, T0 + 10_000).dataAsOf).toBe(T0 + 5_000);
  });

  it('is lost at once when the client gave up reconnecting', () => {
    expect(feedState({ ...base, disconnectedAt: T0, gaveUp: true }, T0 + 1)).toBe('lost');
  });

  it('has no "as of" time when no data was ever received', () => {
    expect(feedHealthAt({ ...base, disconnectedAt: T0 }, T0 + 1).dataAsOf).toBeNull();
  });
});

/** Just enough of a socket.io-client socket: listeners per event, on the socket and on its manager. */
function fakeSocket() {
  const on = new Map<string, Set<(...args: unknown[]) => void>>();
  const ioOn = new Map<string, Set<(...args: unknown[]) => void>>();
  const any = new Set<(event: string) => void>();
  const add = (map: typeof on) => (event: string, listener: (...args: unknown[]) => void) => {
    if (!map.has(event)) map.set(event, new Set());
    map.get(event)!.add(listener);
  };
  const remove = (map: typeof on) => (event: string, listener: (...args: unknown[]) => void) =>
    map.get(event)?.delete(listener);
  const socket = {
    connected: false,
    on: add(on),
    off: remove(on),
    onAny: (listener: (event: string) => void) => any.add(listener),
    offAny: (listener: (event: string) => void) => any.delete(listener),
    io: { on: add(ioOn), off: remove(ioOn) },
  };
  const emit = (event: string, ...args: unknown[]) => {
    for (const listener of on.get(event) ?? []) listener(...args);
    if (event !== 'connect' && event !== 'disconnect') {
      for (const listener of ioOn.get('packet') ?? []) listener({ type: 2 });
      for (const listener of any) listener(event);
    }
  };
  const emitManager = (event: string) => {
    for (const listener of ioOn.get(event) ?? []) listener();
  };
  const listenerCount = () => [...on.values(), ...ioOn.values()].reduce((sum, set) => sum + set.size, 0) + any.size;
  return { socket: socket as unknown as WatchedSocket, emit, emitManager, listenerCount };
}

describe('watchFeed', () => {
  afterEach(() => vi.useRealTimers());

  it('follows a socket: live on connect, reconnecting on a drop with the data time, lost later, live again', async () => {
    vi.useFakeTimers({ now: T0 });
    const { socket, emit, emitManager, listenerCount } = fakeSocket();
    const stop = watchFeed(socket);
    expect(getFeedHealth().state).toBe('connecting');

    await vi.advanceTimersByTimeAsync(200);
    emit('connect');
    expect(getFeedHealth().state).toBe('live');
    await vi.advanceTimersByTimeAsync(1_000);
    emit('locationChanges', { changed: {}, gone: [] });
    const dataAt = Date.now();
    await vi.advanceTimersByTimeAsync(20_000);
    emitManager('ping');
    const pingAt = Date.now();
    await vi.advanceTimersByTimeAsync(10_000);

    // A dead link: data are as of the last thing heard (the heartbeat), not as of the moment the drop was noticed.
    emit('disconnect', 'ping timeout');
    expect(getFeedHealth()).toEqual({ state: 'reconnecting', dataAsOf: pingAt, newestDataAt: dataAt });
    await vi.advanceTimersByTimeAsync(LOST_AFTER_MS);
    expect(getFeedHealth().state).toBe('reconnecting');
    await vi.advanceTimersByTimeAsync(10);
    expect(getFeedHealth().state).toBe('lost');

    emit('connect');
    expect(getFeedHealth()).toMatchObject({ state: 'live', dataAsOf: null });

    // A clean close (the server stopped): everything sent before it arrived, so the data are as of the close.
    await vi.advanceTimersByTimeAsync(5_000);
    emit('disconnect', 'transport close');
    expect(getFeedHealth()).toMatchObject({ state: 'reconnecting', dataAsOf: Date.now() });

    stop();
    expect(listenerCount()).toBe(0);
    expect(getFeedHealth().state).toBe('connecting');
  });

  it('is partly live between clusterFeed interrupted and ok, and a new connection starts complete', () => {
    vi.useFakeTimers({ now: T0 });
    const { socket, emit } = fakeSocket();
    const stop = watchFeed(socket);
    emit('connect');
    emit('clusterFeed', { otherProcesses: 'interrupted' });
    expect(getFeedHealth()).toMatchObject({ state: 'partial', dataAsOf: T0 });
    emit('clusterFeed', { otherProcesses: 'ok' });
    expect(getFeedHealth()).toMatchObject({ state: 'live', dataAsOf: null });
    emit('clusterFeed', { otherProcesses: 'interrupted' });
    emit('disconnect', 'transport close');
    emit('connect');
    expect(getFeedHealth().state).toBe('live');
    stop();
  });

  it('is lost at once when socket.io-client gives up', () => {
    vi.useFakeTimers({ now: T0 });
    const { socket, emit, emitManager } = fakeSocket();
    const stop = watchFeed(socket);
    emit('connect');
    emit('disconnect', 'transport error');
    expect(getFeedHealth().state).toBe('reconnecting');
    emitManager('reconnect_failed');
    expect(getFeedHealth().state).toBe('lost');
    stop();
  });
});

describe('liveAgeText', () => {
  it('ticks while live and freezes to the clock time, saying the feed is not live, at once when it is not', () => {
    const fix = T0 - 3_000;
    expect(liveAgeText(fix, T0, false)).toBe('just now');
    expect(liveAgeText(fix, T0 + 60_000, false)).toBe('1 min ago');
    // The first second after the feed is lost already says so: no "just now" about a fix that may be old.
    for (const now of [T0, T0 + 1_000, T0 + 60_000])
      expect(liveAgeText(fix, now, true)).toBe(`at ${formatClock(fix)}, feed not live`);
  });
});
