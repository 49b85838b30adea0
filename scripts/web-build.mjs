// Builds the web app (apps/web/dist) only when its inputs changed since the last build: a hash of the web app's and
// packages/shared's sources, the lock file and the VITE_* settings, kept beside the built index.html (decision 061).
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const webDist = path.join(root, 'apps/web/dist');
const stampFile = path.join(root, 'node_modules/.cache/prison-tracker/web-build.json');
const inputs = ['apps/web/src', 'apps/web/public', 'apps/web/index.html', 'apps/web/vite.config.ts', 'apps/web/package.json', 'packages/shared/src', 'package-lock.json'];

function filesUnder(relative) {
  const full = path.join(root, relative);
  if (!existsSync(full)) return [];
  return readdirSync(full, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)));
}

/**
 * The environment of a production build: the test hooks are never built into apps/web/dist, and a caller's NODE_ENV
 * (Vitest sets `test`) does not turn it into a development build.
 */
function productionEnv() {
  const { VITE_TEST_HOOKS: _hooks, NODE_ENV: _mode, ...env } = process.env;
  return env;
}

/** What the build is made of: every input file's path and content, and the build's VITE_* settings. */
export function webInputsHash(env = productionEnv()) {
  const hash = createHash('sha256');
  const files = inputs.flatMap((input) => (input.includes('.') ? [input] : filesUnder(input))).sort();
  for (const file of files) {
    const full = path.join(root, file);
    if (!existsSync(full)) continue;
    hash.update(`${file}\0`).update(readFileSync(full)).update('\0');
  }
  for (const name of Object.keys(env).filter((key) => key.startsWith('VITE_')).sort()) hash.update(`${name}=${env[name]}\0`);
  return hash.digest('hex');
}

const indexHash = () => createHash('sha256').update(readFileSync(path.join(webDist, 'index.html'))).digest('hex');

/** True when apps/web/dist is this build of these inputs (and not replaced since, e.g. by an e2e test build). */
export function webBuildIsCurrent(inputsHash = webInputsHash()) {
  if (!existsSync(stampFile) || !existsSync(path.join(webDist, 'index.html'))) return false;
  const stamp = JSON.parse(readFileSync(stampFile, 'utf8'));
  return stamp.inputs === inputsHash && stamp.index === indexHash();
}

/** Builds the web app unless it is current (or `force`); returns whether it built. Throws when the build fails. */
export function buildWebIfChanged({ force = false } = {}) {
  const inputsHash = webInputsHash();
  if (!force && webBuildIsCurrent(inputsHash)) {
    console.log('web app: unchanged since the last build (apps/web/dist)');
    return false;
  }
  console.log('web app: building apps/web/dist');
  const build = spawnSync('npm', ['run', 'build', '-w', '@prison/web'], { cwd: root, stdio: 'inherit', env: productionEnv() });
  if (build.status !== 0) throw new Error('the web build failed');
  mkdirSync(path.dirname(stampFile), { recursive: true });
  writeFileSync(stampFile, JSON.stringify({ inputs: inputsHash, index: indexHash() }));
  return true;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  try {
    buildWebIfChanged({ force: process.argv.includes('--force') });
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  }
}
