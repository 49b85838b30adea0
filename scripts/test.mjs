// `npm test`: lint, type checks, every Vitest tier (fast, integration, postgres, system; scripts/test-tiers.mjs) and the
// end-to-end tests (Playwright), then one closing line "N passed, N failed, N skipped" summing every test and every
// failed step. `npm run test:fast` (`--fast`): lint and type checks of what changed, then the fast and integration
// tiers only: the loop a developer runs before every commit.
import { spawn, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { eachLine } from './stream-lines.mjs';

const root = path.resolve(import.meta.dirname, '..');
const tmp = path.join(root, '.tmp');
mkdirSync(tmp, { recursive: true });
const vitestJson = path.join(tmp, 'vitest-results.json');
const playwrightJson = path.join(tmp, 'playwright-results.json');
rmSync(vitestJson, { force: true });
rmSync(playwrightJson, { force: true });

const fastLoop = process.argv.includes('--fast');
const only = process.argv.slice(2).find((arg) => !arg.startsWith('--')); // `npm test -- unit` or `npm test -- e2e` runs one part
const runStarted = Date.now();
let passed = 0;
let failed = 0;
let skipped = 0;
const failedSteps = [];

// CI shows only the end of a run: a failed step's last lines are printed again just before the closing line,
// so the reason (Vitest's "Unhandled Errors", a failed test's diff) is there to read.
const TAIL_LINES = 150;
const tails = new Map();

function run(name, command, args, env = {}) {
  console.log(`\n=== ${name}: ${command} ${args.join(' ')}`);
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, stdio: ['inherit', 'pipe', 'pipe'], env: { ...process.env, ...env } });
    const lines = [];
    const keep = (line) => {
      lines.push(line);
      if (lines.length > TAIL_LINES * 2) lines.splice(0, lines.length - TAIL_LINES);
    };
    eachLine(child.stdout, keep);
    eachLine(child.stderr, keep);
    // Passed through as it comes, not line by line: a progress line without its newline shows at once.
    child.stdout.on('data', (chunk) => process.stdout.write(chunk));
    child.stderr.on('data', (chunk) => process.stderr.write(chunk));
    child.on('close', (status) => {
      console.log(`=== ${name}: ${status === 0 ? 'ok' : 'FAILED'} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
      if (status !== 0) {
        failedSteps.push(name);
        tails.set(name, lines.slice(-TAIL_LINES));
      }
      resolve(status === 0);
    });
  });
}

function readJson(file) {
  return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : null;
}

/** Files changed against main (committed on this branch, staged, unstaged or new), relative to the root. */
function changedFiles() {
  const git = (...args) => execFileSync('git', args, { cwd: root, encoding: 'utf8' }).split('\n').filter(Boolean);
  let base = 'HEAD';
  try {
    base = git('merge-base', 'HEAD', 'main')[0] ?? 'HEAD';
  } catch {
    // No main branch here (a detached CI checkout): what is not committed is the change.
  }
  const files = new Set([...git('diff', '--name-only', base), ...git('ls-files', '--others', '--exclude-standard')]);
  return [...files].filter((file) => existsSync(path.join(root, file)));
}

const TYPED_PROJECTS = ['apps/server', 'apps/web', 'packages/shared', 'bench', 'e2e'];
const LINTED = /\.(ts|tsx|mjs|js)$/;

function lintStep() {
  if (!fastLoop) return run('lint', 'npm', ['run', 'lint']);
  const files = changedFiles().filter((file) => LINTED.test(file));
  if (files.length === 0) return console.log('\n=== lint: nothing changed'), true;
  return run('lint (changed files)', 'npx', ['eslint', '--max-warnings=0', '--no-warn-ignored', ...files]);
}

function typecheckStep() {
  if (!fastLoop) return run('typecheck', 'npm', ['run', 'typecheck']);
  const changed = changedFiles();
  // The shared contract is read by every project, so a change to it checks them all.
  const projects = changed.some((file) => file.startsWith('packages/shared/'))
    ? TYPED_PROJECTS
    : TYPED_PROJECTS.filter((project) => changed.some((file) => file.startsWith(`${project}/`)));
  if (projects.length === 0) return console.log('\n=== typecheck: nothing changed'), true;
  return run('typecheck (changed projects)', 'node', ['scripts/typecheck.mjs', ...projects]);
}

const vitestTiers = fastLoop ? ['--project', 'fast', '--project', 'integration'] : [];

const steps = {
  lint: async () => ((await lintStep()) ? passed++ : failed++),
  typecheck: async () => ((await typecheckStep()) ? passed++ : failed++),
  unit: async () => {
    // One production build of the web app for every test that needs it (the production-build and release tests),
    // made here so that two of them in parallel never build it at once.
    if (!fastLoop && !(await run('web build', 'node', ['scripts/web-build.mjs']))) return failed++;
    const name = fastLoop ? 'fast and integration tiers' : 'every Vitest tier';
    const ok = await run(name, 'npx', ['vitest', 'run', ...vitestTiers, '--reporter=default', '--reporter=json', `--outputFile.json=${vitestJson}`]);
    const report = readJson(vitestJson);
    if (report) {
      passed += report.numPassedTests;
      failed += report.numFailedTests;
      skipped += report.numPendingTests + report.numTodoTests;
      // A file that failed to load has no failed test but must still count.
      const brokenFiles = report.testResults.filter((file) => file.status === 'failed' && file.assertionResults.length === 0).length;
      failed += brokenFiles;
      // Vitest also fails a run for an error outside any test (an unhandled rejection): that counts once.
      if (!ok && report.numFailedTests + brokenFiles === 0) failed++;
    } else if (!ok) failed++;
  },
  e2e: async () => {
    const ok = await run('end-to-end', 'npm', ['run', 'test:e2e'], { PLAYWRIGHT_JSON_OUTPUT_NAME: playwrightJson });
    const report = readJson(playwrightJson);
    if (report) {
      passed += report.stats.expected + report.stats.flaky;
      failed += report.stats.unexpected;
      skipped += report.stats.skipped;
      if (!ok && report.stats.unexpected === 0) failed++;
    } else if (!ok) failed++;
  },
};

// The lint and the type checks run at once: together they keep both cores busy, and neither reads the other's output.
const groups = only ? [[only]] : fastLoop ? [['lint', 'typecheck'], ['unit']] : [['lint', 'typecheck'], ['unit'], ['e2e']];
for (const group of groups) {
  for (const name of group) {
    if (!steps[name]) {
      console.error(`Unknown part "${name}"; choose one of ${Object.keys(steps).join(', ')}`);
      process.exit(2);
    }
  }
  await Promise.all(group.map((name) => steps[name]()));
}

for (const [name, lines] of tails) console.log(`\n=== the last ${lines.length} lines of ${name}:\n${lines.join('\n')}`);
if (failedSteps.length) console.log(`\nFailed steps: ${failedSteps.join(', ')}`);
console.log(`\n${passed} passed, ${failed} failed, ${skipped} skipped${fastLoop ? ` in ${((Date.now() - runStarted) / 1000).toFixed(0)} s (fast loop: no postgres, system or end-to-end tier)` : ''}`);
process.exit(failedSteps.length || failed ? 1 : 0);
