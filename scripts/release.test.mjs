// `npm run release` makes an archive that installs and starts with no registry (decision 061): it is extracted into a
// temporary folder outside the checkout (no node_modules above it to borrow from), started by its start.sh with npm
// set offline and an unreachable registry, a fresh data folder and no demo; it becomes ready, logs the first
// administrator in through the API and serves the web app. Its compiled server, CLIs and migrations are checked too.
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { linkedDocs } from './release-checks.mjs';

const root = path.resolve(import.meta.dirname, '..');
const run = promisify(execFile);
const work = mkdtempSync(path.join(os.tmpdir(), 'prison-release-'));
let installed = '';

/** A port nothing listens on now (the OS picks it). */
const freePort = () =>
  new Promise((resolve, reject) => {
    const probe = createServer().once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });

/** npm and Node with no way to reach a registry, and nothing of the test runner's environment. */
const offlineEnv = (settings) => ({
  PATH: process.env.PATH,
  HOME: work,
  npm_config_offline: 'true',
  npm_config_registry: 'http://127.0.0.1:9/',
  npm_config_cache: path.join(work, 'npm-cache'),
  ...settings,
});

async function waitForReady(url, ms) {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    const answer = await fetch(url).catch(() => null);
    if (answer?.status === 200) return answer.json();
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`timed out waiting for ${url}`);
}

beforeAll(async () => {
  const out = path.join(work, 'out');
  // The web app is built only when its sources changed since the last build, so this is quick on a built checkout.
  await run('npm', ['run', 'release', '--', '--out', out], { cwd: root, maxBuffer: 64 * 1024 * 1024 });
  const [archive] = readdirSync(out).filter((name) => name.endsWith('.tar.gz'));
  expect(archive).toMatch(/^prison-tracker-[\d.]+-\w+-linux-\w+-node\d+\.tar\.gz$/);
  const target = path.join(work, 'install');
  await run('mkdir', ['-p', target]);
  await run('tar', ['-xzf', path.join(out, archive), '-C', target]);
  rmSync(out, { recursive: true, force: true });
  const [folder] = readdirSync(target);
  installed = path.join(target, folder);
}, 300_000);

afterAll(() => rmSync(work, { recursive: true, force: true }), 120_000);

describe('the release archive', () => {
  it('holds the compiled server and tools, every migration, the built web app and the deploy files', () => {
    for (const entry of ['server', 'admin', 'backup', 'restore', 'simulate', 'audit-verify']) {
      expect(existsSync(path.join(installed, `apps/server/dist/${entry}.js`)), entry).toBe(true);
    }
    const journal = (dir) => JSON.parse(readFileSync(path.join(dir, 'meta/_journal.json'), 'utf8')).entries.map((e) => e.tag);
    const shipped = path.join(installed, 'apps/server/dist/migrations');
    expect(journal(shipped)).toEqual(journal(path.join(root, 'apps/server/src/db/migrations')));
    for (const tag of journal(shipped)) expect(existsSync(path.join(shipped, `${tag}.sql`)), tag).toBe(true);
    expect(existsSync(path.join(installed, 'apps/web/dist/index.html'))).toBe(true);
    for (const file of ['start.sh', 'build-info.json', 'deploy/prison-tracker.service', 'deploy/nginx-tls.conf', 'deploy/grafana-dashboard.json', 'docs/DEPLOYMENT.md']) {
      expect(existsSync(path.join(installed, file)), file).toBe(true);
    }
    // No TypeScript source and no development package: what runs is what was compiled, with production packages.
    expect(existsSync(path.join(installed, 'apps/server/src'))).toBe(false);
    for (const dev of ['typescript', 'tsx', 'vitest', 'esbuild', 'vite', 'eslint', '@playwright/test', 'oidc-provider']) {
      expect(existsSync(path.join(installed, 'node_modules', dev)), dev).toBe(false);
    }
    expect(existsSync(path.join(installed, 'node_modules/@node-rs/argon2'))).toBe(true);
  });

  it('holds every document its README links to, and a CHANGELOG section for its version', () => {
    for (const doc of linkedDocs(root)) expect(existsSync(path.join(installed, doc)), doc).toBe(true);
    const { version } = JSON.parse(readFileSync(path.join(installed, 'package.json'), 'utf8'));
    expect(readFileSync(path.join(installed, 'CHANGELOG.md'), 'utf8')).toMatch(new RegExp(`^## \\[${version.replaceAll('.', '\\.')}\\] - \\d{4}-\\d{2}-\\d{2}$`, 'm'));
  });

  it('starts offline from start.sh, migrates a new database, logs the first admin in and serves the web app', async () => {
    const [port, osmandPort] = [await freePort(), await freePort()];
    const env = offlineEnv({
      DATA_DIR: path.join(work, 'data'),
      DEMO: 'false',
      HOST: '127.0.0.1',
      PORT: String(port),
      OSMAND_PORT: String(osmandPort),
      ADMIN_USERNAME: 'installer',
      ADMIN_PASSWORD: 'a release passphrase of some length',
      LOG_LEVEL: 'warn',
    });
    const server = spawn(path.join(installed, 'start.sh'), [], { cwd: work, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    server.stdout.on('data', (chunk) => (output += chunk));
    server.stderr.on('data', (chunk) => (output += chunk));
    const exited = new Promise((resolve) => server.once('exit', resolve));
    try {
      const ready = await Promise.race([
        // Seconds on an idle machine; minutes when many test runs share its two cores.
        waitForReady(`http://127.0.0.1:${port}/readyz`, 240_000).catch((error) => Promise.reject(new Error(`${error.message}: ${output}`))),
        exited.then((code) => Promise.reject(new Error(`the server exited (${code}): ${output}`))),
      ]);
      const { version } = JSON.parse(readFileSync(path.join(installed, 'package.json'), 'utf8'));
      expect(ready).toMatchObject({ status: 'ready', version });

      const login = await fetch(`http://127.0.0.1:${port}/api/v1/admin/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'installer', password: 'a release passphrase of some length' }),
      });
      expect(login.status, await login.clone().text()).toBe(200);
      expect(login.headers.get('set-cookie')).toMatch(/^auth-token=/);

      const page = await fetch(`http://127.0.0.1:${port}/live-map`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain(`name="prison-version" content="${version}`);
    } finally {
      server.kill('SIGTERM');
      await exited;
    }
    expect(server.exitCode === 0 || server.signalCode === 'SIGTERM', output).toBe(true);
  }, 300_000);

  it('runs its compiled admin tool through npm, offline', async () => {
    const env = offlineEnv({ DATA_DIR: path.join(work, 'data'), DEMO: 'false', LOG_LEVEL: 'warn' });
    const { stdout, stderr } = await run('npm', ['run', 'admin', '--', 'create', 'second', 'another release passphrase 7'], { cwd: installed, env });
    expect(stdout + stderr).toContain('Admin second created');
  }, 240_000);

  it('verifies its audit trail through npm run audit:verify, offline: the server, the admin tool and the key file agree', async () => {
    const env = offlineEnv({ DATA_DIR: path.join(work, 'data'), DEMO: 'false', LOG_LEVEL: 'warn' });
    const { stdout } = await run('npm', ['run', 'audit:verify'], { cwd: installed, env });
    expect(stdout).toContain('The audit chain is intact');
  }, 240_000);
});
