// Caseloads on the screens (decision 051): a wing officer of block A sees block A's prisoner on the
// dashboard, the live map and the alerts screen, and nothing of block B's, whose prisoner moves and raises a Critical
// SOS while the officer watches; the administrator sees both.
import type { APIRequestContext, Page } from '@playwright/test';
import { createReadyAccount, expect, test, unique } from '../fixtures';
import { seedTrackedPrisoner } from './records-helpers';

async function report(api: APIRequestContext, deviceId: string, extra: Record<string, string | number> = {}) {
  const res = await api.get('/api/v1/ingest/osmand', {
    params: { id: deviceId, lat: 51.5007, lon: -0.1246, timestamp: Math.floor(Date.now() / 1000), ...extra },
  });
  expect(res.status(), await res.text()).toBe(200);
}

async function logIn(page: Page, username: string, password: string) {
  const res = await page.request.post('/api/v1/admin/login', { data: { username, password } });
  expect(res.status(), await res.text()).toBe(200);
}

test('a wing officer of block A sees only block A on the dashboard, the live map and the alerts screen', async ({
  api,
  adminPage,
  browser,
  playwright,
  baseURL,
}) => {
  const inBlock = await seedTrackedPrisoner(api, { first_name: unique('Alpha'), last_name: 'Inside' });
  const outside = await seedTrackedPrisoner(api, { first_name: unique('Bravo'), last_name: 'Outside' });
  const blockA = inBlock.block;
  const officer = await createReadyAccount(api, playwright, baseURL, {
    username: unique('officer'),
    name: 'Wendy Wing',
    password: 'rounds of my own landing',
    role: 'officer',
    blocks: [blockA],
  });
  // Both report and raise a Critical SOS before the officer looks.
  for (const prisoner of [inBlock, outside]) await report(api, prisoner.deviceId, { alarm: 'sos' });

  const context = await browser.newContext();
  const page = await context.newPage();
  await logIn(page, officer.username, officer.password);

  // Dashboard: the search finds block A's prisoner and not block B's.
  await page.goto('/dashboard');
  await expect(page.getByTestId('admin-role')).toHaveText('Wing officer');
  const search = page.getByRole('searchbox').first();
  await search.fill(inBlock.first_name);
  await expect(page.getByRole('row').filter({ hasText: inBlock.first_name })).toHaveCount(1);
  await search.fill(outside.first_name);
  await expect(page.getByText('No prisoners match the search and filters.')).toBeVisible();
  await expect(page.getByRole('row').filter({ hasText: outside.first_name })).toHaveCount(0);
  // Details of the other block's prisoner answer as if he did not exist.
  const probe = await page.request.get(`/api/v1/prisoner/${outside.prisoner_id}`);
  expect(probe.status()).toBe(404);

  // Live map: block A's prisoner is listed as tracked; block B's is not, also while he moves and alarms again.
  await page.goto('/live-map');
  const tracked = page.getByTestId('tracked-prisoner');
  await expect(tracked.filter({ hasText: inBlock.first_name })).toHaveCount(1);
  await report(api, outside.deviceId, { lat: 51.5009 });
  await report(api, outside.deviceId, { alarm: 'sos', lat: 51.501 });
  await report(api, inBlock.deviceId, { lat: 51.5008 });
  await expect(tracked.filter({ hasText: inBlock.first_name })).toHaveCount(1);
  await expect(tracked.filter({ hasText: outside.first_name })).toHaveCount(0);
  await expect(page.getByText(outside.first_name)).toHaveCount(0);

  // Alerts screen: block A's SOS, none of block B's.
  await page.goto('/allAlerts');
  await expect(page.getByText(inBlock.first_name).first()).toBeVisible();
  await expect(page.getByText(outside.first_name)).toHaveCount(0);

  // The administrator sees both on the same screen.
  await adminPage.goto('/allAlerts');
  await expect(adminPage.getByText(inBlock.first_name).first()).toBeVisible();
  await expect(adminPage.getByText(outside.first_name).first()).toBeVisible();
  await context.close();
});
