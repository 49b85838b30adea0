// The Escort section of the prisoner details screen (decision 035): the form starts an escort with a
// guard found by search (a guard without a tracker gets the hint and can only be recorded as unmonitored, decision 037),
// the escort is listed and stored with the chosen distance and says why it is not escorting, "End escort" ends it
// through the confirm dialog and the form is back; a server refusal reads in plain words.
import { expect, test, unique } from '../fixtures';
import { expectNoViolations } from './axe';
import { seedStaff, seedTrackedPrisoner } from './records-helpers';

type EscortRow = { id: number; prisoner: { prisoner_id: number }; staff: { staff_id: number }; max_distance_m: number; ended_at: string | null; unmonitored: boolean; escorting: boolean };

test('the details screen starts an escort with a guard, lists it and ends it through the confirm dialog', async ({
  adminPage: page,
  api,
}) => {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  const prisoner = await seedTrackedPrisoner(api, { first_name: unique('Escorted'), last_name: 'Byrne' });
  const guard = await seedStaff(api, 'Guard', { first_name: unique('Gina'), last_name: 'Warden' });
  const gone = await seedStaff(api, 'Guard', { first_name: unique('Gone'), last_name: 'Away' });
  const police = await seedStaff(api, 'Police', { first_name: unique('Pat'), last_name: 'Dale' });
  const radio = await api.post('/api/v1/devices', { data: { name: unique('Radio '), staff_id: police.staff_id, kind: 'phone' } });
  expect(radio.status(), await radio.text()).toBe(201);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`/prisoner-details/${prisoner.prisoner_id}`);

  const section = page.getByTestId('escort');
  await expect(section.getByRole('heading', { name: 'Escort', exact: true })).toBeVisible();
  await expect(section.getByRole('link', { name: 'Show on live map' })).toHaveAttribute(
    'href',
    `/live-map?device=${encodeURIComponent(prisoner.deviceId)}`,
  );
  const form = section.getByRole('form', { name: 'Start an escort' });
  await expect(form.getByLabel('Max distance (metres)')).toHaveValue('50');

  // A server refusal in plain words: the chosen guard is deleted before Start.
  await form.getByLabel('Search officer').fill(gone.first_name);
  const officer = form.getByLabel('Officer', { exact: true });
  await expect(officer.locator('option', { hasText: gone.first_name })).toHaveCount(1);
  await officer.selectOption(String(gone.staff_id));
  const deleted = await api.delete(`/api/v1/staff/delete/${gone.staff_id}`);
  expect(deleted.status(), await deleted.text()).toBe(200);
  // The guard wears no tracker, so only an unmonitored escort reaches the server.
  await form.getByLabel('Unmonitored: record only (the perimeter still alerts for this prisoner)').check();
  await form.getByRole('button', { name: 'Start' }).click();
  await expect(form).toContainText(`Officer: staff member ${gone.staff_id} does not exist`);

  // Out of range is refused before the server.
  await form.getByLabel('Search officer').fill(guard.first_name);
  await expect(officer.locator('option', { hasText: guard.first_name })).toHaveCount(1);
  await officer.selectOption(String(guard.staff_id));
  // The guard wears no tracker: said as a hint.
  await expect(form.getByTestId('escort-no-tracker')).toBeVisible();
  // A police officer wearing a tracker: no hint (the guard's hint above shows the devices are loaded).
  await form.getByLabel('Search officer').fill(police.first_name);
  await expect(officer.locator('option', { hasText: police.first_name })).toHaveCount(1);
  await officer.selectOption(String(police.staff_id));
  await expect(officer.locator('option:checked')).toContainText(`${police.first_name} Dale · Police`);
  await expect(form.getByTestId('escort-no-tracker')).toHaveCount(0);

  await form.getByLabel('Search officer').fill(guard.first_name);
  await expect(officer.locator('option', { hasText: guard.first_name })).toHaveCount(1);
  await officer.selectOption(String(guard.staff_id));
  await expect(form.getByTestId('escort-no-tracker')).toBeVisible();
  await form.getByLabel('Max distance (metres)').fill('4');
  await form.getByRole('button', { name: 'Start' }).click();
  await expect(form).toContainText('Max distance must be a whole number of metres from 5 to 5000.');
  await expectNoViolations(page, 'prisoner details, escort form, 1440 px');

  await form.getByLabel('Max distance (metres)').fill('120');
  // Without a tracker the escort cannot be watched: refused until it is said to be unmonitored.
  await form.getByRole('button', { name: 'Start' }).click();
  await expect(form).toContainText('This officer wears no tracker: assign them one, or tick "Unmonitored"');
  await form.getByLabel('Unmonitored: record only (the perimeter still alerts for this prisoner)').check();
  await form.getByRole('button', { name: 'Start' }).click();
  await expect(form).toHaveCount(0);
  await expect(section.locator('[data-field="escorting"]')).toHaveText(
    'No: Unmonitored: record only. The perimeter alerts for this prisoner as usual.',
  );
  await expect(section.locator('[data-field="officer"]')).toHaveText(`${guard.first_name} Warden (Guard)`);
  await expect(section.locator('[data-field="distance"]')).toHaveText('120 m');
  await expect(section.locator('[data-field="state"]')).toHaveText('In force');

  const listed = await api.get('/api/v1/escorts', { params: { active: 'true' } });
  expect(listed.status(), await listed.text()).toBe(200);
  const mine = ((await listed.json()) as { data: EscortRow[] }).data.filter((e) => e.prisoner.prisoner_id === prisoner.prisoner_id);
  expect(mine).toHaveLength(1);
  expect(mine[0]).toMatchObject({ staff: { staff_id: guard.staff_id }, max_distance_m: 120, ended_at: null, unmonitored: true, escorting: false });

  await page.setViewportSize({ width: 390, height: 844 });
  await section.scrollIntoViewIfNeeded();
  await expectNoViolations(page, 'prisoner details, escort in force, 390 px');

  await section.getByRole('button', { name: 'End escort' }).click();
  const dialog = page.getByRole('dialog', { name: 'End escort' });
  await expect(dialog.getByTestId('confirm-subject')).toContainText(guard.first_name);
  await expectNoViolations(page, 'prisoner details, end escort dialog, 390 px');
  await dialog.getByRole('button', { name: 'End escort' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(section.getByRole('form', { name: 'Start an escort' })).toBeVisible();
  await expect(section.locator('[data-field="officer"]')).toHaveCount(0);

  const after = await api.get('/api/v1/escorts', { params: { active: 'true' } });
  const still = ((await after.json()) as { data: EscortRow[] }).data.filter((e) => e.prisoner.prisoner_id === prisoner.prisoner_id);
  expect(still).toHaveLength(0);
  await expectNoViolations(page, 'prisoner details, escort form, 390 px');
  expect(errors).toEqual([]);
});
