// Prisoner details with the live picture (docs/decisions/029): an untracked prisoner reads "No
// tracker assigned"; a device is registered and assigned from the screen; a fix sent through the OsmAnd path turns
// the tracker online with its age, battery and small-map marker without a reload; an open alert is listed with its
// links and is acknowledged there; the links lead to the live map and to this prisoner's history.
import { expect, test, unique } from '../fixtures';
import { expectNoViolations } from './axe';
import { seedCell, seedPrisoner } from './records-helpers';

test('the details screen registers a tracker and shows its live picture, open alerts and links without a reload', async ({
  adminPage: page,
  api,
}) => {
  const { cellId } = await seedCell(api);
  const lastName = unique('Live');
  const prisoner = await seedPrisoner(api, { first_name: 'Tess', last_name: lastName, status: 'Incarcerated', cell_id: cellId });
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`/prisoner-details/${prisoner.prisoner_id}`);

  // Untracked: no made-up device name, in the box and in the live picture.
  const box = page.getByTestId('tracking-device-box');
  await expect(box.getByTestId('tracking-device-name')).toHaveText('No tracker assigned');
  const live = page.getByTestId('live-picture');
  await expect(live.getByTestId('live-no-tracker')).toContainText('No tracker assigned');
  await expect(page.getByTestId('prisoner-open-alerts')).toContainText('No open alerts.');

  // Register a new device here; it is assigned in the same step and its secret is shown once.
  const deviceId = unique('tag-');
  await box.getByRole('button', { name: 'Assign device' }).click();
  const form = box.getByTestId('register-device-form');
  await form.getByLabel('Device identifier').fill(deviceId);
  await form.getByLabel('Device name').fill('Wrist tag 7');
  // Phone or tag has no default (decision 092): without it nothing is registered.
  await form.getByRole('button', { name: 'Register and assign' }).click();
  await expect(form.getByRole('group', { name: 'Kind' })).toContainText('Choose whether it is a phone or a tag.');
  expect((await api.get(`/api/v1/devices/${encodeURIComponent(deviceId)}`)).status()).toBe(404);
  await form.getByLabel('Phone (GPS)').check();
  await form.getByRole('button', { name: 'Register and assign' }).click();
  await expect(box.getByTestId('tracking-device-id')).toHaveText(deviceId);
  await expect(box.getByTestId('tracking-device-name')).toHaveText('Wrist tag 7');
  await expect(box.getByTestId('tracking-device-kind')).toHaveText('Phone (GPS)');
  await expect(box.getByTestId('new-device-secret')).not.toBeEmpty();
  const stored = await api.get(`/api/v1/devices/${encodeURIComponent(deviceId)}`);
  expect(stored.status(), await stored.text()).toBe(200);
  expect(await stored.json()).toMatchObject({ prisoner_id: prisoner.prisoner_id, name: 'Wrist tag 7', kind: 'phone' });

  // Registered but silent: offline, no fix.
  await expect(live.getByTestId('live-online')).toHaveText('Offline');
  await expect(live.getByTestId('live-last-fix')).toHaveText('No fix yet');
  await expect(live.getByTestId('live-battery')).toHaveText('Unknown');
  await expectNoViolations(page, 'prisoner details, tracker registered, 1440 px');

  // A fix through the OsmAnd path, taken 30 s ago with 76 % battery: the screen follows without a reload.
  const lat = 51.5 + Math.random() * 0.01;
  const lon = -0.12 + Math.random() * 0.01;
  const fix = await api.get('/api/v1/ingest/osmand', {
    params: { id: deviceId, lat, lon, timestamp: Math.floor(Date.now() / 1000) - 30, batt: 76 },
  });
  expect(fix.status(), await fix.text()).toBe(200);
  await expect(live.getByTestId('live-online')).toHaveText('Online');
  await expect(live.getByTestId('live-battery')).toHaveText('76 %');
  const age = live.getByTestId('live-last-fix');
  await expect(age).toHaveText(/^\d+ s ago$/);
  const firstAge = await age.textContent();
  // The age keeps counting on its own.
  await expect.poll(() => age.textContent(), { timeout: 5_000 }).not.toBe(firstAge);
  const map = live.getByTestId('live-mini-map');
  await expect(map.locator('path.prisoner-mini-marker')).toBeVisible();
  await expect(map).toHaveAttribute('data-lat', String(lat));
  await expect(map).toHaveAttribute('data-lng', String(lon));

  // A second fix moves the marker, still without a reload.
  const lat2 = lat + 0.001;
  const moved = await api.get('/api/v1/ingest/osmand', {
    params: { id: deviceId, lat: lat2, lon, timestamp: Math.floor(Date.now() / 1000), batt: 75 },
  });
  expect(moved.status(), await moved.text()).toBe(200);
  await expect(map).toHaveAttribute('data-lat', String(lat2));
  await expect(live.getByTestId('live-battery')).toHaveText('75 %');

  // An open alert of this prisoner is listed with its links and can be acknowledged here.
  const details = `${unique('fight')} near the tag`;
  const raised = await api.post('/api/v1/alert/all', {
    data: { device_id: deviceId, alert_type: 'Warning', details },
  });
  expect(raised.status(), await raised.text()).toBe(201);
  const openAlerts = page.getByTestId('prisoner-open-alerts');
  const card = openAlerts.getByTestId('alert-card').filter({ hasText: details });
  await expect(card).toBeVisible();
  await expect(card.getByRole('link', { name: 'Show on map' })).toHaveAttribute(
    'href',
    `/live-map?device=${encodeURIComponent(deviceId)}`,
  );
  await expectNoViolations(page, 'prisoner details, live, 1440 px');
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(map.locator('path.prisoner-mini-marker')).toBeVisible();
  await expectNoViolations(page, 'prisoner details, live, 390 px');
  await page.setViewportSize({ width: 1440, height: 900 });

  await card.getByRole('button', { name: 'Acknowledge' }).click();
  await page.getByRole('dialog', { name: 'Acknowledge alert' }).getByRole('button', { name: 'Acknowledge' }).click();
  await expect(card).toHaveCount(0);
  // Geofences are the prison's (decision 076): a perimeter another spec drew at the same time may have alerted on
  // this tracker's fixes too. Those are acknowledged the same way, with a note (a Critical needs one, decision 095),
  // so the list ends empty.
  const others = openAlerts.getByTestId('alert-card');
  for (let left = await others.count(); left > 0; left--) {
    await others.first().getByRole('button', { name: 'Acknowledge' }).click();
    const dialog = page.getByRole('dialog', { name: 'Acknowledge alert' });
    await dialog.getByLabel(/^Note \((required|optional)\)$/).fill('Seen on the details screen');
    await dialog.getByRole('button', { name: 'Acknowledge' }).click();
    await expect(others).toHaveCount(left - 1);
  }
  await expect(openAlerts).toContainText('No open alerts.');

  // The links: the live map centred on this tracker, and this prisoner's history.
  await live.getByRole('link', { name: 'Show on live map' }).click();
  await expect(page).toHaveURL(new RegExp(`/live-map\\?device=${encodeURIComponent(deviceId)}$`));
  await page.goBack();
  await expect(page).toHaveURL(new RegExp(`/prisoner-details/${prisoner.prisoner_id}$`));
  await page.getByTestId('live-picture').getByRole('link', { name: 'Location history' }).click();
  await expect(page).toHaveURL(new RegExp(`/location-history\\?prisoner=${prisoner.prisoner_id}$`));
  await expect(page.getByRole('heading', { name: `Tess ${lastName}`, level: 2 })).toBeVisible();
  await expect(page.getByText('No fixes for this prisoner in this range.')).toHaveCount(0);
});
