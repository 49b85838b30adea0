// `npm run release [-- --out DIR]`: one archive that installs and starts on a machine with Node and no registry
// (decision 061): the built web app, the compiled server, the production node_modules as installed here (native
// addons such as argon2 built for this OS, CPU and Node major, which the archive's name states), the deploy files
// and the documentation. Writes DIR/prison-tracker-VERSION-COMMIT-PLATFORM.tar.gz (DIR defaults to ./dist).
// Refuses, before building anything, a version with no CHANGELOG.md section and a document linking to a missing file.
import { execFileSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { assertChangelogHasVersion, linkedDocs } from './release-checks.mjs';

const root = path.resolve(import.meta.dirname, '..');
const { values } = parseArgs({ options: { out: { type: 'string', default: path.join(root, 'dist') } } });
const outDir = path.resolve(values.out);

let docs;
try {
  assertChangelogHasVersion(root);
  docs = linkedDocs(root);
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
}

// Imported only once the checks passed: they load the build tools.
const { buildServer, serverDist, serverEntries } = await import('./build-server.mjs');
const { buildWebIfChanged, webDist } = await import('./web-build.mjs');

execFileSync(process.execPath, [path.join(root, 'scripts/write-build-info.mjs')], { stdio: 'inherit' });
buildWebIfChanged();
const imported = await buildServer();

const { version, engines } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
const { commit } = JSON.parse(readFileSync(path.join(root, 'build-info.json'), 'utf8'));
const platform = `${process.platform}-${process.arch}-node${process.versions.node.split('.')[0]}`;
const name = `prison-tracker-${version}`;
const staging = path.join(root, '.tmp/release', name);
rmSync(staging, { recursive: true, force: true });
mkdirSync(staging, { recursive: true });
const copy = (from, to = from) => cpSync(path.join(root, from), path.join(staging, to), { recursive: true });

copy(path.relative(root, webDist));
copy(path.relative(root, serverDist));
// The docs every shipped document links to (README.md's links and the Markdown they reach), as in the checkout.
for (const file of new Set(['build-info.json', 'README.md', 'CHANGELOG.md', 'docs/DEPLOYMENT.md', 'docs/SECURITY.md', 'deploy', ...docs])) copy(file);

// The packages `npm ci --omit=dev` would install for the server and packages/shared, as installed here. Each is
// taken whole (its nested node_modules holds the versions it alone needs), so only the top-level folders are listed.
const listed = execFileSync('npm', ['ls', '--omit=dev', '--all', '--parseable', '-w', '@prison/server', '-w', '@prison/shared'], {
  cwd: root,
  encoding: 'utf8',
  maxBuffer: 64 * 1024 * 1024,
});
const packages = [...new Set(listed.split('\n').map((line) => path.relative(root, line.trim())))]
  .filter((dir) => /^node_modules\/(@[^/]+\/)?[^/@][^/]*$/.test(dir) && !dir.startsWith('node_modules/@prison/'))
  .sort();

// Every package the compiled code imports must be a production dependency (not a devDependency that happens to be
// installed here), or the archive would fail at its first start.
const missing = imported.filter((name) => !packages.includes(`node_modules/${name}`));
if (missing.length) {
  throw new Error(`the server imports ${missing.join(', ')}, not in the production dependencies of apps/server or packages/shared`);
}

const scriptNames = { server: 'start', 'audit-verify': 'audit:verify' };
const scripts = Object.fromEntries(Object.keys(serverEntries).map((entry) => [scriptNames[entry] ?? entry, `node apps/server/dist/${entry}.js`]));
writeFileSync(
  path.join(staging, 'package.json'),
  `${JSON.stringify({ name: 'prison-tracker', version, private: true, type: 'module', engines, platform, scripts }, null, 2)}\n`,
);
// The start script the systemd unit runs: no build, no registry; refuses a Node of another platform than the addons'.
writeFileSync(
  path.join(staging, 'start.sh'),
  `#!/bin/sh
# Starts the compiled server of this release (${platform}); settings come from the environment (README.md).
cd "$(dirname "$0")" || exit 1
running=$(node -p "process.platform + '-' + process.arch + '-node' + process.versions.node.split('.')[0]") || exit 1
if [ "$running" != "${platform}" ]; then
  echo "This release was built for ${platform}; this machine runs $running (rebuild it there: npm run release)" >&2
  exit 1
fi
exec node apps/server/dist/server.js "$@"
`,
);
chmodSync(path.join(staging, 'start.sh'), 0o755);

mkdirSync(outDir, { recursive: true });
const archive = path.join(outDir, `${name}-${commit}-${platform}.tar.gz`);
// The packages go into the archive straight from ./node_modules (no copy); every path under the folder NAME/.
execFileSync('tar', [
  '--use-compress-program=gzip -1',
  '-cf', archive,
  '--transform', `s,^\\.\\?/*,${name}/,S`,
  '-C', staging, '.',
  '-C', root, ...packages,
]);
rmSync(staging, { recursive: true, force: true });
if (!existsSync(archive)) throw new Error(`no archive written at ${archive}`);
console.log(`release: ${archive} (${packages.length} production packages)`);
