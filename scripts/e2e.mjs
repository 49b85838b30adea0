// `npm run test:e2e [-- playwright args]`: make sure Chromium is there, build the web app, run Playwright.
// E2E_PORT picks the server's port; each port builds into its own folder so parallel runs do not collide.
// The whole suite (no arguments) runs as E2E_SHARDS Playwright processes at once (default 2), each with a server,
// a data directory and ports of its own (E2E_PORT + 50 per shard): most of a spec's time is spent waiting for the
// server or the browser, so two shards nearly halve the run on two cores. A run given arguments is one process.
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const port = Number(process.env.E2E_PORT ?? '3210');
const webDist = process.env.WEB_DIST ?? (process.env.E2E_PORT ? path.join(root, '.tmp', `web-dist-${port}`) : path.join(root, 'apps/web/dist'));
const args = process.argv.slice(2);
const shards = args.length ? 1 : Math.max(1, Number(process.env.E2E_SHARDS ?? 2));
const SHARD_PORT_STEP = 50;

function run(command, commandArgs, env = {}, cwd = '.') {
  const result = spawnSync(command, commandArgs, { cwd: path.join(root, cwd), stdio: 'inherit', env: { ...process.env, ...env } });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

run('node', ['scripts/ensure-chromium.mjs']);
// A test build: keeps the test hooks a production build compiles out.
run('npx', ['vite', 'build', '--logLevel', 'warn', '--outDir', webDist, '--emptyOutDir'], { VITE_TEST_HOOKS: '1' }, 'apps/web');

const playwright = ['playwright', 'test', '-c', 'e2e/playwright.config.ts'];
if (shards === 1) {
  run('npx', [...playwright, ...args], { WEB_DIST: webDist, E2E_PORT: String(port) });
  process.exit(0);
}

// The JSON report test.mjs reads: each shard writes its own, merged below into the one it asked for.
const jsonOutput = process.env.PLAYWRIGHT_JSON_OUTPUT_NAME;
const shardJson = (index) => `${jsonOutput}.shard-${index}`;

/** Runs one shard; its lines are prefixed so two interleaved reporters stay readable. */
function runShard(index) {
  return new Promise((resolve) => {
    const env = { ...process.env, WEB_DIST: webDist, E2E_PORT: String(port + (index - 1) * SHARD_PORT_STEP) };
    if (jsonOutput) env.PLAYWRIGHT_JSON_OUTPUT_NAME = shardJson(index);
    const child = spawn('npx', [...playwright, `--shard=${index}/${shards}`], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    const prefix = (stream, out) => {
      let rest = '';
      stream.on('data', (chunk) => {
        const lines = (rest + chunk).split('\n');
        rest = lines.pop();
        for (const line of lines) out.write(`[${index}/${shards}] ${line}\n`);
      });
      stream.on('end', () => rest && out.write(`[${index}/${shards}] ${rest}\n`));
    };
    prefix(child.stdout, process.stdout);
    prefix(child.stderr, process.stderr);
    child.on('close', (code) => resolve(code ?? 1));
  });
}

const codes = await Promise.all(Array.from({ length: shards }, (_, i) => runShard(i + 1)));

if (jsonOutput) {
  const stats = { expected: 0, unexpected: 0, flaky: 0, skipped: 0 };
  for (let index = 1; index <= shards; index++) {
    try {
      const report = JSON.parse(readFileSync(shardJson(index), 'utf8'));
      for (const key of Object.keys(stats)) stats[key] += report.stats[key] ?? 0;
    } catch {
      // A shard that wrote no report failed before running; its exit code says so.
    }
  }
  writeFileSync(jsonOutput, JSON.stringify({ stats, shards }));
}
process.exit(codes.every((code) => code === 0) ? 0 : 1);
