// A real server process of a spec's own, for what the run's shared server must not do (be stopped, run with another
// setting). The same settings as the Playwright webServer (playwright.config.ts), on the spec's own ports.
import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { keyFilePath } from '../apps/server/src/lib/secret-key';
import { exited, stopProcess } from '../apps/server/test/child-exit';
import { E2E_ADMIN } from './fixtures';

export { exited };

const root = path.resolve(import.meta.dirname, '..');

/** Starts `apps/server/src/server.ts` on `port` (OsmAnd on port + 1) with its own data directory. */
export function spawnOwnServer(port: number, dataDir: string, env: Record<string, string> = {}): ChildProcess {
  // `node --import tsx`, not `npx tsx`: a signal reaches the server itself, not a wrapper.
  return spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/server.ts'], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      OSMAND_PORT: String(port + 1),
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      DEMO: 'false',
      // The specs post OsmAnd fixes by device id (decision 038: the setting is on by default).
      DEVICE_SECRET_REQUIRED: 'false',
      ADMIN_USERNAME: E2E_ADMIN.username,
      ADMIN_PASSWORD: E2E_ADMIN.password,
      LOG_LEVEL: 'warn',
      MAP_TILE_URL: 'http://127.0.0.1:9/{z}/{x}/{y}.png',
      LOGIN_RATE_LIMIT_PER_MINUTE: '10000',
      E2E: '1',
      // The page is served by this server itself: same origin, no ALLOWED_ORIGINS needed.
      ALLOWED_ORIGINS: '',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

/** Resolves when `base`/readyz answers; throws when the process exits first or 120 s pass. */
export async function waitReady(base: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const ready = await fetch(`${base}/readyz`).then(
      (res) => res.ok,
      () => false,
    );
    if (ready) return;
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`the server for ${base} did not start`);
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
}

/**
 * A spec's afterAll: stops its own server (SIGTERM, SIGKILL after `graceMs`) and removes its data directory and the
 * key file the server keeps beside it. Also when the test failed half-way: the spawned server never outlives the run.
 */
export async function stopOwnServer(child: ChildProcess | undefined, dataDir: string, graceMs = 20_000): Promise<void> {
  if (child) await stopProcess(child, 'SIGTERM', graceMs);
  if (!dataDir) return;
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(keyFilePath(dataDir), { force: true });
}
