// A server (or one of its commands) started as a process of the test's own on the embedded engine, with its output
// kept and its exit code awaited; every one a file started is killed by `killStartedServers` in its afterAll.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../../..');

export interface StartedServer {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

/** The children this test file started (each file has its own copy of this module). */
const started: ChildProcess[] = [];

/**
 * `node --import tsx script` in the repository, on its own embedded database unless `env` says otherwise; `umask`
 * runs it under that file-creation mask (through sh, which then execs node).
 */
export function startServerProcess(
  env: Record<string, string>,
  options: { script?: string[]; umask?: string } = {},
): StartedServer {
  const script = options.script ?? ['apps/server/src/server.ts'];
  const [command, args] = options.umask
    ? ['sh', ['-c', `umask ${options.umask} && exec "${process.execPath}" --import tsx ${script.join(' ')}`]]
    : [process.execPath, ['--import', 'tsx', ...script]];
  const child = spawn(command as string, args as string[], {
    cwd: root,
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      OSMAND_PORT: '0',
      DEMO: 'false',
      DATABASE_URL: '',
      REDIS_URL: '',
      LOG_LEVEL: 'warn',
      WEB_DIST: '', // the default (apps/web/dist, or none built): a WEB_DIST without the app is refused
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  started.push(child);
  let text = '';
  child.stdout!.on('data', (chunk) => (text += chunk));
  child.stderr!.on('data', (chunk) => (text += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => text, exited };
}

export function killStartedServers(): void {
  for (const child of started) child.kill('SIGKILL');
}
