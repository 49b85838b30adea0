// bench/bundle: the JavaScript a browser loads for the first screen (`/` and `/login`), from a production build of
// the current tree. The first screen is the entry script index.html loads plus every chunk it imports statically
// (Vite preloads those with modulepreload links); chunks imported dynamically (the lazy routes) are not part of it.
// Figures in kB (1,000 bytes, as Vite reports them): bytes and gzip bytes of the first screen's JS and CSS, of all JS, and which libraries the first screen
// carries (found by a string each library's code keeps after minification).
//
//   npm run bundle -w @prison/bench
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { printFigures, type Figure } from '../lib/report';

// What Vite writes to .vite/manifest.json for each chunk (only the fields read here).
interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}

// Strings that survive minification, one per library that should load only where it is used.
export const LIBRARY_MARKERS = {
  leaflet: 'leafletjs.com',
  'leaflet-draw': 'drawVersion',
  recharts: 'recharts-wrapper',
} as const;

const webRoot = path.resolve(import.meta.dirname, '../../apps/web');
const outDir = mkdtempSync(path.join(tmpdir(), 'prison-web-bundle-'));

try {
  // The build `npm start` makes: production mode, no test hooks.
  const { VITE_TEST_HOOKS: _hooks, ...env } = process.env;
  const build = spawnSync(
    'npx',
    ['vite', 'build', '--logLevel', 'error', '--manifest', '--outDir', outDir, '--emptyOutDir'],
    { cwd: webRoot, env: { ...env, NODE_ENV: 'production' }, encoding: 'utf8' },
  );
  if (build.status !== 0) throw new Error(`web build failed: ${build.stderr}`);

  const manifest = JSON.parse(readFileSync(path.join(outDir, '.vite/manifest.json'), 'utf8')) as Record<
    string,
    ManifestChunk
  >;
  const entryKey = Object.keys(manifest).find((key) => manifest[key]!.isEntry);
  if (!entryKey) throw new Error('no entry chunk in the manifest');

  // The entry and its static imports, transitively.
  const firstScreen = new Set<string>();
  const visit = (key: string) => {
    if (firstScreen.has(key)) return;
    firstScreen.add(key);
    for (const imported of manifest[key]!.imports ?? []) visit(imported);
  };
  visit(entryKey);

  const sizeOf = (file: string) => {
    const content = readFileSync(path.join(outDir, file));
    return { bytes: content.length, gzip: gzipSync(content).length, text: content.toString('utf8') };
  };
  const sum = (files: string[]) =>
    files.map(sizeOf).reduce((total, s) => ({ bytes: total.bytes + s.bytes, gzip: total.gzip + s.gzip }), {
      bytes: 0,
      gzip: 0,
    });

  const firstJs = [...firstScreen].map((key) => manifest[key]!.file);
  const firstCss = [...new Set([...firstScreen].flatMap((key) => manifest[key]!.css ?? []))];
  const allJs = [...new Set(Object.values(manifest).map((chunk) => chunk.file))].filter((f) => f.endsWith('.js'));
  const first = sum(firstJs);
  const css = sum(firstCss);
  const all = sum(allJs);
  const firstText = firstJs.map((file) => sizeOf(file).text).join('\n');
  const carried = Object.entries(LIBRARY_MARKERS)
    .filter(([, marker]) => firstText.includes(marker))
    .map(([library]) => library);

  console.log('First screen chunks:');
  console.table(firstJs.map((file) => ({ file, kB: Math.round(sizeOf(file).bytes / 1000) })));
  const figures: Figure[] = [
    { name: 'first screen JS', value: first.bytes / 1000, unit: 'kB' },
    { name: 'first screen JS, gzip', value: first.gzip / 1000, unit: 'kB' },
    { name: 'first screen JS files', value: firstJs.length, unit: 'files' },
    { name: 'first screen CSS', value: css.bytes / 1000, unit: 'kB' },
    { name: 'first screen CSS, gzip', value: css.gzip / 1000, unit: 'kB' },
    { name: 'all JS', value: all.bytes / 1000, unit: 'kB' },
    { name: 'all JS, gzip', value: all.gzip / 1000, unit: 'kB' },
    { name: 'JS files in the build', value: allJs.length, unit: 'files' },
  ];
  printFigures('First screen weight (production build of the current tree)', figures);
  console.log(
    `Libraries in the first screen: ${carried.length ? carried.join(', ') : 'none of ' + Object.keys(LIBRARY_MARKERS).join(', ')}`,
  );
} finally {
  rmSync(outDir, { recursive: true, force: true });
}
