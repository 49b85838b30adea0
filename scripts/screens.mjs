/* global document, window */
// `npm run screens`: screenshots of every screen at 1440 and 390 px into docs/screens/<screen>-<width>.png.
// Builds the web app, starts a server in demo mode on a fresh embedded database (the demo prison and the simulator
// walking its trackers through the real OsmAnd protocol), waits until the data is there, logs in through the real
// login route, and photographs each screen once its data has loaded. Not part of `npm test`.
// The maps are photographed as a closed network sees them (decision 065): MAP_TILES=off, the demo's site plan the
// background; a map screen waits until the plan's image has loaded.
// SCREENS_PORT picks the port (default 3390; the OsmAnd port is the next one). It also prints, per screen and width,
// the document's width (document.documentElement.scrollWidth), which must not exceed the window's.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from '@playwright/test';
import { chromiumLaunchOptions } from './chromium.mjs';
import { DEMO_ADMINISTRATOR } from '../apps/server/src/seed/demo-accounts.ts';

const root = path.resolve(import.meta.dirname, '..');
const port = Number(process.env.SCREENS_PORT ?? 3390);
const baseURL = `http://localhost:${port}`;
const outDir = path.join(root, 'docs', 'screens');
const webDist = path.join(root, '.tmp', `web-dist-screens-${port}`);
// The demo's administrator, from the one definition of the demo accounts (run through tsx, which reads TypeScript).
const ADMIN = DEMO_ADMINISTRATOR;
/** A long page is photographed from the top down to `screens` window heights at most (keeps the PNGs small). */
const WIDTHS = [
  { width: 1440, height: 900, screens: 2 },
  { width: 390, height: 844, screens: 3 },
];

function run(command, args, env = {}, cwd = '.') {
  const result = spawnSync(command, args, {
    cwd: path.join(root, cwd),
    stdio: 'inherit',
    env: { ...process.env, ...env },
  });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `check` until it answers a truthy value or `timeoutMs` passes; answers the value, or null on timeout. */
async function waitFor(what, check, timeoutMs) {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    try {
      const value = await check();
      if (value) return value;
    } catch {
      // not ready yet
    }
    await sleep(1000);
  }
  console.warn(`screens: gave up waiting for ${what} after ${timeoutMs / 1000} s`);
  return null;
}

run('node', ['scripts/ensure-chromium.mjs']);
// SCREENS_NO_BUILD=1 reuses the last build (while iterating on this script); SCREENS_ONLY=home,login picks screens.
if (!process.env.SCREENS_NO_BUILD)
  run('npx', ['vite', 'build', '--logLevel', 'warn', '--outDir', webDist, '--emptyOutDir'], {}, 'apps/web');

const dataDir = mkdtempSync(path.join(tmpdir(), 'prison-screens-'));
const server = spawn('npx', ['tsx', 'apps/server/src/server.ts'], {
  cwd: root,
  stdio: ['ignore', 'ignore', 'inherit'],
  detached: true,
  env: {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    DATABASE_URL: '',
    DEMO: 'true',
    // No ADMIN_PASSWORD: a demo opens with its own administrator.
    ADMIN_PASSWORD: '',
    LOG_LEVEL: 'warn',
    OSMAND_PORT: String(port + 1),
    // A closed network: no tile server; the demo seeds its site plan, which every map draws as its background.
    MAP_TILES: 'off',
    MAP_TILE_URL: '',
    WEB_DIST: webDist,
  },
});
let stopped = false;
function stopServer() {
  if (stopped) return;
  stopped = true;
  try {
    process.kill(-server.pid, 'SIGTERM');
  } catch {
    // already gone
  }
}
process.on('exit', () => {
  stopServer();
  rmSync(dataDir, { recursive: true, force: true });
});
process.on('SIGINT', () => process.exit(130));

const browser = await chromium.launch(chromiumLaunchOptions());
/** The subject's tracker, reported by this script once it has pressed its SOS. */
let keepAlive = null;

