// Waiting for a child process to exit, with SIGKILL once a grace is over: shared by the Vitest kit (cluster-kit.ts,
// stopChild) and the end-to-end specs' own servers (e2e/own-server.ts). No Vitest import, so Playwright can load it.
import type { ChildProcess } from 'node:child_process';

/** Resolves when the process has exited; SIGKILL after `graceMs`. */
export function exited(child: ChildProcess, graceMs = 20_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.once('exit', () => {
      clearTimeout(force);
      resolve();
    });
  });
}

/** Sends `signal` and resolves once the process has exited; SIGKILL after `graceMs` if it has not. */
export async function stopProcess(child: ChildProcess, signal: NodeJS.Signals, graceMs: number): Promise<void> {
  const stopping = exited(child, graceMs);
  child.kill(signal);
  await stopping;
}
