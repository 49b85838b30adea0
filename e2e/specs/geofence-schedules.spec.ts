// Zones for some prisoners at some times: made in "Enter Geofence Details", changed in the editor
// beside the map, and shown in the geofence list ("Mon-Fri 09:00-17:00 · Block X").
import { deleteGeofenceApproved, expect, test, unique } from '../fixtures';
import { expectNoViolations } from './axe';
import type { GeofenceRow } from './map-helpers';
import { seedTrackedPrisoner } from './records-helpers';

const madeNames: string[] = [];
test.afterEach(async ({ api, secondApi }) => {
  const names = madeNames.splice(0);
  const res = await api.get('/api/v1/geofence/all');
  for (const geofence of (await res.json()) as GeofenceRow[]) {
    if (names.includes(geofence.name)) await deleteGeofenceApproved(api, secondApi, geofence.geofence_id);
  }
});

test('a zone for one block on weekdays, then a night window added in the editor, shows its rules in the list', async ({
  adminPage: page,
  api,
}) => {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  // A block of its own (e2e runs without demo data).
  const block = unique('Z').replace(/[^\w]/g, '').slice(0, 12);
  const cell = await api.post('/api/v1/cell_controls/cells', {
    data: { cell_id: `${block}-1`, block, capacity: 2, security_level: 'Low' },
  });
  expect(cell.status(), await cell.text()).toBe(200);
  const name = unique('Workshop ');
  madeNames.push(name);

  await page.goto('/live-map');
  await page.getByRole('button', { name: 'Enter coordinates' }).click();
  const coordinates = page.getByRole('dialog', { name: 'Enter Coordinates' });
  await coordinates.getByLabel('Centre latitude').fill(String(51.47 + Math.random() * 0.004));
  await coordinates.getByLabel('Centre longitude').fill(String(-0.16 + Math.random() * 0.004));
  await coordinates.getByLabel('Radius (metres)').fill('80');
  await coordinates.getByLabel('Radius (metres)').press('Enter');

  const details = page.getByRole('dialog', { name: 'Enter Geofence Details' });
  await expect(details).toBeVisible();
  await details.getByLabel('Geofence Name').fill(name);
  await expect(details.getByRole('radio', { name: 'Everyone' })).toBeChecked();
  await expect(details.getByRole('radio', { name: 'Always' })).toBeChecked();
  await details.getByRole('radio', { name: 'Chosen blocks' }).check();
  // Saving without a block says what is missing.
  await details.getByRole('button', { name: 'Save Geofence' }).click();
  await expect(details.getByRole('alert')).toHaveText('Applies to: choose at least one block');
  await details.getByRole('checkbox', { name: `Block ${block}` }).check();
  await details.getByRole('radio', { name: 'On a weekly schedule' }).check();
  const first = details.getByRole('group', { name: 'Window 1' });
  // The first window starts as working hours on weekdays.
  for (const day of ['Mon', 'Tue', 'Wed', 'Thu', 'Fri']) await expect(first.getByRole('checkbox', { name: day })).toBeChecked();
  await expect(first.getByRole('checkbox', { name: 'Sat' })).not.toBeChecked();
  await expect(first.getByLabel('Start')).toHaveValue('09:00');
  await expect(first.getByLabel('End')).toHaveValue('17:00');
  await expectNoViolations(page, 'geofence details with a block and a schedule');
  await details.getByRole('button', { name: 'Save Geofence' }).click();
  await expect(details).toBeHidden();

  const item = page.getByTestId('geofence-item').filter({ hasText: name });
  await expect(item.getByTestId('geofence-rules')).toHaveText(`Mon-Fri 09:00-17:00 · Block ${block}`);
  const stored = ((await (await api.get('/api/v1/geofence/all')).json()) as GeofenceRow[]).find((g) => g.name === name);
  expect(stored).toMatchObject({
    applies_to: { blocks: [block] },
    schedule: [{ days: [1, 2, 3, 4, 5], start: '09:00', end: '17:00' }],
  });

  // In the editor: a second window, Saturday 19:00 to 07:00 (past midnight).
  await item.click();
  const editor = page.getByTestId('geofence-editor');
  await expect(editor.getByRole('radio', { name: 'Chosen blocks' })).toBeChecked();
  await expect(editor.getByRole('checkbox', { name: `Block ${block}` })).toBeChecked();
  await editor.getByRole('button', { name: 'Add window' }).click();
  const second = editor.getByRole('group', { name: 'Window 2' });
  for (const day of ['Mon', 'Tue', 'Wed', 'Thu', 'Fri']) await second.getByRole('checkbox', { name: day }).uncheck();
  await second.getByRole('checkbox', { name: 'Sat' }).check();
  await second.getByLabel('Start').fill('19:00');
  await second.getByLabel('End').fill('07:00');
  await expectNoViolations(page, 'geofence editor with two windows');
  await editor.getByRole('button', { name: 'Save Changes' }).click();
  await expect(item.getByTestId('geofence-rules')).toHaveText(
    `Mon-Fri 09:00-17:00, Sat 19:00-07:00 · Block ${block}`,
  );

  // Back to everyone, always: the list shows no rules line.
  await editor.getByRole('radio', { name: 'Everyone' }).check();
  await editor.getByRole('radio', { name: 'Always' }).check();
  await editor.getByRole('button', { name: 'Save Changes' }).click();
  await expect(item.getByTestId('geofence-rules')).toHaveCount(0);
  const after = ((await (await api.get('/api/v1/geofence/all')).json()) as GeofenceRow[]).find((g) => g.name === name);
  expect(after).toMatchObject({ applies_to: null, schedule: null });
  expect(errors).toEqual([]);
});

