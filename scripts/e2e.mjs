// `npm run test:e2e [-- playwright args]`: make sure Chromium is there, build the web app, run Playwright.
// E2E_PORT picks the server's port; each port builds into its own folder so parallel runs do not collide.
// The whole suite (no arguments) runs as E2E_SHARDS Playwright processes at once (default 2), each with a server,
// a data directory and ports of its own (E2E_PORT + 50 per shard): most of a spec's time is spent waiting for the
// server or the browser, so two shards nearly halve the run on two cores. The spec files are split by their recorded
// running time (e2e-shards.mjs, e2e/spec-durations.json; decision 078), and each full run writes the times it took to
// .tmp/e2e-durations.json for the next refresh of that file. A run given arguments is one process.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { durationsFromReports, fileFilter, planShards, readDurations, specFiles } from './e2e-shards.mjs';
import { eachLine } from './stream-lines.mjs';

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

// Each shard writes its own report, merged below into the one test.mjs asked for and read for the next durations.
const tmp = path.join(root, '.tmp');
mkdirSync(tmp, { recursive: true });
const jsonOutput = process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ?? path.join(tmp, `playwright-results-${port}.json`);
const shardJson = (index) => `${jsonOutput}.shard-${index}`;
const plan = planShards(specFiles(path.join(root, 'e2e/specs')), readDurations(path.join(root, 'e2e/spec-durations.json')), shards);

/** Runs one shard; its lines are prefixed so two interleaved reporters stay readable. */
function runShard(index) {
  // No files (more shards than specs): nothing to start, and Playwright given no file would run them all.
  if (plan[index - 1].length === 0) return Promise.resolve(0);
  return new Promise((resolve) => {
    const env = { ...process.env, WEB_DIST: webDist, E2E_PORT: String(port + (index - 1) * SHARD_PORT_STEP), PLAYWRIGHT_JSON_OUTPUT_NAME: shardJson(index) };
    const child = spawn('npx', [...playwright, ...plan[index - 1].map(fileFilter)], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    eachLine(child.stdout, (line) => process.stdout.write(`[${index}/${shards}] ${line}\n`));
    eachLine(child.stderr, (line) => process.stderr.write(`[${index}/${shards}] ${line}\n`));
    child.on('close', (code) => resolve(code ?? 1));
  });
}

const codes = await Promise.all(Array.from({ length: shards }, (_, i) => runShard(i + 1)));

const stats = { expected: 0, unexpected: 0, flaky: 0, skipped: 0 };
const reports = [];
for (let index = 1; index <= shards; index++) {
  try {
    const report = JSON.parse(readFileSync(shardJson(index), 'utf8'));
    reports.push(report);
    for (const key of Object.keys(stats)) stats[key] += report.stats[key] ?? 0;
  } catch {
    // A shard that wrote no report failed before running (its exit code says so), or had no files.
  }
}
writeFileSync(jsonOutput, JSON.stringify({ stats, shards }));
writeFileSync(path.join(tmp, 'e2e-durations.json'), `${JSON.stringify(durationsFromReports(reports), null, 2)}\n`);
process.exit(codes.every((code) => code === 0) ? 0 : 1);
