// The current time for every "N s ago" on screen, ticking on a shared clock per interval.
import { useCallback, useSyncExternalStore } from 'react';

// One clock per interval for every "N s ago" on screen, so that two places showing one age never disagree and a
// hundred rows do not start a hundred timers.
interface Clock {
  now: number;
  timer: ReturnType<typeof setInterval> | undefined;
  listeners: Set<() => void>;
}
const clocks = new Map<number, Clock>();

function clockFor(everyMs: number): Clock {
  let clock = clocks.get(everyMs);
  if (!clock) {
    clock = { now: Date.now(), timer: undefined, listeners: new Set() };
    clocks.set(everyMs, clock);
  }
  return clock;
}

function subscribe(everyMs: number, listener: () => void): () => void {
  const clock = clockFor(everyMs);
  clock.listeners.add(listener);
  if (!clock.timer) {
    clock.now = Date.now();
    clock.timer = setInterval(() => {
      clock.now = Date.now();
      for (const each of clock.listeners) each();
    }, everyMs);
  }
  return () => {
    clock.listeners.delete(listener);
    if (clock.listeners.size === 0) {
      clearInterval(clock.timer);
      clock.timer = undefined;
    }
  };
}

const noClock = () => () => undefined;

/** The time now, refreshed every `everyMs` while `enabled`, so ages ("12 s ago") tick without a refetch. */
export function useNow(everyMs = 1_000, enabled = true): number {
  const subscribeToClock = useCallback((listener: () => void) => subscribe(everyMs, listener), [everyMs]);
  return useSyncExternalStore(enabled ? subscribeToClock : noClock, () => clockFor(everyMs).now);
}
