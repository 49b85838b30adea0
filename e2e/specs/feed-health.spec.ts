// Feed health ("Must show"; decision 028): stop the server, and within 5 s the banner appears and the
// map says "data as of"; start it again, and the page is live without a reload. The run's shared server cannot be
// stopped, so this spec starts a real server process of its own on E2E_PORT + 10 (+ 11 for its OsmAnd port), stops it
// with SIGTERM and starts it again on the same port and data directory (sessions are in its database).
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { APIRequestContext } from '@playwright/test';
import { E2E_ADMIN, expect, loginThroughForm, test, unique } from '../fixtures';
import { exited, spawnOwnServer, stopOwnServer, waitReady } from '../own-server';
import { expectNoViolations } from './axe';
import { seedTrackedPrisoner } from './records-helpers';

const port = Number(process.env.E2E_PORT ?? 3210) + 10;
const osmandPort = port + 1;
const base = `http://localhost:${port}`;
const CLOCK = String.raw`\d{2}:\d{2}:\d{2}`;

let server: ChildProcess | undefined;
let dataDir = '';

function startServer(): ChildProcess {
  server = spawnOwnServer(port, dataDir);
  return server;
}

test.beforeAll(async () => {
  test.setTimeout(150_000);
  dataDir = mkdtempSync(path.join(tmpdir(), 'prison-e2e-feed-'));
  await waitReady(base, startServer());
});

test.afterAll(async () => {
  await stopOwnServer(server, dataDir, 10_000);
});

test.use({ viewport: { width: 1440, height: 900 } });

async function sendFix(deviceId: string, lat: number, lon: number) {
  // Through the OsmAnd port, as a phone running Traccar Client does.
  const params = new URLSearchParams({
    id: deviceId,
    lat: String(lat),
    lon: String(lon),
    timestamp: String(Date.now()),
  });
  const res = await fetch(`http://127.0.0.1:${osmandPort}/?${params}`);
  expect(res.status, await res.text()).toBe(200);
}

