import { afterEach, describe, expect, it, vi } from 'vitest';
import { isDatabaseUnavailable, reportApiStatus, reportServerDatabaseStatus } from './service-status';

afterEach(() => {
  reportServerDatabaseStatus('ok');
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('the database outage banner state', () => {
  it('follows the server: unavailable shows it, ok hides it (also after API 503s)', () => {
    expect(isDatabaseUnavailable()).toBe(false);
    reportServerDatabaseStatus('unavailable');
    expect(isDatabaseUnavailable()).toBe(true);
    reportApiStatus(503);
    reportServerDatabaseStatus('ok');
    expect(isDatabaseUnavailable()).toBe(false);
  });

  it('shows on an API 503 and hides on a later success, or when /readyz answers again', async () => {
    vi.useFakeTimers();
    let ready = false;
    vi.stubGlobal('fetch', async (url: string) => ({ ok: url === '/readyz' && ready }));
    reportApiStatus(503);
    expect(isDatabaseUnavailable()).toBe(true);
    reportApiStatus(400); // a refusal does not prove the database is back
    expect(isDatabaseUnavailable()).toBe(true);
    reportApiStatus(200);
    expect(isDatabaseUnavailable()).toBe(false);

    reportApiStatus(503);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(isDatabaseUnavailable()).toBe(true);
    ready = true;
    await vi.advanceTimersByTimeAsync(5_000);
    expect(isDatabaseUnavailable()).toBe(false);
  });
});
