// SIGTERM and SIGINT stop the server at any moment of its life, not only once it serves: server.ts imports this module
// first, so its handlers exist before any other module runs (one of them could otherwise add a listener of its own,
// which makes Node ignore the signal). What the start has opened so far is closed, newest first, then the process
// exits 0; past the grace it exits 1 anyway. No imports, so it is evaluated before everything else.

type Cleanup = () => unknown;
type Log = (fields: Record<string, unknown>, message: string) => void;

/** Past this, a stop that has not finished ends the process anyway (below systemd's TimeoutStopSec=30s). */
export const STOP_GRACE_MS = 15_000;

const cleanups: { name: string; run: Cleanup }[] = [];
let log: { info: Log; error: Log } = {
  // Before the logger exists: one JSON line as pino writes them, so log collectors read it alike.
  info: (fields, msg) => console.log(JSON.stringify({ level: 'info', time: new Date().toISOString(), ...fields, msg })),
  error: (fields, msg) => console.error(JSON.stringify({ level: 'error', time: new Date().toISOString(), ...fields, msg })),
};
let stopSignal: NodeJS.Signals | null = null;

/** True once a stop signal arrived: a start step that fails now failed because of the stop, not on its own. */
export function stopRequested(): boolean {
  return stopSignal !== null;
}

/** The stop logs through the application's logger from here on. */
export function logStopWith(logger: { info: Log; error: Log }): void {
  log = logger;
}

/**
 * `run` is part of the stop from now on (the last added runs first). Added while a stop runs, it still runs in it:
 * a database whose opening finished after the signal is closed too.
 */
export function onStop(name: string, run: Cleanup): void {
  cleanups.push({ name, run });
}

/**
 * Resolves with `work`'s value, or never when a stop began meanwhile: the start goes no further than the step it was
 * in, and the stop ends the process. A step that fails because the stop closed what it used is no failed start.
 */
export async function startStep<T>(work: Promise<T> | T): Promise<T> {
  let value: T;
  try {
    value = await work;
  } catch (error) {
    if (stopRequested()) return new Promise<never>(() => undefined);
    throw error;
  }
  if (stopRequested()) return new Promise<never>(() => undefined);
  return value;
}

async function stop(signal: NodeJS.Signals): Promise<void> {
  if (stopSignal) return; // a second signal: the first stop is under way, and the grace bounds it
  stopSignal = signal;
  log.info({ signal }, 'shutting down: no new requests, finishing in-flight work');
  setTimeout(() => {
    log.error({ signal, graceMs: STOP_GRACE_MS }, 'shutdown did not finish within the grace: exiting');
    process.exit(1);
  }, STOP_GRACE_MS).unref();
  let failed = false;
  for (let cleanup = cleanups.pop(); cleanup; cleanup = cleanups.pop()) {
    try {
      await cleanup.run();
    } catch (error) {
      failed = true;
      log.error({ err: error, step: cleanup.name }, 'shutdown step failed');
    }
  }
  process.exit(failed ? 1 : 0);
}

for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => void stop(signal));
