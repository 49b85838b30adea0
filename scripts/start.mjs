// `npm start`: builds the web app if its sources changed, then runs the server, as one process that a supervisor can
// stop. npm runs a script through a shell, which neither passes SIGTERM on nor waits for it: killing `npm start` left
// the server orphaned, holding its port and data/server.lock. So the script is `exec node scripts/start.mjs` (the shell
// becomes this process, which npm signals), and this process runs each step in a process group of its own, passes
// SIGTERM and SIGINT to that whole group (the build's npm, shell and vite included), and exits with the server's status.
import { spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
/** After the server's own grace (15 s), what is still running is killed. */
const KILL_AFTER_MS = 20_000;

const steps = [
  { name: 'web build', args: ['scripts/web-build.mjs'] },
  { name: 'server', args: ['--import', 'tsx', 'apps/server/src/server.ts', ...process.argv.slice(2)] },
];

let running = null;
let stopSignal = null;

function signalGroup(child, signal) {
  try {
    process.kill(-child.pid, signal); // the step and everything it started
  } catch {
    // the group is gone already
  }
}

function stop(signal) {
  if (stopSignal) return; // one stop: a terminal's Ctrl-C reaches npm and this process both
  stopSignal = signal;
  if (!running) process.exit(0);
  signalGroup(running, signal);
  setTimeout(() => signalGroup(running, 'SIGKILL'), KILL_AFTER_MS).unref();
}

// Before any step starts, so a signal at any moment is passed on.
process.on('SIGTERM', () => stop('SIGTERM'));
process.on('SIGINT', () => stop('SIGINT'));

/** Runs one step; resolves with its exit status (128 + the signal's number when a signal ended it). */
function run(step) {
  return new Promise((resolve) => {
    // detached: a process group of its own, which the stop signals as a whole. stdin is not the terminal's: a group
    // in the background that read it would be stopped.
    const child = spawn(process.execPath, step.args, { cwd: root, stdio: ['ignore', 'inherit', 'inherit'], detached: true });
    running = child;
    child.once('error', (error) => {
      console.error(`npm start: cannot run the ${step.name}: ${error.message}`);
      resolve(1);
    });
    child.once('exit', (code, signal) => {
      // The group may hold what the step started and left behind (a build's helper): it goes with the step.
      signalGroup(child, 'SIGKILL');
      running = null;
      resolve(code ?? 128 + (signal ? (os.constants.signals[signal] ?? 0) : 0));
    });
  });
}

for (const step of steps) {
  const status = await run(step);
  // Stopped on request: a step that ended because of it ended as asked.
  if (stopSignal) process.exit(step.name === 'server' ? status : 0);
  if (status !== 0) process.exit(status);
}
