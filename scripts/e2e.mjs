// `npm run test:e2e [-- playwright args]`: make sure Chromium is there, build the web app, run Playwright.
// E2E_PORT picks the server's port; each port builds into its own folder so parallel runs do not collide.
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const port = process.env.E2E_PORT ?? '3210';
const webDist = process.env.WEB_DIST ?? (process.env.E2E_PORT ? path.join(root, '.tmp', `web-dist-${port}`) : path.join(root, 'apps/web/dist'));

function run(command, args, env = {}, cwd = '.') {
  const result = spawnSync(command, args, { cwd: path.join(root, cwd), stdio: 'inherit', env: { ...process.env, ...env } });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

run('node', ['scripts/ensure-chromium.mjs']);
// A test build: keeps the test hooks a production build compiles out.
run('npx', ['vite', 'build', '--logLevel', 'warn', '--outDir', webDist, '--emptyOutDir'], { VITE_TEST_HOOKS: '1' }, 'apps/web');
run('npx', ['playwright', 'test', '-c', 'e2e/playwright.config.ts', ...process.argv.slice(2)], { WEB_DIST: webDist, E2E_PORT: port });
