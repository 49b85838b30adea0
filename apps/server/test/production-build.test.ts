// A production build leaks nothing: no source map is built or served, the test hooks are compiled out, and the API
// documentation needs a session. And the first page stays light: no map, drawing, validation or dialog library.
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildWebIfChanged, webDist } from '../../../scripts/web-build.mjs';
import { startTestApp, type TestContext } from './test-app';

let dist: string;
let ctx: TestContext;

const filesUnder = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(path.join(dir, entry.name)) : [path.join(dir, entry.name)],
  );

beforeAll(async () => {
  // The build `npm start` and the release make (production mode, no VITE_TEST_HOOKS), made once for all of them and
  // only when the web app changed; copied, since a test below writes into it.
  buildWebIfChanged();
  dist = mkdtempSync(path.join(tmpdir(), 'prison-web-prod-'));
  cpSync(webDist, dist, { recursive: true });
  ctx = await startTestApp('pglite', { WEB_DIST: dist });
}, 180_000);

afterAll(async () => {
  await ctx?.app.close();
  await ctx?.database.close();
  rmSync(dist, { recursive: true, force: true });
});

it('builds no source map and references none', () => {
  const files = filesUnder(dist);
  expect(files.filter((f) => f.endsWith('.map'))).toEqual([]);
  for (const file of files.filter((f) => f.endsWith('.js') || f.endsWith('.css'))) {
    expect(readFileSync(file, 'utf8'), file).not.toContain('sourceMappingURL');
  }
});

it('compiles the test hooks out', () => {
  const scripts = filesUnder(dist).filter((f) => f.endsWith('.js'));
  expect(scripts.length).toBeGreaterThan(0);
  for (const file of scripts) expect(readFileSync(file, 'utf8'), file).not.toContain('__liveMap');
});

it('never serves a source map, even one left in the folder', async () => {
  const script = filesUnder(path.join(dist, 'assets')).find((f) => f.endsWith('.js'))!;
  writeFileSync(`${script}.map`, '{"version":3,"sources":["secret.ts"]}');
  // Files are registered when the app starts: a second app sees the planted map.
  const second = await startTestApp('pglite', { WEB_DIST: dist });
  try {
    const name = path.basename(script);
    expect((await second.app.inject({ method: 'GET', url: `/assets/${name}` })).statusCode).toBe(200);
    const map = await second.app.inject({ method: 'GET', url: `/assets/${name}.map` });
    expect(map.statusCode).toBe(404);
    expect(map.body).not.toContain('secret.ts');
  } finally {
    await second.app.close();
    await second.database.close();
  }
});

it('serves the app to anyone, and the API documentation only with a session', async () => {
  const page = await ctx.app.inject({ method: 'GET', url: '/live-map?testHooks=1' });
  expect(page.statusCode).toBe(200);
  expect(page.headers['content-type']).toMatch(/text\/html/);
  for (const url of ['/api/docs', '/api/docs/json', '/api/docs/static/index.html']) {
    expect((await ctx.app.inject({ method: 'GET', url })).statusCode, url).toBe(401);
  }
  const docs = await ctx.app.inject({ method: 'GET', url: '/api/docs/json', headers: { cookie: ctx.cookie } });
  expect(docs.statusCode).toBe(200);
  expect(docs.json()).toHaveProperty('openapi');
});

// Strings each library's code keeps after minification (bench/bundle uses the same).
const LIBRARY_MARKERS = {
  leaflet: 'leafletjs.com',
  'leaflet-geoman': 'leaflet-pm-toolbar',
  zod: '$ZodObject',
  'the country list': 'Afghanistan',
  'Radix dialogs and menus': 'data-radix-focus-guard',
};

/** The scripts of the first screen: what index.html loads or preloads, and what those import statically. */
function firstScreenScripts(): string[] {
  const html = readFileSync(path.join(dist, 'index.html'), 'utf8');
  const pending = [...html.matchAll(/<(?:script|link)\b[^>]*\b(?:src|href)="\/(assets\/[^"]+\.js)"/g)].map(
    (m) => m[1]!,
  );
  const seen = new Set<string>();
  while (pending.length > 0) {
    const file = pending.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    // Static imports only (`from"./x.js"`, `import"./x.js"`); the lazy routes' `import("./x.js")` load later.
    const code = readFileSync(path.join(dist, file), 'utf8');
    for (const m of code.matchAll(/(?:from|import)\s*"\.\/([^"]+\.js)"/g)) pending.push(`assets/${m[1]!}`);
  }
  return [...seen];
}

it('loads no map, drawing, validation, country-list or dialog library on the first page (/)', () => {
  const scripts = firstScreenScripts();
  expect(scripts.length).toBeGreaterThan(0);
  const code = scripts.map((file) => readFileSync(path.join(dist, file), 'utf8')).join('\n');
  const carried = Object.entries(LIBRARY_MARKERS).filter(([, marker]) => code.includes(marker));
  expect(carried.map(([library]) => library)).toEqual([]);
  // The markers do find each library somewhere in the build: the screens that use them still get them.
  const all = filesUnder(path.join(dist, 'assets'))
    .filter((f) => f.endsWith('.js'))
    .map((f) => readFileSync(f, 'utf8'))
    .join('\n');
  for (const marker of Object.values(LIBRARY_MARKERS)) expect(all, marker).toContain(marker);
});
