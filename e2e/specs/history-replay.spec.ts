// Location history: a prisoner's track fed through device ingestion is replayed on the map and exported as GPX.
import { readFileSync } from 'node:fs';
import { expect, test, unique, walkTracker } from '../fixtures';

const FIXES = 120;

test('replays a prisoner track, jumps the player and exports GPX', async ({ adminPage: page, api }) => {
  const firstName = unique('Hist');
  const created = await api.post('/api/v1/prisoner/add', {
    data: { first_name: firstName, last_name: 'Replay', date_of_birth: '1991-06-12', status: 'Incarcerated' },
  });
  expect(created.status(), await created.text()).toBe(200);
  const prisonerId = (await created.json()).prisoner_id as number;
  const device = await api.post('/api/v1/devices', { data: { name: `${firstName} tag`, kind: 'phone' } });
  expect([200, 201], await device.text()).toContain(device.status());
  const { id: deviceId, secret } = (await device.json()) as { id: string; secret: string };
  const assign = await api.put(`/api/v1/devices/${encodeURIComponent(deviceId)}/assign`, {
    data: { prisoner_id: prisonerId },
  });
  expect(assign.status(), await assign.text()).toBe(200);

  // 120 fixes, one every 10 s over the last 20 minutes, walking north about 11 m a fix.
  const start = Date.now() - 25 * 60_000;
  const positions = Array.from({ length: FIXES }, (_, i) => ({
    device_id: deviceId,
    secret,
    latitude: 51.5 + i * 0.0001,
    longitude: -0.12,
    timestamp: new Date(start + i * 10_000).toISOString(),
    accuracy: 5,
  }));
  const ingest = await api.post('/api/v1/ingest/positions', { data: { positions } });
  expect(ingest.status(), await ingest.text()).toBe(200);
  expect((await ingest.json()).stored).toBe(FIXES);

  await page.goto('/location-history');
  await page.getByRole('searchbox', { name: 'Prisoner' }).fill(firstName);
  await page
    .getByRole('list', { name: 'Prisoners' })
    .getByRole('button', { name: new RegExp(firstName) })
    .click();
  await expect(page.getByRole('heading', { name: `${firstName} Replay` })).toBeVisible();
  await expect(page.getByText(`${FIXES} fixes`)).toBeVisible();
  // 119 steps of ~11.1 m.
  await expect(page.getByTestId('history-distance')).toHaveText(/^1\.3\d km$/);
  const where = page.getByTestId('player-position');
  await expect(where).toHaveText('51.50000, -0.12000');

  // Play at 60x: the clock and the marker move.
  const clock = page.getByTestId('player-time');
  const startTime = Number(await clock.getAttribute('data-time'));
  await page.getByLabel('Speed').selectOption('60');
  await page.getByRole('button', { name: 'Play', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Pause', exact: true })).toBeVisible();
  await expect
    .poll(async () => Number(await clock.getAttribute('data-time')) - startTime, { timeout: 10_000 })
    .toBeGreaterThan(60_000);
  await expect(where).not.toHaveText('51.50000, -0.12000');
  await page.getByRole('button', { name: 'Pause', exact: true }).click();
  const paused = Number(await clock.getAttribute('data-time'));
  await page.waitForTimeout(500);
  expect(Number(await clock.getAttribute('data-time'))).toBe(paused);

  // The slider seeks; follow mode can be switched on.
  await page.getByRole('slider', { name: 'Time' }).focus();
  await page.keyboard.press('Home');
  await expect.poll(async () => Number(await clock.getAttribute('data-time'))).toBe(startTime);
  await page.getByLabel('Follow').check();

  // GPX export: every fix, in order, as GPX 1.1.
  const downloadPromise = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Export GPX' }).click();
  const download = await downloadPromise;
  expect(download.suggestedFilename()).toMatch(
    new RegExp(`^track-prisoner-${prisonerId}-\\d{8}T\\d{6}Z-\\d{8}T\\d{6}Z\\.gpx$`),
  );
  const gpx = readFileSync((await download.path())!, 'utf8');
  expect(gpx).toContain('<gpx version="1.1"');
  expect(gpx).toContain(`<name>${firstName} Replay (prisoner ${prisonerId})</name>`);
  expect(gpx.match(/<trkpt /g)).toHaveLength(FIXES);
  expect(gpx).toContain(`<trkpt lat="51.5" lon="-0.12"><time>${new Date(start).toISOString()}</time></trkpt>`);
  expect(gpx.trimEnd().endsWith('</gpx>')).toBe(true);
});

test('an alert of the range jumps the player to its moment', async ({ adminPage: page, api }) => {
  const firstName = unique('Jump');
  const created = await api.post('/api/v1/prisoner/add', {
    data: { first_name: firstName, last_name: 'Alerted', date_of_birth: '1991-06-12', status: 'Incarcerated' },
  });
  expect(created.status(), await created.text()).toBe(200);
  const prisonerId = (await created.json()).prisoner_id as number;
  const device = await api.post('/api/v1/devices', { data: { name: `${firstName} tag`, kind: 'phone' } });
  const { id: deviceId, secret } = (await device.json()) as { id: string; secret: string };
  await api.put(`/api/v1/devices/${encodeURIComponent(deviceId)}/assign`, { data: { prisoner_id: prisonerId } });
  const start = Math.floor(Date.now() / 1000) * 1000 - 30 * 60_000;
  await walkTracker(api, { id: deviceId, secret }, start, 20);
  const alertAt = new Date(start + 10 * 60_000);
  const alert = await api.post('/api/v1/alert/all', {
    data: {
      device_id: deviceId,
      alert_type: 'Warning',
      details: `${firstName} climbed the fence`,
      timestamp: alertAt.toISOString().slice(0, 19).replace('T', ' '),
    },
  });
  expect([200, 201], await alert.text()).toContain(alert.status());

  await page.goto('/location-history');
  await page.getByRole('searchbox', { name: 'Prisoner' }).fill(firstName);
  await page
    .getByRole('list', { name: 'Prisoners' })
    .getByRole('button', { name: new RegExp(firstName) })
    .click();
  await page.getByRole('button', { name: new RegExp(`${firstName} climbed the fence`) }).click();
  await expect
    .poll(async () => Number(await page.getByTestId('player-time').getAttribute('data-time')))
    .toBe(alertAt.getTime());
});
