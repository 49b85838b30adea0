// Indoor readers (decision 067): registered on the Readers page by clicking on the plan, the secret
// shown once; a sighting over HTTP makes it heard; a new secret and removal ask first. Also at 390 px wide and through
// axe.
import { expect, test, unique } from '../fixtures';
import { expectNoViolations } from './axe';

test('a reader is placed by clicking on the plan, shows its secret once, reports, and is removed after confirming', async ({ adminPage: page, api }) => {
  const tag = unique('tag-');
  expect((await api.post('/api/v1/devices', { data: { id: tag, kind: 'tag' } })).status()).toBe(201);
  await page.goto('/readers');
  const id = unique('rdr-');
  await page.getByLabel('Reader id').fill(id);
  await page.getByLabel('Name').fill(`Corridor ${id}`);
  const plan = page.getByTestId('reader-plan');
  await plan.locator('.leaflet-container').click({ position: { x: 120, y: 80 } });
  await expect(page.getByLabel('Latitude')).not.toHaveValue('');
  await page.getByRole('button', { name: 'Register reader' }).click();
  const secret = (await page.getByTestId('reader-secret').locator('code').textContent())!.trim();
  expect(secret.length).toBeGreaterThan(30);
  const row = page.getByTestId(`reader-row-${id}`);
  await expect(row).toContainText('Never');
  await expectNoViolations(page, 'readers');

  const sighting = await api.post('/api/v1/ingest/sightings', { data: { reader_id: id, secret, tags: [{ id: tag, rssi: -55 }] } });
  expect(await sighting.json()).toEqual({ stored: 1, ignored: 0 });
  const wrong = await api.post('/api/v1/ingest/sightings', { data: { reader_id: id, secret: 'wrong', tags: [{ id: tag, rssi: -55 }] } });
  expect(wrong.status()).toBe(401);
  await page.getByRole('button', { name: 'Done' }).click();
  await expect(page.getByTestId('reader-secret')).toHaveCount(0);
  await page.reload();
  await expect(row).not.toContainText('Never');
  await expect(row.getByRole('cell').nth(4)).toHaveText('1');

  // The live map draws on a canvas: the reader's dot is found among the map's layers (test hook).
  await page.goto('/live-map');
  await expect
    .poll(() =>
      page.evaluate(() => {
        type Layer = { options: { className?: string } };
        const hook = (window as unknown as { __liveMap?: { map: { eachLayer(visit: (layer: Layer) => void): void } | null } }).__liveMap;
        let found = 0;
        hook?.map?.eachLayer((layer) => {
          if (layer.options.className?.includes('reader-marker reader-reporting')) found++;
        });
        return found;
      }),
    )
    .toBeGreaterThan(0);

  // A new secret after confirming: shown once, the old one refused at once, the new one taken.
  await page.goto('/readers');
  await row.getByRole('button', { name: `New secret for reader Corridor ${id}` }).click();
  const confirm = page.getByRole('dialog');
  await expect(confirm).toContainText('Its current secret is refused at once');
  await confirm.getByRole('button', { name: 'New secret' }).click();
  const fresh = (await page.getByTestId('reader-new-secret').locator('code').textContent())!.trim();
  expect(fresh).not.toBe(secret);
  await expectNoViolations(page, 'readers, new secret');
  const old = await api.post('/api/v1/ingest/sightings', { data: { reader_id: id, secret, tags: [{ id: tag, rssi: -55 }] } });
  expect(old.status()).toBe(401);
  const renewed = await api.post('/api/v1/ingest/sightings', { data: { reader_id: id, secret: fresh, tags: [{ id: tag, rssi: -50, at: Date.now() }] } });
  expect(renewed.status(), await renewed.text()).toBe(200);
  await page.getByRole('button', { name: 'Done' }).click();
  await expect(page.getByTestId('reader-new-secret')).toHaveCount(0);

  await row.getByRole('button', { name: `Remove reader Corridor ${id}` }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText(`Remove reader Corridor ${id}?`);
  await dialog.getByRole('button', { name: 'Remove' }).click();
  await expect(row).toHaveCount(0);
});

test('the Readers page works at 390 px wide', async ({ adminPage: page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/readers');
  await expect(page.getByRole('heading', { name: 'Indoor readers' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Register reader' })).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await expectNoViolations(page, 'readers at 390 px');
});
