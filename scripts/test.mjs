// `npm test`: lint, type checks, unit and integration tests (Vitest), end-to-end tests (Playwright),
// then one closing line "N passed, N failed, N skipped" summing every test and every failed step.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const tmp = path.join(root, '.tmp');
mkdirSync(tmp, { recursive: true });
const vitestJson = path.join(tmp, 'vitest-results.json');
const playwrightJson = path.join(tmp, 'playwright-results.json');
rmSync(vitestJson, { force: true });
rmSync(playwrightJson, { force: true });

const only = process.argv[2]; // `npm test -- unit` or `npm test -- e2e` runs one part
let passed = 0;
let failed = 0;
let skipped = 0;
const failedSteps = [];

function run(name, command, args, env = {}) {
  console.log(`\n=== ${name}: ${command} ${args.join(' ')}`);
  const started = Date.now();
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  console.log(`=== ${name}: ${result.status === 0 ? 'ok' : 'FAILED'} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  if (result.status !== 0) failedSteps.push(name);
  return result.status === 0;
}

function readJson(file) {
  return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : null;
}

const steps = {
  lint: () => (run('lint', 'npm', ['run', 'lint']) ? passed++ : failed++),
  typecheck: () => (run('typecheck', 'npm', ['run', 'typecheck']) ? passed++ : failed++),
  unit: () => {
    const ok = run('unit and integration', 'npx', ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${vitestJson}`]);
    const report = readJson(vitestJson);
    if (report) {
      passed += report.numPassedTests;
      failed += report.numFailedTests;
      skipped += report.numPendingTests + report.numTodoTests;
      // A file that failed to load has no failed test but must still count.
      const brokenFiles = report.testResults.filter((file) => file.status === 'failed' && file.assertionResults.length === 0).length;
      failed += brokenFiles;
    } else if (!ok) failed++;
  },
  e2e: () => {
    const ok = run('end-to-end', 'npm', ['run', 'test:e2e'], { PLAYWRIGHT_JSON_OUTPUT_NAME: playwrightJson });
    const report = readJson(playwrightJson);
    if (report) {
      passed += report.stats.expected + report.stats.flaky;
      failed += report.stats.unexpected;
      skipped += report.stats.skipped;
      if (!ok && report.stats.unexpected === 0) failed++;
    } else if (!ok) failed++;
  },
};

const selected = only ? [only] : ['lint', 'typecheck', 'unit', 'e2e'];
for (const name of selected) {
  if (!steps[name]) {
    console.error(`Unknown part "${name}"; choose one of ${Object.keys(steps).join(', ')}`);
    process.exit(2);
  }
  steps[name]();
}

if (failedSteps.length) console.log(`\nFailed steps: ${failedSteps.join(', ')}`);
console.log(`\n${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failedSteps.length || failed ? 1 : 0);
