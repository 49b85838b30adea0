// One refresh at a time for a burst of live events (`showAlert`, `dataChanged`, a reconnect). Invalidating again while
// a refetch is in flight cancels it and starts another: before decision 084 the cancelled request stayed on the wire
// and a burst of alerts filled the browser's six connections; now it is aborted, but a slow list would still restart
// its load for every event of a burst and never finish (decisions 083, 084). A refresh asked for meanwhile runs once,
// after.

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
