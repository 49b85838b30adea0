// A crowd opens into a list (decision 066): prisoners tracked at nearly the same spot are drawn on top
// of each other; a click among them lists them all (worst alert first), the first entry takes the keyboard focus,
// Tab and Enter pick one and open his popup, Escape closes the list, and a mouse click on an entry picks it too.
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test, unique } from '../fixtures';
import { expectNoViolations } from './axe';
import { seedTrackedPrisoner } from './records-helpers';

type LatLng = { lat: number; lng: number };
type Hook = {
  layer: { positionOf(id: string): LatLng | null };
  map: {
    setView(center: [number, number], zoom: number, options?: object): void;
    latLngToContainerPoint(point: LatLng): { x: number; y: number };
  } | null;
};

async function sendFix(api: APIRequestContext, deviceId: string, at: LatLng) {
  const res = await api.get('/api/v1/ingest/osmand', { params: { id: deviceId, lat: at.lat, lon: at.lng, timestamp: new Date().toISOString() } });
  expect(res.status(), await res.text()).toBe(200);
}

/** Acknowledges whatever is open for the prisoner (a shape left by another spec may have raised something). */
async function acknowledgeOpen(api: APIRequestContext, prisonerId: number) {
  const res = await api.get('/api/v1/alert/prisoneralerts', { params: { prisoner_id: prisonerId, status: 'New', limit: 100 } });
  const open = ((await res.json()) as { data: { id: number; alert_type: string }[] }).data;
  if (!open.length) return;
  const confirm = open.filter((alert) => alert.alert_type === 'Critical').map((alert) => alert.id);
  const bulk = await api.post('/api/v1/alert/bulk', {
    data: {
      ids: open.map((alert) => alert.id),
      action: 'acknowledge',
      note: 'Cleared before the crowd check',
      ...(confirm.length > 0 && { confirm_critical_ids: confirm }),
    },
  });
  expect(bulk.status(), await bulk.text()).toBe(200);
}

/** Where the crowd is drawn (the map's container pixels), once every marker has glided to its fix. */
async function crowdPoint(page: Page, ids: string[], at: LatLng) {
  await expect
    .poll(() =>
      page.evaluate(
        ({ ids, at }) => {
          const hook = (window as unknown as { __liveMap?: Hook }).__liveMap;
          return ids.every((id) => {
            const p = hook?.layer.positionOf(id);
            return p !== null && p !== undefined && Math.abs(p.lat - at.lat) < 1e-4 && Math.abs(p.lng - at.lng) < 1e-4;
          });
        },
        { ids, at },
      ),
    )
    .toBe(true);
  await page.waitForTimeout(1200); // the glide (1 s) to the last fix
  return page.evaluate((at) => (window as unknown as { __liveMap?: Hook }).__liveMap!.map!.latLngToContainerPoint(at), at);
}

test('a click on a crowd lists its prisoners, worst first; Tab and Enter pick one, Escape closes, a click picks too', async ({ adminPage: page, api }) => {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.setViewportSize({ width: 1440, height: 900 });
  const at = { lat: 51.7 + Math.random() * 0.05, lng: -1.6 + Math.random() * 0.05 };
  const family = unique('Crowd');
  const prisoners = [];
  for (const first of ['Anna', 'Ben', 'Cara', 'Dev']) prisoners.push(await seedTrackedPrisoner(api, { first_name: `${first}${family}`, last_name: 'Yard' }));
  const names = prisoners.map((p) => `${p.first_name} ${p.last_name}`);
  // Within a metre or two of each other: one spot at any zoom a person would use.
  for (const [index, prisoner] of prisoners.entries()) await sendFix(api, prisoner.deviceId, { lat: at.lat + index * 0.00001, lng: at.lng });
  for (const prisoner of prisoners) await acknowledgeOpen(api, prisoner.prisoner_id);
  // Cara has a Critical open: she leads the list.
  const raised = await api.post('/api/v1/alert/all', { data: { device_id: prisoners[2]!.deviceId, alert_type: 'Critical', details: unique('Fight in the yard ') } });
  expect(raised.status(), await raised.text()).toBe(201);

  await page.goto('/live-map');
  await page.waitForFunction(() => Boolean((window as unknown as { __liveMap?: Hook }).__liveMap?.map));
  await page.evaluate((at) => (window as unknown as { __liveMap?: Hook }).__liveMap!.map!.setView([at.lat, at.lng], 17, { animate: false }), at);
  const ids = prisoners.map((p) => p.deviceId);
  const container = page.getByTestId('live-map').locator('.leaflet-container');
  const list = page.getByTestId('marker-cluster');
  const items = list.getByTestId('marker-cluster-item');

  // Cara's colour follows her Critical before the list is read.
  await expect.poll(() => page.evaluate((id) => (window as unknown as { __liveMap?: { layer: { levelOf(id: string): string | null } } }).__liveMap?.layer.levelOf(id), ids[2]!)).toBe('critical');
  const point = await crowdPoint(page, ids, at);
  await container.click({ position: point });
  await expect(list).toBeVisible();
  await expect(list.locator('p').first()).toHaveText('4 here');
  await expect(items).toHaveCount(4);
  await expect(items.first()).toHaveText(`${names[2]} · Critical`);
  const listed = (await items.allTextContents()).map((text) => text.replace(/ · .*$/, ''));
  expect([...listed].sort()).toEqual([...names].sort());
  await expect(items.first()).toBeFocused();
  await expectNoViolations(page, 'live map with a crowd list open');

  // The keyboard: Tab to the second entry, Enter opens that prisoner's popup.
  await page.keyboard.press('Tab');
  await expect(items.nth(1)).toBeFocused();
  await page.keyboard.press('Enter');
  const popup = page.getByTestId('marker-popup');
  await expect(popup.locator('div').first()).toHaveText(`Name: ${listed[1]}`);
  await expect(list).toHaveCount(0);

  // Escape closes the list without picking anyone.
  await container.click({ position: point });
  await expect(items.first()).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(list).toHaveCount(0);
  await expect(popup).toHaveCount(0);

  // A mouse click on an entry picks it as well.
  await container.click({ position: point });
  await items.filter({ hasText: names[3]! }).click();
  await expect(popup.locator('div').first()).toHaveText(`Name: ${names[3]}`);
  expect(errors).toEqual([]);
});
