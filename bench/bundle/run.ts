// bench/bundle: the JavaScript a browser loads for the first page a logged-in operator opens (`/`, the operations
// overview), from production builds of the current tree and, as the baseline in the same run, of a git ref (main by
// default). That first page is the entry script index.html loads plus every chunk it imports statically (Vite
// preloads those with modulepreload links); chunks imported dynamically (the other pages, /login among them, and the
// dialogs and menus loaded on first opening) are not part of it.
// Figures in kB (1,000 bytes, as Vite reports them): bytes and gzip bytes of the first page's JS and CSS, of all JS, of
// what the live map (where geofences are drawn) loads beyond the first page, and which libraries the first page carries
// (found by a string each library's code keeps after minification).
//
//   npm run bundle -w @prison/bench                      (baseline: main)
//   BUNDLE_BASELINE=<ref> npm run bundle -w @prison/bench
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
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
  // geoman's toolbar class: the drawing tools (leaflet-draw's marker was 'drawVersion').
  'leaflet-geoman': 'leaflet-pm-toolbar',
  recharts: 'recharts-wrapper',
  zod: '$ZodObject',
  'the country list': 'Afghanistan',
  'Radix dialogs and menus': 'data-radix-focus-guard',
} as const;

/** The live map page's module, as the manifest names it: the screen where geofences are drawn and edited. */
const LIVE_MAP_PAGE = 'src/features/live-map/live-map-page.tsx';

const repoRoot = path.resolve(import.meta.dirname, '../..');
const viteBin = path.join(repoRoot, 'node_modules/vite/bin/vite.js');
const baselineRef = process.env.BUNDLE_BASELINE ?? 'main';

interface Measured {
  chunks: { file: string; kB: number; gzipKB: number }[];
  figures: Record<string, number>;
  carried: string[];
}

