// Escorts on the live map (decision 035): a police officer's tracker is drawn with its own marker
// shape and is not in the prisoner list; an escort created through the API is drawn as a line between the two markers,
// and the line goes when the escort ends.
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test, unique } from '../fixtures';
import { expectNoViolations } from './axe';
import { seedStaff, seedTrackedPrisoner } from './records-helpers';

type Hook = { layer: { shapeOf(id: string): string | null } };

async function sendFix(api: APIRequestContext, deviceId: string, lat: number, lon: number) {
  const res = await api.get('/api/v1/ingest/osmand', { params: { id: deviceId, lat, lon, timestamp: Math.floor(Date.now() / 1000) } });
  expect(res.status(), await res.text()).toBe(200);
}

const shapeOf = (page: Page, id: string) =>
  page.evaluate((trackingId) => (window as unknown as { __liveMap?: Hook }).__liveMap?.layer.shapeOf(trackingId) ?? null, id);

test('an escort is a line between the prisoner and the officer; the officer has a marker of their own and is no prisoner', async ({
  adminPage: page,
  api,
}) => {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.setViewportSize({ width: 1440, height: 900 });
  const prisoner = await seedTrackedPrisoner(api, { first_name: unique('Escorted'), last_name: 'Walker' });
  const officer = await seedStaff(api, 'Police', { first_name: unique('Officer'), last_name: 'Dale' });
  const deviceRes = await api.post('/api/v1/devices', { data: { name: unique('Radio '), staff_id: officer.staff_id, kind: 'phone' } });
  expect(deviceRes.status(), await deviceRes.text()).toBe(201);
  const officerDevice = (await deviceRes.json()) as { id: string; staff_id: number };
  expect(officerDevice.staff_id).toBe(officer.staff_id);

  const lat = 51.47 + Math.random() * 0.01;
  const lng = -0.18 + Math.random() * 0.01;
  await sendFix(api, prisoner.deviceId, lat, lng);
  await sendFix(api, officerDevice.id, lat + 0.0002, lng + 0.0002);

  await page.goto('/live-map');
  const canvas = page.getByTestId('tracked-markers-canvas');
  await expect.poll(() => shapeOf(page, officerDevice.id)).toBe('staff');
  await expect.poll(() => shapeOf(page, prisoner.deviceId)).toBe('dot');
  // The prisoner is in the list, the officer is not.
  const list = page.getByRole('list', { name: 'Tracked prisoners' });
  await expect(list.getByTestId('tracked-prisoner').filter({ hasText: prisoner.first_name })).toHaveCount(1);
  await expect(list.getByTestId('tracked-prisoner').filter({ hasText: officer.first_name })).toHaveCount(0);
  const before = Number((await canvas.getAttribute('data-escort-lines')) ?? '0');

  const created = await api.post('/api/v1/escorts', { data: { prisoner_id: prisoner.prisoner_id, staff_id: officer.staff_id, max_distance_m: 100 } });
  expect(created.status(), await created.text()).toBe(200);
  const escort = ((await created.json()) as { escort: { id: number; active: boolean } }).escort;
  expect(escort.active).toBe(true);
  // Without a reload: the server's dataChanged('escorts') refreshes the map's escorts.
  await expect(canvas).toHaveAttribute('data-escort-lines', String(before + 1));
  await expectNoViolations(page, 'live map with an escort line');

  const ended = await api.post(`/api/v1/escorts/${escort.id}/end`);
  expect(ended.status(), await ended.text()).toBe(200);
  await expect(canvas).toHaveAttribute('data-escort-lines', String(before));
  expect(errors).toEqual([]);
});
