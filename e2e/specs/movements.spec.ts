// The movements screen (decision 064) at 390 px: start a controlled movement through the form, see it
// underway in today's list, then a real OsmAnd fix inside the destination turns it Arrived without a reload, and no
// alarm of the destination (decision 099); ended in one tap, it is no longer in force.
import type { APIRequestContext } from '@playwright/test';
import { expect, test, unique } from '../fixtures';
import { expectNoViolations } from './axe';
import { seedTrackedPrisoner } from './records-helpers';

async function sendFix(api: APIRequestContext, deviceId: string, lat: number, lon: number) {
  const res = await api.get('/api/v1/ingest/osmand', { params: { id: deviceId, lat, lon, timestamp: new Date().toISOString() } });
  expect(res.status(), await res.text()).toBe(200);
}

test('start a movement on a phone and see it arrive live after a fix inside the destination', async ({ adminPage: page, api }) => {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.setViewportSize({ width: 390, height: 844 });
  const lat = 50.9 + Math.random() * 0.01;
  const lng = -1.3 + Math.random() * 0.01;
  const destination = unique('Workshop ');
  const fence = await api.post('/api/v1/geofence/add', {
    data: { geofence_id: unique('mv-'), name: destination, shape: 'Circle', type: 'Positive', alert_type: 'Warning', radius: 30, center_lat: lat + 0.003, center_lng: lng, dwell_seconds: 0 },
  });
  expect(fence.status(), await fence.text()).toBeLessThan(300);
  const prisoner = await seedTrackedPrisoner(api, { first_name: unique('Mover'), last_name: 'Quill' });
  await sendFix(api, prisoner.deviceId, lat, lng);

  await page.goto('/movements');
  await expect(page.getByRole('heading', { name: 'Movements', exact: true })).toBeVisible();
  await page.getByLabel('Search prisoners').fill(prisoner.first_name);
  await page.getByRole('checkbox', { name: new RegExp(prisoner.first_name) }).check();
  await page.getByLabel('Destination').selectOption({ label: destination });
  await page.getByRole('button', { name: 'Due in 15 minutes' }).click();
  // A Warning zone with no schedule alarms at any time: closed at the due time, so the form needs a reason.
  await page.getByRole('button', { name: 'Start movement' }).click();
  await expect(page.getByText(/is closed at \d\d:\d\d/)).toBeVisible();
  await page.getByLabel(/^Reason/).fill('Booked job in the workshop, supervised');
  await page.getByRole('button', { name: 'Start movement' }).click();

  const card = page.locator('[data-testid^="movement-"]').filter({ hasText: destination }).first();
  await expect(card).toBeVisible();
  await expect(card.getByTestId(`movement-prisoner-${prisoner.prisoner_id}`).getByTestId('movement-state')).toHaveText('Underway');
  await expectNoViolations(page, 'movements screen at 390 px');
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);

  // A fix inside the destination: the server's dataChanged('movements') refreshes the list.
  await sendFix(api, prisoner.deviceId, lat + 0.003, lng);
  await expect(card.getByTestId(`movement-prisoner-${prisoner.prisoner_id}`).getByTestId('movement-state')).toHaveText('Arrived', { timeout: 20_000 });
  await expect(card.getByTestId('movement-state').first()).toHaveText('Arrived');
  // Authorised: no "entered" alarm of the destination for him.
  const alertsRes = await api.get('/api/v1/alert/recent', { params: { limit: 50 } });
  const { data } = (await alertsRes.json()) as { data: { details: string; prisoner_id: number | null }[] };
  expect(data.filter((a) => a.prisoner_id === prisoner.prisoner_id).map((a) => a.details)).toEqual([]);
  // Ended in one tap: no longer in force.
  await card.getByRole('button', { name: /^End movement/ }).click();
  await expect(card.getByTestId('movement-authority')).toContainText('Ended by');

  // The prisoner's details show the movement.
  await page.goto(`/prisoner-details/${prisoner.prisoner_id}`);
  await expect(page.getByTestId('movement').getByTestId('movement-state')).toHaveText('Arrived');
  expect(errors).toEqual([]);
});
