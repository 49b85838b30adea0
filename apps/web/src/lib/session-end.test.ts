// Why a session ended must survive the reload to /login, and be shown once (decision 012).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const REASON = 'Your account was disabled by another administrator.';
/** The tab's sessionStorage, kept across the "documents" (module loads) of one test, as a browser keeps it. */
let storage: Map<string, string>;
const assigned: string[] = [];

/** A fresh document of the same tab: the module's state starts over, sessionStorage does not. */
async function loadDocument() {
  vi.resetModules();
  return import('./session-end');
}

beforeEach(() => {
  storage = new Map();
  assigned.length = 0;
  vi.stubGlobal('sessionStorage', {
    getItem: (key: string) => storage.get(key) ?? null,
    setItem: (key: string, value: string) => void storage.set(key, value),
    removeItem: (key: string) => void storage.delete(key),
  });
  vi.stubGlobal('window', { location: { assign: (url: string) => assigned.push(url) } });
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the reason a session ended', () => {
  it("is still there for the reloaded login page when the leaving page's router showed its own login page first", async () => {
    const leaving = await loadDocument();
    leaving.leaveForLogin(REASON);
    expect(assigned).toEqual(['/login']);
    // Before the reload lands, the old document's guard mounts its login page, which shows the reason and forgets it.
    expect(leaving.sessionEndMessage()).toBe(REASON);
    leaving.forgetSessionEnd();

    const reloaded = await loadDocument();
    expect(reloaded.sessionEndMessage()).toBe(REASON);
    reloaded.forgetSessionEnd();
    expect(reloaded.sessionEndMessage()).toBeNull(); // a reload of /login no longer shows it

    const again = await loadDocument();
    expect(again.sessionEndMessage()).toBeNull();
  });

  it('found by the session check is shown by the login page of the same document, once', async () => {
    const page = await loadDocument();
    page.rememberSessionEnd(REASON); // verify-token's 401: the guards go to /login without a reload
    expect(page.sessionEndMessage()).toBe(REASON);
    page.forgetSessionEnd();
    expect(page.sessionEndMessage()).toBeNull();
  });

  it('is not stored when the user logs out on purpose', async () => {
    const page = await loadDocument();
    page.markLoggingOut();
    page.leaveForLogin(REASON);
    page.rememberSessionEnd(REASON);
    expect(storage.size).toBe(0);
    expect(assigned).toEqual([]);
  });
});