test('server stopped: banner and "data as of" within 5 s, greyed markers; started again: live without a reload', async ({
  page,
  playwright,
}) => {
  test.setTimeout(240_000);
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  let loads = 0;
  page.on('load', () => loads++);

  const api: APIRequestContext = await playwright.request.newContext({ baseURL: base });
  try {
    const login = await api.post('/api/v1/admin/login', {
      data: { username: E2E_ADMIN.username, password: E2E_ADMIN.password },
    });
    expect(login.status(), await login.text()).toBe(200);
    const prisoner = await seedTrackedPrisoner(api, { first_name: unique('Feed'), last_name: 'Watched' });

    // Logged in through the login screen of this server's origin.
    await loginThroughForm(page, E2E_ADMIN.username, E2E_ADMIN.password, `${base}/login`);
    await expect(page).toHaveURL(`${base}/`);
    // One page load, then only in-app navigation: the home page's overview first (so it has counts to show later).
    await page.goto(`${base}/`);
    await expect(page.getByTestId('operations-overview')).toHaveAttribute('data-stale', 'false');
    const loadsBefore = loads;
    await page.evaluate(() => {
      (window as unknown as { __feedHealthMarker?: string }).__feedHealthMarker = 'same page';
    });
    const mainNav = page.getByRole('navigation', { name: 'Main' });
    await mainNav.getByRole('link', { name: 'Live Map' }).click();

    const indicator = page.getByTestId('feed-indicator');
    const banner = page.getByTestId('feed-banner');
    const map = page.getByTestId('live-map');
    const canvas = page.getByTestId('tracked-markers-canvas');
    const summary = page.getByTestId('tracked-summary');
    const markerLevel = () =>
      page.evaluate(
        (id) =>
          (
            window as unknown as { __liveMap?: { layer: { levelOf(id: string): string | null } } }
          ).__liveMap?.layer.levelOf(id) ?? null,
        prisoner.deviceId,
      );
    const markerPosition = () =>
      page.evaluate((id) => {
        const hook = (
          window as unknown as {
            __liveMap?: { layer: { positionOf(id: string): { lat: number; lng: number } | null } };
          }
        ).__liveMap;
        const point = hook?.layer.positionOf(id);
        return point ? { lat: point.lat, lng: point.lng } : null;
      }, prisoner.deviceId);

    // Live: the indicator says so, no banner, a fix shows on the map.
    await expect(indicator).toHaveAttribute('data-state', 'live');
    await expect(indicator).toContainText('Live');
    await sendFix(prisoner.deviceId, 51.5, -0.12);
    await expect.poll(markerPosition).toEqual({ lat: 51.5, lng: -0.12 });
    await expect(summary).toHaveText(/^1 online/);
    await expect(banner).toHaveCount(0);
    await expect(canvas).toHaveAttribute('data-stale', 'false');
    await expect.poll(() => markerLevel()).not.toBe('offline');

    // Stop the server.
    const stoppedAt = Date.now();
    const stopping = exited(server!);
    server!.kill('SIGTERM');
    await expect(banner).toBeVisible({ timeout: 5_000 });
    await expect(map.getByTestId('live-map-stale')).toContainText('data as of', { timeout: 5_000 });
    const noticedAfter = Date.now() - stoppedAt;
    test
      .info()
      .annotations.push({ type: 'banner and "data as of" after SIGTERM (ms)', description: String(noticedAfter) });
    expect(noticedAfter).toBeLessThan(5_000);
    // At once, not 15 s later (decision 044): the row's age is frozen to the fix's clock time and says the feed is
    // not live, and the top bar's alert counts are grey with "not live".
    const age = page.getByTestId('tracked-prisoner-age').first();
    await expect(age).toContainText(new RegExp(`^Last fix at ${CLOCK}, feed not live`));
    await expect(age).not.toContainText('just now');
    await expect(page.getByTestId('open-alert-counts')).toHaveAttribute('data-stale', 'true');
    await expect(page.getByTestId('open-alert-counts')).toContainText('not live');
    expect(Date.now() - stoppedAt).toBeLessThan(10_000);
    await stopping;
    await expect(banner).toHaveText(new RegExp(`^Reconnecting… data as of ${CLOCK} \\(\\d+ s ago\\)$`));
    await expect(indicator).toHaveAttribute('data-state', 'reconnecting');
    // The banner is in a polite live region.
    await expect(page.getByRole('status').filter({ has: banner })).toHaveAttribute('aria-live', 'polite');
    // The counts are not presented as current, the markers are greyed.
    await expect(summary).toHaveText(new RegExp(`^As of ${CLOCK}: 1 online`));
    await expect(canvas).toHaveAttribute('data-stale', 'true');
    // Every marker is drawn grey (the level the layer draws it with; the colours are its own e2e's business).
    await expect.poll(() => markerLevel()).toBe('offline');
    await expectNoViolations(page, 'live map, feed reconnecting');
    await page.screenshot({ path: test.info().outputPath('reconnecting-1440.png') });

    // The home page's overview (reached without a reload) says its counts are not current either.
    await mainNav.getByRole('link', { name: 'Home' }).click();
    await expect(page.getByTestId('operations-overview')).toHaveAttribute('data-stale', 'true');
    await expect(page.getByTestId('overview-not-current')).toHaveText(
      new RegExp(`^Not current: data as of ${CLOCK} \\(\\d+ (s|min) ago\\)$`),
    );
    await mainNav.getByRole('link', { name: 'Live Map' }).click();
    await expect(map.getByTestId('live-map-stale')).toContainText('data as of');

    // Longer than 30 s without a connection: lost.
    await expect(banner).toHaveText(
      new RegExp(`^Live feed lost — data as of ${CLOCK} \\(\\d+ s ago\\)\\. Retrying…$`),
      {
        timeout: 40_000,
      },
    );
    await expect(indicator).toHaveAttribute('data-state', 'lost');
    // On a phone the top bar keeps the indicator (a dot) without overflowing; the banner wraps.
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(indicator).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    expect(await page.evaluate(() => document.querySelector('[data-scroll-root]')!.scrollWidth)).toBeLessThanOrEqual(390);
    await page.screenshot({ path: test.info().outputPath('lost-390.png') });
    await page.setViewportSize({ width: 1440, height: 900 });
    expect(Date.now() - stoppedAt).toBeGreaterThan(30_000);

    // Start it again on the same port and data directory: the socket reconnects with the same session cookie.
    await waitReady(base, startServer());
    const readyAt = Date.now();
    await expect(indicator).toHaveAttribute('data-state', 'live', { timeout: 15_000 });
    test.info().annotations.push({ type: 'live again after /readyz (ms)', description: String(Date.now() - readyAt) });
    await expect(indicator).toContainText('Live');
    await expect(banner).toHaveCount(0);
    await expect(map.getByTestId('live-map-stale')).toHaveCount(0);
    await expect(canvas).toHaveAttribute('data-stale', 'false');
    await expect.poll(() => markerLevel()).not.toBe('offline');
    // A position sent after the restart reaches the map.
    await sendFix(prisoner.deviceId, 51.501, -0.121);
    await expect.poll(markerPosition).toEqual({ lat: 51.501, lng: -0.121 });
    await expect(summary).toHaveText(/^1 online/);

    // The same page all along: no reload, no full navigation.
    expect(await page.evaluate(() => (window as unknown as { __feedHealthMarker?: string }).__feedHealthMarker)).toBe(
      'same page',
    );
    expect(loads).toBe(loadsBefore);
    await expect(page).toHaveURL(`${base}/live-map`);
    expect(errors).toEqual([]);
  } finally {
    await api.dispose();
  }
});
