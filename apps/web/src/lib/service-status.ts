// Whether the server can reach its database, as this browser knows it: from the server's `serviceStatus` event (and a
// refused socket handshake), and from any API call answered 503. While an API 503 is the only sign, /readyz is asked
// every few seconds, so the banner also goes away on screens without a live connection (the login page).
import { useSyncExternalStore } from 'react';

const READY_POLL_MS = 5_000;

let serverSaysDown = false;
let apiSawDown = false;
let poll: ReturnType<typeof setInterval> | null = null;
const listeners = new Set<() => void>();

function changed() {
  for (const listener of listeners) listener();
}

function stopPolling() {
  if (poll) clearInterval(poll);
  poll = null;
}

function setApiSawDown(down: boolean) {
  if (down === apiSawDown) return;
  apiSawDown = down;
  if (!down) stopPolling();
  else
    poll ??= setInterval(() => {
      void fetch('/readyz').then(
        (response) => response.ok && setApiSawDown(false),
        () => undefined,
      );
    }, READY_POLL_MS);
  changed();
}

/** The server's own word (Socket.IO `serviceStatus`, or a handshake refused because the database is down). */
export function reportServerDatabaseStatus(status: 'ok' | 'unavailable') {
  const down = status === 'unavailable';
  if (!down) setApiSawDown(false);
  if (down === serverSaysDown) return;
  serverSaysDown = down;
  changed();
}

/** Every /api/v1 answer: 503 means the data could not be stored or read; a success that it could again. */
export function reportApiStatus(status: number) {
  if (status === 503) setApiSawDown(true);
  else if (status >= 200 && status < 300) setApiSawDown(false);
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export const isDatabaseUnavailable = () => serverSaysDown || apiSawDown;

export function useDatabaseUnavailable(): boolean {
  return useSyncExternalStore(subscribe, isDatabaseUnavailable);
}