try {
  if (!(await waitFor('the server', async () => (await fetch(`${baseURL}/readyz`)).ok, 120_000))) process.exit(1);

  // One logged-in context per width; the API calls below share its cookie.
  const admin = await browser.newContext({ baseURL });
  const login = await admin.request.post('/api/v1/admin/login', { data: ADMIN });
  if (!login.ok()) throw new Error(`login failed: ${login.status()} ${await login.text()}`);
  const api = admin.request;
  const json = async (url) => {
    const res = await api.get(url);
    if (!res.ok()) throw new Error(`${url}: ${res.status()}`);
    return res.json();
  };

  // The demo seed runs after the server listens: wait for the prison, then for most trackers to report.
  await waitFor('the demo prison', async () => (await json('/api/v1/overview')).prison.assigned >= 100, 180_000);
  await waitFor('the trackers', async () => (await json('/api/v1/overview')).prison.online >= 50, 120_000);
  // The demo's site plan (seeded with the geofences): every map draws it, so the maps wait for it.
  if (!(await waitFor('the site plan', async () => (await json('/api/v1/site-plans')).some((p) => p.is_default), 120_000)))
    throw new Error('the demo seeded no default site plan');
  // The simulator breaches geofences now and then; give it time for a realistic alerts screen.
  await waitFor(
    'some alerts',
    async () => (await json('/api/v1/alert/prisoneralerts?limit=1')).totalAlerts >= 4,
    240_000,
  );

  // The subject of the details and history screens: the tracked, online prisoner with the lowest id.
  const devices = (await json('/api/v1/devices')).data;
  const tracked = devices
    .filter((d) => d.prisoner_id !== null && d.online)
    .sort((a, b) => a.prisoner_id - b.prisoner_id);
  const subject = tracked[0];
  if (!subject) throw new Error('no tracked prisoner is online');
  const record = (await json(`/api/v1/prisoner/prisonerid/${subject.prisoner_id}`)).data;
  const subjectName = `${record.first_name} ${record.last_name}`;
  // Its tracker's SOS button, pressed once through the device protocol: an open Critical alert for the bar. A device
  // must send its secret (DEVICE_SECRET_REQUIRED, on by default and here) and only the simulator knows the demo's, so
  // the script takes the tracker over: a new secret (the simulator's fixes of it are refused from now on), the SOS,
  // then a fix where it stands every 10 s so it stays online while the screens are taken.
  const rotated = await api.post(`/api/v1/devices/${encodeURIComponent(subject.id)}/rotate-secret`);
  if (!rotated.ok()) throw new Error(`rotate-secret failed: ${rotated.status()} ${await rotated.text()}`);
  const { secret } = await rotated.json();
  const report = (extra = {}) =>
    api.get('/api/v1/ingest/osmand', {
      params: {
        id: subject.id,
        secret,
        lat: subject.latitude,
        lon: subject.longitude,
        batt: Math.round(subject.last_battery ?? 80),
        timestamp: new Date().toISOString(),
        ...extra,
      },
    });
  const sos = await report({ alarm: 'sos' });
  if (!sos.ok()) throw new Error(`SOS failed: ${sos.status()} ${await sos.text()}`);
  keepAlive = setInterval(() => void report().catch(() => {}), 10_000);
  // The control-room log of a shift.
  if ((await json('/api/v1/messages')).messages.length === 0) {
    for (const text of [
      'Night shift started. 3 officers on the floor, 2 in the control room.',
      `Perimeter sensor check done, all clear. Prisoner #${subject.prisoner_id} SOS being checked by the block officer.`,
      'Block B yard closed at 21:00 as planned.',
    ]) {
      const res = await api.post('/api/v1/messages', { data: { body: text } });
      if (!res.ok()) console.warn(`screens: message not posted: ${res.status()} ${await res.text()}`);
    }
  }

  const anonymous = await browser.newContext({ baseURL });
  /** name, context, path, and what must be on screen before the photograph. */
  const screens = [
    { name: 'landing', ctx: anonymous, path: '/', ready: (p) => p.getByText('Get Started').first() },
    { name: 'login', ctx: anonymous, path: '/login', ready: (p) => p.getByLabel('Username') },
    { name: 'home', ctx: admin, path: '/', ready: (p) => p.getByRole('table').first() },
    {
      name: 'dashboard-prisoners',
      ctx: admin,
      path: '/dashboard',
      ready: (p) => p.getByRole('table', { name: 'Prisoners' }),
    },
    {
      name: 'dashboard-police',
      ctx: admin,
      path: '/dashboard?tab=police',
      ready: (p) => p.getByRole('table', { name: 'Police' }),
    },
    {
      name: 'prisoner-details',
      ctx: admin,
      path: `/prisoner-details/${subject.prisoner_id}`,
      map: true,
      ready: (p) => p.getByRole('heading', { level: 1 }),
    },
    {
      name: 'cell-assign',
      ctx: admin,
      path: '/cell-assign',
      ready: (p) => p.getByRole('heading', { name: 'Assign cells' }),
    },
    { name: 'live-map', ctx: admin, path: '/live-map', map: true, ready: (p) => p.locator('.leaflet-container') },
    {
      name: 'location-history',
      ctx: admin,
      path: '/location-history',
      map: true,
      ready: (p) => p.getByRole('searchbox', { name: 'Prisoner' }),
      act: async (p) => {
        await p.getByRole('searchbox', { name: 'Prisoner' }).fill(subjectName);
        await p
          .getByRole('list', { name: 'Prisoners' })
          .getByRole('button', { name: `${subjectName} · #${subject.prisoner_id} ·` })
          .click();
        await p
          .locator('.leaflet-overlay-pane path')
          .first()
          .waitFor({ timeout: 15_000 })
          .catch(() => {});
      },
    },
    {
      // The last few minutes, since the demo started walking, the clock a minute before their end (at the very end,
      // "now", every tracker is past its last fix, and the replay shows nobody after a tracker's last fix).
      name: 'replay',
      ctx: admin,
      path: `/replay?from=${new Date(Date.now() - 5 * 60_000).toISOString()}&to=${new Date().toISOString()}`,
      map: true,
      ready: (p) => p.getByRole('slider', { name: 'Replay time' }),
      act: async (p) => {
        await p.getByRole('slider', { name: 'Replay time' }).focus();
        await p.keyboard.press('End');
        await p.keyboard.press('PageDown');
      },
    },
    {
      // The demo's plan opened for placement: the image with its three points beside the map it is drawn on.
      name: 'site-plan',
      ctx: admin,
      path: '/site-plan',
      map: true,
      ready: (p) => p.getByTestId('plan-row').first(),
      act: async (p) => {
        await p.getByTestId('plan-row').first().getByRole('button', { name: 'Replace' }).click();
        await p.getByTestId('plan-source-image').waitFor();
      },
    },
    { name: 'alerts', ctx: admin, path: '/allAlerts', ready: (p) => p.getByRole('heading', { level: 1 }) },
    { name: 'communication', ctx: admin, path: '/communication', ready: (p) => p.getByRole('heading', { level: 1 }) },
    { name: 'audit', ctx: admin, path: '/audit', ready: (p) => p.getByRole('table').first() },
    { name: 'profile', ctx: admin, path: '/profile', ready: (p) => p.getByRole('table').first() },
  ];

  mkdirSync(outDir, { recursive: true });
  const only = process.env.SCREENS_ONLY?.split(',');
  const figures = [];
  for (const screen of screens.filter((s) => !only || only.includes(s.name))) {
    for (const size of WIDTHS) {
      const page = await screen.ctx.newPage();
      page.setDefaultTimeout(30_000);
      await page.setViewportSize({ width: size.width, height: size.height });
      await page.goto(screen.path);
      await screen.ready(page).waitFor({ timeout: 30_000 });
      if (screen.act) await screen.act(page);
      // A map is photographed with the site plan drawn: its image loaded and placed (decision 065).
      if (screen.map)
        await page.waitForFunction(
          () =>
            [...document.querySelectorAll('img[data-testid="site-plan-image"]')].some(
              (img) => img.complete && img.naturalWidth > 0 && img.style.transform !== '',
            ),
          null,
          { timeout: 30_000 },
        );
      // No spinner, no busy list, no toast (live toasts come and go at random), then a moment for the map to settle.
      await page.waitForFunction(
        () => document.querySelectorAll('.animate-spin, [aria-busy="true"]').length === 0,
        null,
        { timeout: 30_000 },
      );
      await page.addStyleTag({ content: '[data-testid="toast-area"] { display: none !important; }' });
      await page.waitForTimeout(1500);
      const { scrollWidth, hidden } = await page.evaluate(() => {
        // The page scrolls in the layout's scroll box above the toast band (decision 040), not the document: what
        // lies below the window is what that box holds beyond its own height.
        const box = document.querySelector('[data-scroll-root]');
        return {
          scrollWidth: document.documentElement.scrollWidth,
          hidden: box ? box.scrollHeight - box.clientHeight : document.documentElement.scrollHeight - window.innerHeight,
        };
      });
      figures.push({ screen: screen.name, width: size.width, scrollWidth, ok: scrollWidth <= size.width });
      // A long page: its scroll box let out into the document (sizes in vh still follow the window), so the
      // photograph shows it from the top down, at most `screens` window heights.
      let height = size.height;
      if (hidden > 0) {
        await page.addStyleTag({
          content:
            'html, body, #root, :has(> [data-scroll-root]) { height: auto !important; overflow: visible !important; } ' +
            '[data-scroll-root] { overflow: visible !important; }',
        });
        await page.waitForTimeout(500);
        height = Math.min(await page.evaluate(() => document.documentElement.scrollHeight), size.height * size.screens);
      }
      await page.screenshot({
        path: path.join(outDir, `${screen.name}-${size.width}.png`),
        fullPage: true,
        clip: { x: 0, y: 0, width: size.width, height },
        animations: 'disabled',
        caret: 'hide',
      });
      await page.close();
    }
  }
  console.log('screen                 width  document width');
  for (const f of figures)
    console.log(
      `${f.screen.padEnd(22)} ${String(f.width).padStart(5)}  ${String(f.scrollWidth).padStart(5)}${f.ok ? '' : '  OVERFLOW'}`,
    );
  console.log(`screens: ${figures.length} screenshots in docs/screens/`);
  if (figures.some((f) => !f.ok)) process.exitCode = 1;
} finally {
  if (keepAlive) clearInterval(keepAlive);
  await browser.close();
  stopServer();
}
