// The site plan is the map and nothing needs the internet. The e2e server runs with
// MAP_TILES=off (playwright.config.ts). An administrator places a plan with three clicks on the image and three on the
// map; then every screen of the web app's router (read from router.tsx, so a new screen is covered) is visited and any
// request to another origin fails the test; the live map shows the plan under markers that move.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test, unique } from '../fixtures';
import { seedTrackedPrisoner } from './records-helpers';

const routerSource = readFileSync(path.resolve(import.meta.dirname, '../../apps/web/src/app/router.tsx'), 'utf8');
const ROUTES = [...routerSource.matchAll(/path: '([^']+)'/g)]
  .map((match) => match[1]!)
  .filter((route) => route !== '*');

/** A plan drawing: a wall, three blocks and a yard, with text (fonts come from the system, not a server). */
const PLAN_SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="600" height="480" viewBox="0 0 600 480" font-family="sans-serif">
<rect width="600" height="480" fill="#e2e8f0"/><polygon points="60,60 540,60 560,420 40,420" fill="#f8fafc" stroke="#334155" stroke-width="8"/>
<rect x="100" y="100" width="120" height="90" fill="#cbd5e1"/><text x="160" y="150" text-anchor="middle">Block A</text>
<rect x="380" y="100" width="120" height="90" fill="#cbd5e1"/><text x="440" y="150" text-anchor="middle">Block B</text>
<circle cx="300" cy="300" r="70" fill="#bbf7d0"/><text x="300" y="305" text-anchor="middle">Yard</text></svg>`;

async function sendFix(api: APIRequestContext, deviceId: string, lat: number, lon: number) {
  const res = await api.get('/api/v1/ingest/osmand', {
    params: { id: deviceId, lat, lon, timestamp: Math.floor(Date.now() / 1000) },
  });
  expect(res.status(), await res.text()).toBe(200);
}

/** Uploads the plan through the API, 600 x 480 px over about 300 x 240 m around `centre`, and makes it the default. */
async function placePlan(api: APIRequestContext, centre: { lat: number; lng: number }) {
  const metre = { lat: 1 / 111_195, lng: 1 / (111_195 * Math.cos((centre.lat * Math.PI) / 180)) };
  const at = (x: number, y: number) => ({
    x,
    y,
    lat: centre.lat + (240 - y) * 0.5 * metre.lat,
    lng: centre.lng + (x - 300) * 0.5 * metre.lng,
  });
  const res = await api.post('/api/v1/site-plans', {
    multipart: {
      name: unique('Plan '),
      points: JSON.stringify([at(0, 0), at(600, 0), at(0, 480)]),
      file: { name: 'plan.svg', mimeType: 'image/svg+xml', buffer: Buffer.from(PLAN_SVG) },
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  const plan = (await res.json()) as { id: number };
  expect((await api.put(`/api/v1/site-plans/${plan.id}/default`, { data: {} })).status()).toBe(200);
  return plan;
}

/** Records every request of the page (its workers included) to an origin that is not the app's. */
function watchOrigins(page: Page, baseURL: string): string[] {
  const own = new URL(baseURL).origin;
  const elsewhere: string[] = [];
  page.context().on('request', (request) => {
    const url = request.url();
    if (url.startsWith('data:') || url.startsWith('blob:')) return;
    if (new URL(url).origin !== own) elsewhere.push(`${page.url()} -> ${url}`);
  });
  return elsewhere;
}

test.describe('placing a plan', () => {
  // Tall enough for the plan's pane and the map to be in view together under a Critical bar of other specs' alerts:
  // no click scrolls the page, so none lands where the page was a moment before.
  test.use({ viewport: { width: 1280, height: 1200 } });
  test('an administrator places a plan by clicking three points on the image and three on the map', async ({
    adminPage: page,
    baseURL,
  }) => {
    const elsewhere = watchOrigins(page, baseURL!);
    await page.goto('/site-plan');
    await page.getByTestId('plan-upload').click();
    const name = unique('Placed plan ');
    await page.getByTestId('plan-name').fill(name);
    await page
      .getByTestId('plan-file')
      .setInputFiles({ name: 'site.svg', mimeType: 'image/svg+xml', buffer: Buffer.from(PLAN_SVG) });
    const image = page.getByTestId('plan-source-image');
    await expect(image).toBeVisible();
    await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    const map = page.getByTestId('plan-placement').locator('.leaflet-container');
    const imageBox = (await image.boundingBox())!;
    const mapBox = (await map.boundingBox())!;
    // Clicks relative to each element, wherever the Critical bar above has put it.
    for (const [fx, fy] of [
      [0.1, 0.1],
      [0.9, 0.15],
      [0.3, 0.6],
    ] as const) {
      await expect(page.getByTestId('plan-step')).toContainText('a point on the plan');
      await image.click({ position: { x: imageBox.width * fx, y: imageBox.height * fy } });
      await expect(page.getByTestId('plan-step')).toContainText('its spot on the map');
      await map.click({ position: { x: mapBox.width * (0.2 + fx * 0.6), y: mapBox.height * (0.2 + fy * 0.6) } });
    }
    await expect(page.getByTestId('plan-fit')).toContainText(/^Fit error 0\.00 m at the points; scale/);
    // The preview is drawn on the placement map.
    await expect(page.getByTestId('plan-placement').locator('img.site-plan-image')).toHaveCount(1);
    await page.getByTestId('plan-save').click();
    await expect(page.getByTestId('plan-row').filter({ hasText: name })).toBeVisible();
    // Deleting asks first.
    await page.getByTestId('plan-row').filter({ hasText: name }).getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByTestId('confirm-subject')).toHaveText(name);
    await page.getByRole('button', { name: 'Delete plan' }).click();
    await expect(page.getByTestId('plan-row').filter({ hasText: name })).toHaveCount(0);
    expect(elsewhere).toEqual([]);
  });
});

test('with MAP_TILES=off no screen asks another origin, and the live map shows the plan under moving markers', async ({
  adminPage: page,
  api,
  baseURL,
}) => {
  test.setTimeout(180_000);
  const settings = (await (await api.get('/api/v1/settings')).json()) as {
    mapTileUrl: string | null;
    mapCenter: { lat: number; lng: number };
  };
  expect(settings.mapTileUrl).toBeNull();
  const centre = { lat: 51.47, lng: -0.19 };
  await placePlan(api, centre);
  const prisoner = await seedTrackedPrisoner(api, { first_name: unique('Plan'), last_name: 'Walker' });
  await sendFix(api, prisoner.deviceId, centre.lat, centre.lng);

  const elsewhere = watchOrigins(page, baseURL!);
  expect(ROUTES.length).toBeGreaterThan(10);
  for (const route of ROUTES) {
    await page.goto(route.replace(':prisonerId', String(prisoner.prisoner_id)));
    // The top bar: a logged-in account has no footer (decision 105).
    await expect(page.getByRole('banner')).toBeVisible();
    await page.waitForLoadState('networkidle');
  }
  expect(elsewhere).toEqual([]);

  await page.goto('/live-map?testHooks=1');
  const plan = page.locator('.leaflet-container img.site-plan-image');
  await expect(plan).toHaveCount(1);
  await expect.poll(() => plan.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  await expect(page.getByTestId('site-plan-opacity')).toBeVisible();
  type Hook = { layer: { positionOf(id: string): { lat: number; lng: number } | null } };
  const position = () =>
    page.evaluate(
      (id) => (window as unknown as { __liveMap?: Hook }).__liveMap?.layer.positionOf(id)?.lat ?? null,
      prisoner.deviceId,
    );
  await expect.poll(position).toBeCloseTo(centre.lat, 4);
  await sendFix(api, prisoner.deviceId, centre.lat + 0.0005, centre.lng);
  await expect.poll(position, { timeout: 15_000 }).toBeCloseTo(centre.lat + 0.0005, 4);
  // The opacity is this browser's: kept across a reload.
  await page.getByTestId('site-plan-opacity').fill('40');
  await page.reload();
  await expect(page.getByTestId('site-plan-opacity')).toHaveValue('40');
  await expect.poll(() => plan.evaluate((img: HTMLElement) => img.style.opacity)).toBe('0.4');
  expect(elsewhere).toEqual([]);
});
