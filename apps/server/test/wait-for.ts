// Polling for what a test waits on (a server process ready, a notification arrived), shared by the tests that start
// processes or clusters of their own.
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Resolves once `check` answers true (a throw counts as false); throws "timed out waiting for WHAT" after `ms`. */
export async function waitFor(what: string, check: () => boolean | Promise<boolean>, ms = 15_000, everyMs = 100): Promise<void> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await Promise.resolve().then(check).catch(() => false)) return;
    await sleep(everyMs);
  }
  throw new Error(`timed out waiting for ${what}`);
}
