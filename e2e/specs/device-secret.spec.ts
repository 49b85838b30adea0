// Device credentials on the prisoner's tracker box (decision 038). This server runs with DEVICE_SECRET_REQUIRED=false
// (playwright.config.ts), so each device decides: registered here with "Require its secret", it is refused by its id
// alone on the OsmAnd path and taken with its secret; "New secret" replaces it (the old one refused at once); "Accept id
// alone" switches the requirement off again.
import { expect, test, unique } from '../fixtures';
import { seedCell, seedPrisoner } from './records-helpers';

test('a tracker registered to require its secret is refused by id alone until the box switches it off', async ({ adminPage: page, api }) => {
  const { cellId } = await seedCell(api);
  const prisoner = await seedPrisoner(api, { first_name: 'Kit', last_name: unique('Secret'), status: 'Incarcerated', cell_id: cellId });
  await page.goto(`/prisoner-details/${prisoner.prisoner_id}`);
  const box = page.getByTestId('tracking-device-box');
  await box.getByRole('button', { name: 'Assign device' }).click();
  const form = box.getByTestId('register-device-form');
  const deviceId = unique('tag-');
  await form.getByLabel('Device identifier').fill(deviceId);
  await form.getByLabel('Phone (GPS)').check();
  await form.getByLabel('Require its secret').check();
  await form.getByRole('button', { name: 'Register and assign' }).click();
  const secret = (await box.getByTestId('new-device-secret').textContent())!.trim();
  await expect(box.getByTestId('tracking-device-secret')).toContainText('Required');

  const fix = (params: Record<string, string | number>) =>
    api.get('/api/v1/ingest/osmand', { params: { id: deviceId, lat: 51.5, lon: -0.12, timestamp: Math.floor(Date.now() / 1000), ...params } });
  const idOnly = await fix({});
  expect(idOnly.status()).toBe(401);
  expect(await idOnly.json()).toEqual({ message: 'Unknown device or wrong secret' });
  expect((await fix({ secret })).status()).toBe(200);

  // A lost phone: a new secret after confirming, shown once; the old one is refused at once, the new one taken.
  await box.getByRole('button', { name: 'New secret' }).click();
  const confirm = page.getByRole('dialog', { name: 'New device secret' });
  await expect(confirm).toContainText('Its current secret is refused at once');
  await confirm.getByRole('button', { name: 'New secret' }).click();
  const fresh = (await box.getByTestId('tracking-device-secret').getByTestId('new-device-secret').textContent())!.trim();
  expect(fresh).not.toBe(secret);
  expect((await fix({ secret, timestamp: Math.floor(Date.now() / 1000) + 2 })).status()).toBe(401);
  expect((await fix({ secret: fresh, timestamp: Math.floor(Date.now() / 1000) + 3 })).status()).toBe(200);

  await box.getByRole('button', { name: 'Accept id alone' }).click();
  await expect(box.getByTestId('tracking-device-secret')).toContainText('Not required');
  await expect.poll(async () => (await fix({ timestamp: Math.floor(Date.now() / 1000) + 4 })).status()).toBe(200);
});
