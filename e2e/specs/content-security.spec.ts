// Every screen works under the server's Content-Security-Policy: no CSP violation and no script error on any page.
import { expect, test } from '../fixtures';

const SCREENS = [
  '/',
  '/dashboard',
  '/live-map',
  '/allAlerts',
  '/location-history',
  '/investigations/near',
  '/cell-assign',
  '/audit',
  '/profile',
  '/communication',
];

test('no CSP violation or script error on any screen', async ({ adminPage: page }) => {
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    // The e2e server runs with MAP_TILES=off: no tile is asked for.
    if (message.text().startsWith('Failed to load resource')) return;
    problems.push(`console: ${message.text()}`);
  });
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      console.error(`CSP violation: ${event.violatedDirective} ${event.blockedURI}`);
    });
  });
  for (const path of SCREENS) {
    await page.goto(path);
    // The top bar: a logged-in account has no footer (decision 105).
    await expect(page.getByRole('banner')).toBeVisible();
    await page.waitForLoadState('networkidle');
  }
  expect(problems).toEqual([]);
});

test('the live map draws thousands of markers in its worker under the CSP', async ({ adminPage: page }) => {
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) problems.push(message.text());
  });
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      console.error(`CSP violation: ${event.violatedDirective} ${event.blockedURI}`);
    });
  });
  await page.goto('/live-map?testHooks=1');
  type Hook = {
    feed: { snapshot(s: Record<string, unknown>): void };
    layer: { pixelPathThreshold: number; onPixelFrame: (() => void) | null };
    map: { getCenter(): { lat: number; lng: number } };
  };
  await page.waitForFunction(() => Boolean((window as unknown as { __liveMap?: Hook }).__liveMap?.map));
  // More markers than the layer's pixel threshold: the worker (marker-pixels.worker.ts) draws them.
  await page.evaluate(() => {
    const hook = (window as unknown as { __liveMap: Hook }).__liveMap;
    const counter = window as unknown as { __workerFrames: number };
    counter.__workerFrames = 0;
    hook.layer.onPixelFrame = () => counter.__workerFrames++;
    const { lat, lng } = hook.map.getCenter();
    const all: Record<string, unknown> = {};
    const count = hook.layer.pixelPathThreshold + 100;
    for (let i = 0; i < count; i++) {
      all[`csp-${i}`] = {
        id: `csp-${i}`,
        prisonerId: i,
        name: `CSP ${i}`,
        latitude: lat + ((i % 50) - 25) * 0.0002,
        longitude: lng + (Math.floor(i / 50) - 16) * 0.0002,
        trackingId: `csp-${i}`,
      };
    }
    hook.feed.snapshot(all);
    (window as unknown as { __cspAll: Record<string, unknown> }).__cspAll = all;
  });
  // The server's own first snapshot may arrive after ours and replace it: ours is given again until the worker draws.
  await expect
    .poll(() =>
      page.evaluate(() => {
        const w = window as unknown as { __workerFrames: number; __cspAll: Record<string, unknown>; __liveMap: Hook };
        if (w.__workerFrames === 0) w.__liveMap.feed.snapshot(w.__cspAll);
        return w.__workerFrames;
      }),
    )
    .toBeGreaterThan(0);
  await expect(page.locator('canvas.tracked-markers-canvas')).toHaveCount(2);
  expect(problems).toEqual([]);
});