/** Builds the web app under `webRoot` the way `npm start` does (production mode, no test hooks) and weighs it. */
function measure(webRoot: string): Measured {
  const outDir = mkdtempSync(path.join(tmpdir(), 'prison-web-bundle-'));
  try {
    const { VITE_TEST_HOOKS: _hooks, ...env } = process.env;
    const build = spawnSync(
      process.execPath,
      [viteBin, 'build', '--logLevel', 'error', '--manifest', '--outDir', outDir, '--emptyOutDir'],
      { cwd: webRoot, env: { ...env, NODE_ENV: 'production' }, encoding: 'utf8' },
    );
    if (build.status !== 0) throw new Error(`web build in ${webRoot} failed: ${build.stderr}`);

    const manifest = JSON.parse(readFileSync(path.join(outDir, '.vite/manifest.json'), 'utf8')) as Record<
      string,
      ManifestChunk
    >;
    const entryKey = Object.keys(manifest).find((key) => manifest[key]!.isEntry);
    if (!entryKey) throw new Error('no entry chunk in the manifest');

    // The entry and its static imports, transitively.
    const staticClosure = (from: string) => {
      const keys = new Set<string>();
      const visit = (key: string) => {
        if (keys.has(key)) return;
        keys.add(key);
        for (const imported of manifest[key]!.imports ?? []) visit(imported);
      };
      visit(from);
      return keys;
    };
    const firstPage = staticClosure(entryKey);
    if (!manifest[LIVE_MAP_PAGE]) throw new Error(`no ${LIVE_MAP_PAGE} in the manifest`);
    // What opening the live map adds to the first page: its chunk and the chunks it imports statically.
    const liveMapKeys = [...staticClosure(LIVE_MAP_PAGE)].filter((key) => !firstPage.has(key));

    const sizeOf = (file: string) => {
      const content = readFileSync(path.join(outDir, file));
      return { bytes: content.length, gzip: gzipSync(content).length, text: content.toString('utf8') };
    };
    const sum = (files: string[]) =>
      files.map(sizeOf).reduce((total, s) => ({ bytes: total.bytes + s.bytes, gzip: total.gzip + s.gzip }), {
        bytes: 0,
        gzip: 0,
      });

    const firstJs = [...firstPage].map((key) => manifest[key]!.file);
    const firstCss = [...new Set([...firstPage].flatMap((key) => manifest[key]!.css ?? []))];
    const allJs = [...new Set(Object.values(manifest).map((chunk) => chunk.file))].filter((f) => f.endsWith('.js'));
    const liveMapJs = liveMapKeys.map((key) => manifest[key]!.file);
    const liveMapCss = [...new Set(liveMapKeys.flatMap((key) => manifest[key]!.css ?? []))];
    const liveMap = sum(liveMapJs);
    const liveMapStyles = sum(liveMapCss);
    const first = sum(firstJs);
    const css = sum(firstCss);
    const all = sum(allJs);
    const firstText = firstJs.map((file) => sizeOf(file).text).join('\n');
    return {
      chunks: firstJs.map((file) => {
        const size = sizeOf(file);
        return { file, kB: Math.round(size.bytes / 100) / 10, gzipKB: Math.round(size.gzip / 100) / 10 };
      }),
      figures: {
        'first page JS (kB)': first.bytes / 1000,
        'first page JS, gzip (kB)': first.gzip / 1000,
        'first page JS files': firstJs.length,
        'first page CSS (kB)': css.bytes / 1000,
        'first page CSS, gzip (kB)': css.gzip / 1000,
        'live map JS beyond the first page (kB)': liveMap.bytes / 1000,
        'live map JS beyond the first page, gzip (kB)': liveMap.gzip / 1000,
        'live map CSS (kB)': liveMapStyles.bytes / 1000,
        'live map CSS, gzip (kB)': liveMapStyles.gzip / 1000,
        'all JS (kB)': all.bytes / 1000,
        'all JS, gzip (kB)': all.gzip / 1000,
        'JS files in the build': allJs.length,
      },
      carried: Object.entries(LIBRARY_MARKERS)
        .filter(([, marker]) => firstText.includes(marker))
        .map(([library]) => library),
    };
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}

/**
 * The web app and the shared package at `ref`, in a scratch folder whose node_modules are this checkout's (the shared
 * package linked to the ref's own). Packages the ref's web app names that this install lacks (a library since
 * removed) are installed there at the versions of the ref's lock file.
 */
function checkoutOf(ref: string, scratch: string): string {
  const archive = execFileSync('git', ['archive', ref, 'apps/web', 'packages/shared', 'tsconfig.base.json', 'package-lock.json'], {
    cwd: repoRoot,
    maxBuffer: 1 << 30,
  });
  execFileSync('tar', ['-x', '-C', scratch], { input: archive });

  // Both levels of this checkout's node_modules, linked entry by entry: the root's and the web app's own.
  const linkEach = (from: string, to: string) => {
    mkdirSync(to, { recursive: true });
    if (!existsSync(from)) return;
    for (const name of readdirSync(from)) {
      if (name === '@prison' || name === '.bin') continue;
      // A scope is a folder of its own here, so a package added to it lands in the scratch folder, not this checkout.
      if (name.startsWith('@')) linkEach(path.join(from, name), path.join(to, name));
      else symlinkSync(path.join(from, name), path.join(to, name));
    }
  };
  linkEach(path.join(repoRoot, 'node_modules'), path.join(scratch, 'node_modules'));
  linkEach(path.join(repoRoot, 'apps/web/node_modules'), path.join(scratch, 'apps/web/node_modules'));
  mkdirSync(path.join(scratch, 'node_modules/@prison'));
  symlinkSync(path.join(scratch, 'packages/shared'), path.join(scratch, 'node_modules/@prison/shared'));

  const installed = (name: string) =>
    ['node_modules', 'apps/web/node_modules'].some((dir) => existsSync(path.join(repoRoot, dir, name, 'package.json')));
  const web = JSON.parse(readFileSync(path.join(scratch, 'apps/web/package.json'), 'utf8')) as {
    dependencies?: Record<string, string>;
    devDependencies?: Record<string, string>;
  };
  const lock = JSON.parse(readFileSync(path.join(scratch, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { version?: string }>;
  };
  const versionOf = (name: string) =>
    lock.packages[`apps/web/node_modules/${name}`]?.version ?? lock.packages[`node_modules/${name}`]?.version ?? 'latest';
  const missing = Object.keys({ ...web.dependencies, ...web.devDependencies }).filter((name) => !installed(name));
  if (missing.length > 0) {
    const extra = path.join(scratch, 'extra');
    mkdirSync(extra);
    writeFileSync(path.join(extra, 'package.json'), '{"private":true}');
    const specs = missing.map((name) => `${name}@${versionOf(name)}`);
    console.log(`Baseline (${ref}): installing what this checkout lacks: ${specs.join(', ')}`);
    execFileSync('npm', ['install', '--no-package-lock', '--no-audit', '--no-fund', '--ignore-scripts', ...specs], {
      cwd: extra,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    // The web app finds them beside its own; their dependencies stay in extra/node_modules, where they look first,
    // and whatever this checkout has (react and the rest) is taken from this checkout, as for the current tree.
    for (const name of missing) {
      mkdirSync(path.dirname(path.join(scratch, 'apps/web/node_modules', name)), { recursive: true });
      symlinkSync(path.join(extra, 'node_modules', name), path.join(scratch, 'apps/web/node_modules', name));
    }
    for (const entry of readdirSync(path.join(extra, 'node_modules'))) {
      const names = entry.startsWith('@')
        ? readdirSync(path.join(extra, 'node_modules', entry)).map((name) => `${entry}/${name}`)
        : [entry];
      for (const name of names) if (installed(name)) rmSync(path.join(extra, 'node_modules', name), { recursive: true });
    }
  }
  return path.join(scratch, 'apps/web');
}

const scratch = mkdtempSync(path.join(tmpdir(), 'prison-web-baseline-'));
try {
  const baseline = measure(checkoutOf(baselineRef, scratch));
  const current = measure(path.join(repoRoot, 'apps/web'));

  for (const [label, result] of [
    [`baseline (${baselineRef})`, baseline],
    ['current tree', current],
  ] as const) {
    console.log(`\nFirst page chunks, ${label}:`);
    console.table(result.chunks);
  }
  const figures: Figure[] = Object.keys(current.figures).map((key) => {
    const [, name, unit] = /^(.*?)(?: \((kB)\))?$/.exec(key)!;
    return {
      name: name!,
      value: current.figures[key]!,
      baseline: baseline.figures[key],
      unit: unit ?? (key.includes('files') ? 'files' : ''),
      target: key === 'first page JS, gzip (kB)' ? '≤ 150 kB' : undefined,
    };
  });
  printFigures(`First page weight (/ for a logged-in operator): current tree against ${baselineRef}`, figures);
  const carried = (result: Measured) => (result.carried.length ? result.carried.join(', ') : 'none of them');
  console.log(`Libraries on the first page (of ${Object.keys(LIBRARY_MARKERS).join(', ')}):`);
  console.log(`  baseline: ${carried(baseline)}`);
  console.log(`  current:  ${carried(current)}`);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
