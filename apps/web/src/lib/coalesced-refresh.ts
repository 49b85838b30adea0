// One refresh at a time for a burst of live events (`showAlert`, `dataChanged`, a reconnect). Invalidating again while
// a refetch is in flight cancels it and starts another, but our requests take no AbortSignal, so the cancelled one
// stays on the wire: a burst of alerts filled the browser's six connections with refetches of every alert query, and
// a screen's first load queued behind them ("Loading alerts..."). Here a refresh asked for meanwhile runs once, after.

/** Wraps `refresh` (which resolves when its refetch is done) so that calls during one run make a single run after. */
export function coalescedRefresh(refresh: () => Promise<unknown>): () => void {
  let running = false;
  let again = false;
  return () => {
    if (running) {
      again = true;
      return;
    }
    running = true;
    void (async () => {
      try {
        do {
          again = false;
          await refresh().catch(() => undefined);
        } while (again);
      } finally {
        running = false;
      }
    })();
  };
}

/**
 * One coalesced refresher per key, shared by every event that asks for that key: `showAlert` and
 * `dataChanged('alerts')` arrive together for each alert, and must not cancel each other's refetch either.
 */
export function coalescedRefreshByKey(refresh: (key: string) => Promise<unknown>): (key: string) => void {
  const byKey = new Map<string, () => void>();
  return (key) => {
    let run = byKey.get(key);
    if (!run) {
      run = coalescedRefresh(() => refresh(key));
      byKey.set(key, run);
    }
    run();
  };
}