test('a zone for one tracked prisoner, chosen by name, shows the prisoner with id and cell in the list', async ({
  adminPage: page,
  api,
}) => {
  const prisoner = await seedTrackedPrisoner(api, { first_name: unique('Ada'), last_name: 'Lovelace' });
  const name = unique('Own zone ');
  madeNames.push(name);
  await page.goto('/live-map');
  await page.getByRole('button', { name: 'Enter coordinates' }).click();
  const coordinates = page.getByRole('dialog', { name: 'Enter Coordinates' });
  await coordinates.getByLabel('Centre latitude').fill(String(51.475 + Math.random() * 0.004));
  await coordinates.getByLabel('Centre longitude').fill(String(-0.15 + Math.random() * 0.004));
  await coordinates.getByLabel('Radius (metres)').press('Enter');
  const details = page.getByRole('dialog', { name: 'Enter Geofence Details' });
  await details.getByLabel('Geofence Name').fill(name);
  await details.getByRole('radio', { name: 'Chosen prisoners' }).check();
  await details.getByLabel('Find a prisoner').fill(prisoner.first_name);
  const label = `${prisoner.first_name} ${prisoner.last_name} · #${prisoner.prisoner_id} · cell ${prisoner.cellId}`;
  await details.getByRole('checkbox', { name: label }).check();
  await details.getByRole('radio', { name: 'On a weekly schedule' }).check();
  const window = details.getByRole('group', { name: 'Window 1' });
  for (const day of ['Sat', 'Sun']) await window.getByRole('checkbox', { name: day }).check();
  await window.getByLabel('Start').fill('19:00');
  await window.getByLabel('End').fill('07:00');
  await details.getByRole('button', { name: 'Save Geofence' }).click();
  await expect(details).toBeHidden();
  await expect(page.getByTestId('geofence-item').filter({ hasText: name }).getByTestId('geofence-rules')).toHaveText(
    `Every day 19:00-07:00 · ${label}`,
  );
  const stored = ((await (await api.get('/api/v1/geofence/all')).json()) as GeofenceRow[]).find((g) => g.name === name);
  expect(stored).toMatchObject({ applies_to: { prisoner_ids: [prisoner.prisoner_id] } });
});
