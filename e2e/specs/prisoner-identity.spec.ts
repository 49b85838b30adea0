// Who is who (decision 101): two prisoners of one name are told apart by their prison numbers in the list and on the
// live map's tracked list and the alert cards, a number is found by the searches, and a photo uploaded on the details screen shows there.
import { expect, test, unique } from '../fixtures';
import { seedPrisoner, seedTrackedPrisoner } from './records-helpers';

// A real 4 x 4 PNG: the server decodes, resizes and re-encodes it.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAQAAAAECAIAAAAmkwkpAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAEElEQVQImWM4UWEARwzEcQBf0hcB5GBSSgAAAABJRU5ErkJggg==',
  'base64',
);

test('two prisoners of one name are told apart by number in the list, the tracked list and on the alert cards', async ({ adminPage: page, api }) => {
  const last = unique('Twin');
  const first = await seedTrackedPrisoner(api, { first_name: 'John', last_name: last });
  const second = await seedTrackedPrisoner(api, { first_name: 'John', last_name: last });
  expect(first.prison_number).not.toBe(second.prison_number);

  await page.goto('/dashboard');
  await page.getByPlaceholder('Search prisoner').fill(last);
  const rows = page.getByRole('table', { name: 'Prisoners' }).getByRole('row').filter({ hasText: last });
  await expect(rows).toHaveCount(2);
  await expect(rows.filter({ hasText: first.prison_number })).toHaveCount(1);
  await expect(rows.filter({ hasText: second.prison_number })).toHaveCount(1);
  // The number finds him alone.
  await page.getByPlaceholder('Search prisoner').fill(second.prison_number);
  await expect(page.getByRole('table', { name: 'Prisoners' }).getByRole('row').filter({ hasText: last })).toHaveCount(1);
  await expect(page.getByRole('table', { name: 'Prisoners' })).toContainText(second.prison_number);

  // The live map's tracked list: the number stands beside each name, and finds him.
  await page.goto('/live-map');
  const search = page.getByLabel('Search tracked prisoners');
  await search.fill(last);
  const tracked = page.getByTestId('tracked-prisoner').filter({ hasText: `John ${last}` });
  await expect(tracked).toHaveCount(2);
  await expect(tracked.filter({ hasText: `John ${last} · ${first.prison_number} · cell ${first.cellId}` })).toHaveCount(1);
  await search.fill(first.prison_number);
  await expect(tracked).toHaveCount(1);

  const tag = unique('who');
  for (const p of [first, second]) {
    const res = await api.post('/api/v1/alert/all', { data: { alert_type: 'Informational', details: `${tag} asked for the nurse`, device_id: p.deviceId } });
    expect([200, 201], await res.text()).toContain(res.status());
  }
  await page.goto('/alerts');
  const cards = page.getByTestId('alert-card').filter({ hasText: tag });
  await expect(cards).toHaveCount(2);
  await expect(cards.filter({ hasText: `John ${last} · ${first.prison_number} · cell ${first.cellId}` })).toHaveCount(1);
  await expect(cards.filter({ hasText: `John ${last} · ${second.prison_number} · cell ${second.cellId}` })).toHaveCount(1);
});

test('a photo uploaded on the details screen shows there and in the list; flags show as badges', async ({ adminPage: page, api }) => {
  const last = unique('Photo');
  const prisoner = await seedPrisoner(api, { first_name: 'Pia', last_name: last, status: 'Incarcerated' });
  await page.goto(`/prisoner-details/${prisoner.prisoner_id}`);
  const summary = page.getByRole('region', { name: 'Prisoner summary' });
  await expect(summary).toContainText(prisoner.prison_number);

  const chooser = page.waitForEvent('filechooser');
  await summary.getByRole('button', { name: 'Upload photo' }).click();
  await (await chooser).setFiles({ name: 'face.png', mimeType: 'image/png', buffer: PNG });
  await expect(page.getByText('Photo saved.')).toBeVisible();
  const photo = summary.getByRole('img', { name: `Photo of Pia ${last} (${prisoner.prison_number})` });
  await expect(photo).toBeVisible();
  await expect.poll(() => photo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0);
  await expect(summary.getByRole('button', { name: 'Change photo' })).toBeVisible();

  // A flag: set on the details screen, a badge on the summary and in the list.
  const flags = page.getByRole('region', { name: 'Flags' });
  await expect(flags).toContainText('No flags.');
  await flags.getByRole('button', { name: 'Add flag' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add a flag' });
  await dialog.getByLabel('Flag').selectOption({ label: 'Medical alert' });
  await dialog.getByLabel('Note').fill('Epilepsy');
  await dialog.getByRole('button', { name: 'Add flag' }).click();
  await expect(dialog).toBeHidden();
  await expect(flags).toContainText('Epilepsy');
  await expect(summary.getByTestId('flag-medical')).toHaveText('Medical alert');

  await page.goto('/dashboard');
  await page.getByPlaceholder('Search prisoner').fill(last);
  const row = page.getByRole('table', { name: 'Prisoners' }).getByRole('row').filter({ hasText: last });
  await expect(row.getByRole('img', { name: `Photo of Pia ${last} (${prisoner.prison_number})` })).toBeVisible();
  await expect(row.getByTestId('flag-medical')).toBeVisible();
});
