/* global document */
// `npm run screens`: screenshots of every screen at 1440 and 390 px into docs/screens/<screen>-<width>.png (issue 11).
// Builds the web app, starts a server in demo mode on a fresh embedded database (the demo prison and the simulator
// walking its trackers through the real OsmAnd protocol), waits until the data is there, logs in through the real
// login route, and photographs each screen once its data has loaded. Not part of `npm test`.
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
    // Tiles cannot load here; the map says so and draws the geofences on a plain background.
    MAP_TILE_URL: 'http://127.0.0.1:9/{z}/{x}/{y}.png',
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
  // Its tracker's SOS button, pressed once through the device protocol: an open Critical alert for the bar.
  const sos = await api.get('/api/v1/ingest/osmand', {
    params: {
      id: subject.id,
      lat: subject.latitude,
      lon: subject.longitude,
      timestamp: Math.floor(Date.now() / 1000),
      alarm: 'sos',
    },
  });
  if (!sos.ok()) throw new Error(`SOS failed: ${sos.status()} ${await sos.text()}`);
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
      ready: (p) => p.getByRole('heading', { level: 1 }),
    },
    {
      name: 'cell-assign',
      ctx: admin,
      path: '/cell-assign',
      ready: (p) => p.getByRole('heading', { name: 'Assign cells' }),
    },
    { name: 'live-map', ctx: admin, path: '/live-map', ready: (p) => p.locator('.leaflet-container') },
    {
      name: 'location-history',
      ctx: admin,
      path: '/location-history',
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
      // No spinner, no busy list, no toast (live toasts come and go at random), then a moment for the map to settle.
      await page.waitForFunction(
        () => document.querySelectorAll('.animate-spin, [aria-busy="true"]').length === 0,
        null,
        { timeout: 30_000 },
      );
      await page.addStyleTag({ content: '[data-testid="toast-area"] { display: none !important; }' });
      await page.waitForTimeout(1500);
      const { scrollWidth, scrollHeight } = await page.evaluate(() => ({
        scrollWidth: document.documentElement.scrollWidth,
        scrollHeight: document.documentElement.scrollHeight,
      }));
      figures.push({ screen: screen.name, width: size.width, scrollWidth, ok: scrollWidth <= size.width });
      await page.screenshot({
        path: path.join(outDir, `${screen.name}-${size.width}.png`),
        fullPage: true,
        clip: { x: 0, y: 0, width: size.width, height: Math.min(scrollHeight, size.height * size.screens) },
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
  await browser.close();
  stopServer();
}
