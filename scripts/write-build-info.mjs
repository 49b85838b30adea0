// Writes build-info.json at the repository root: the commit the build was made from, so an installed copy without
// .git still tells its version (apps/server/src/lib/version.ts, decision 059). Run by `npm run build`.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
let commit = 'unknown';
try {
  commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], {
    cwd: root,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  }).trim();
} catch {
  // Not a checkout: an earlier build-info.json (if any) is kept as it is.
  process.exit(0);
}
const { version } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
writeFileSync(
  path.join(root, 'build-info.json'),
  `${JSON.stringify({ version, commit, builtAt: new Date().toISOString() }, null, 2)}\n`,
);
console.log(`build-info.json: ${version} (${commit})`);
