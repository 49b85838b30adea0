// `npm run typecheck`: `tsc -p` for each TypeScript project, as many at once as the machine has cores. The projects
// emit nothing and read each other's sources, not builds, so they need no order; one after another took 70 s on two
// cores, as much as the lint before it. Each failed project's output is printed whole, after the others.
// `node scripts/typecheck.mjs DIR...` checks the named projects only.
import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
// The longest first (server 24 s, bench 16 s, web 15 s, e2e 7 s, shared 4 s alone), so that the last to start is short.
const ALL = ['apps/server', 'bench', 'apps/web', 'e2e', 'packages/shared'];
const PROJECTS = process.argv.length > 2 ? process.argv.slice(2) : ALL;

/** Runs `tsc -p project`; resolves to its exit code and everything it printed. */
function check(project) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(root, 'node_modules/typescript/bin/tsc'), '-p', project], {
      cwd: root,
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('close', (code) => resolve({ project, code: code ?? 1, output }));
  });
}

const waiting = [...PROJECTS];
const results = [];
await Promise.all(
  Array.from({ length: Math.min(availableParallelism(), waiting.length) }, async () => {
    while (waiting.length) results.push(await check(waiting.shift()));
  }),
);
const failed = results.filter((result) => result.code !== 0);
for (const { project, output } of failed) console.error(`\ntsc -p ${project} failed:\n${output}`);
console.log(`typecheck: ${PROJECTS.length - failed.length} of ${PROJECTS.length} projects clean`);
process.exit(failed.length ? 1 : 0);
