// Compiles the server and its command-line tools to JavaScript in apps/server/dist (decision 061): esbuild bundles our
// own code (apps/server and packages/shared, which is TypeScript source) and leaves every npm package external, so
// `node apps/server/dist/server.js` runs with the production node_modules only. One file per entry, no shared chunks:
// code that finds files from its own location (import.meta.url) then sits in apps/server/dist, as the SQL
// migrations copied there expect.
import { cpSync, rmSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const serverDist = path.join(root, 'apps/server/dist');
const source = path.join(root, 'apps/server/src');

/** Output name: source file. */
export const serverEntries = {
  server: 'server.ts',
  admin: 'cli/admin.ts',
  backup: 'cli/backup.ts',
  restore: 'cli/restore.ts',
  'audit-verify': 'cli/audit-verify.ts',
  simulate: 'simulator/cli.ts',
};

/**
 * npm packages stay imports (resolved from node_modules at run time); our workspaces are compiled in, and so is JSON
 * data imported from a package (Node would ask for an import attribute the sources do not write).
 */
const npmPackagesExternal = {
  name: 'npm-packages-external',
  setup(builder) {
    builder.onResolve({ filter: /^[^./]/ }, (args) => (args.path.startsWith('@prison/') || args.path.endsWith('.json') ? undefined : { path: args.path, external: true }));
  },
};

/** The npm packages the compiled files import (`zod`, `@fastify/static`), from esbuild's record of the build. */
function importedPackages(metafile) {
  const names = new Set();
  for (const output of Object.values(metafile.outputs)) {
    for (const { path: specifier, external } of output.imports) {
      if (!external || specifier.startsWith('node:') || builtinModules.includes(specifier)) continue;
      const parts = specifier.split('/');
      names.add(specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]);
    }
  }
  return [...names].sort();
}

/** Compiles apps/server/dist; returns the npm packages it imports at run time. */
export async function buildServer() {
  rmSync(serverDist, { recursive: true, force: true });
  const { metafile } = await build({
    entryPoints: Object.fromEntries(Object.entries(serverEntries).map(([name, file]) => [name, path.join(source, file)])),
    outdir: serverDist,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    plugins: [npmPackagesExternal],
    logLevel: 'warning',
    metafile: true,
  });
  // db/client.ts finds its migrations beside itself: in the bundle, beside the entry files.
  cpSync(path.join(source, 'db/migrations'), path.join(serverDist, 'migrations'), { recursive: true });
  console.log(`server: compiled to ${path.relative(root, serverDist)} (${Object.keys(serverEntries).join(', ')})`);
  return importedPackages(metafile);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await buildServer();
