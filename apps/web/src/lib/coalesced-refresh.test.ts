import { describe, expect, it } from 'vitest';
import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { coalescedRefresh, coalescedRefreshByKey } from './coalesced-refresh';

/** Lets the promises of a finished refresh run on. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('coalescedRefresh', () => {
  it('runs one refresh at a time: a burst during one run makes exactly one more run, after it', async () => {
    const runs: (() => void)[] = [];
    let started = 0;
    const refresh = coalescedRefresh(
      () =>
        new Promise<void>((resolve) => {
          started++;
          runs.push(resolve);
        }),
    );
    refresh();
    expect(started).toBe(1);
    // A hundred alerts while the list loads: nothing is started (and nothing cancelled) meanwhile.
    for (let i = 0; i < 100; i++) refresh();
    expect(started).toBe(1);
    runs[0]!();
    await settle();
    // One run after, for what arrived during the first.
    expect(started).toBe(2);
    runs[1]!();
    await settle();
    expect(started).toBe(2);
    // Quiet again: the next alert refreshes at once.
    refresh();
    expect(started).toBe(3);
  });

  it('a failed refresh does not stop the next one', async () => {
    let started = 0;
    const refresh = coalescedRefresh(() => {
      started++;
      return Promise.reject(new Error('offline'));
    });
    refresh();
    await settle();
    refresh();
    expect(started).toBe(2);
  });
});

describe('coalescedRefreshByKey', () => {
  it('shares one refresher per key between events, and keeps keys apart', async () => {
    const pending = new Map<string, (() => void)[]>();
    const refresh = coalescedRefreshByKey(
      (key) =>
        new Promise<void>((resolve) => {
          pending.set(key, [...(pending.get(key) ?? []), resolve]);
        }),
    );
    const started = (key: string) => pending.get(key)?.length ?? 0;
    // An alert: `showAlert` and `dataChanged('alerts')` both ask; a burst of them during the load starts nothing.
    for (let i = 0; i < 50; i++) {
      refresh('alerts');
      refresh('alerts');
    }
    expect(started('alerts')).toBe(1);
    // Another key is not held up by the alerts' refresh.
    refresh('geofences');
    expect(started('geofences')).toBe(1);
    pending.get('alerts')![0]!();
    await settle();
    expect(started('alerts')).toBe(2);
    expect(started('geofences')).toBe(1);
  });
});

describe('coalescedRefreshByKey with TanStack Query', () => {
  // TanStack cancels a refetch in flight when invalidated again, but our requests take no AbortSignal: each cancelled
  // refetch stays on the wire. Invalidating directly on every event put a request per event per alert query in the
  // browser's six connections, and a screen's first load queued behind them ("Loading alerts..." for 10 s in CI).
  it('a burst of live events makes at most one request in flight per query, and the list stays loaded', async () => {
    const client = new QueryClient();
    // Each load is answered by hand: what the test checks does not depend on how fast the machine is.
    const answers: (() => void)[] = [];
    let inFlight = 0;
    let mostInFlight = 0;
    const observer = new QueryObserver(client, {
      queryKey: ['alerts', 'page', 1],
      queryFn: async () => {
        const load = answers.length + 1;
        mostInFlight = Math.max(mostInFlight, ++inFlight);
        await new Promise<void>((resolve) => answers.push(resolve));
        inFlight--;
        return `page ${load}`;
      },
    });
    const seen: (string | undefined)[] = [];
    const unsubscribe = observer.subscribe((result) => seen.push(result.data));
    const refresh = coalescedRefreshByKey((key) => client.invalidateQueries({ queryKey: [key] }));
    // `showAlert` and `dataChanged('alerts')` for each of a burst of alerts.
    const burst = () => {
      for (let i = 0; i < 50; i++) {
        refresh('alerts');
        refresh('alerts');
      }
    };
    await settle();
    answers[0]!();
    await settle();
    expect(seen.at(-1)).toBe('page 1');
    burst();
    await settle();
    // One refresh for the burst; the next burst, during it, starts nothing and cancels nothing.
    expect(answers).toHaveLength(2);
    burst();
    await settle();
    expect(answers).toHaveLength(2);
    expect(seen.at(-1)).toBe('page 1');
    answers[1]!();
    await settle();
    // One more for the burst that came during the refresh, and then quiet.
    expect(answers).toHaveLength(3);
    answers[2]!();
    await settle();
    expect(answers).toHaveLength(3);
    expect(seen.at(-1)).toBe('page 3');
    expect(mostInFlight).toBe(1);
    unsubscribe();
    client.clear();
  });
});
