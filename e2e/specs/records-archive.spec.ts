// Nothing leaves custody records (decision 042): the spec's Delete keeps its question, names what the prisoner still
// has, removes him from the list, and an administrator finds him in Archived records and restores him.
import { expect, test, unique } from '../fixtures';
import { expectNoViolations } from './axe';
import { seedPrisoner, seedStaff, seedTrackedPrisoner } from './records-helpers';

test('Delete asks the spec question, names what he still has, archives him; an administrator restores him', async ({
  adminPage: page,
  api,
}) => {
  const lastName = unique('Archived');
  const prisoner = await seedTrackedPrisoner(api, { first_name: 'Orrin', last_name: lastName });
  const partner = await seedPrisoner(api, { first_name: 'Partner', last_name: unique('Kept'), status: 'Incarcerated' });
  const pair = await api.post('/api/v1/keep-apart', {
    data: { prisoner_a: prisoner.prisoner_id, prisoner_b: partner.prisoner_id, reason: 'Threat', scope: 'cell' },
  });
  expect(pair.status(), await pair.text()).toBe(200);

  await page.goto('/dashboard');
  await page.getByPlaceholder('Search prisoner').fill(lastName);
  const row = page.getByRole('row').filter({ hasText: lastName });
  await expect(row).toHaveCount(1);
  await row.getByRole('button', { name: /^Actions for prisoner/ }).click();
  await page.getByRole('menuitem', { name: 'Delete' }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete prisoner' });
  await expect(confirm).toContainText('Are you sure you want to delete this prisoner?');
  const holdings = confirm.getByTestId('prisoner-holdings');
  await expect(holdings).toContainText('Status: Incarcerated');
  await expect(holdings).toContainText(`Tracker: ${prisoner.deviceId}`);
  await expect(holdings).toContainText('Open alerts: none');
  await expect(holdings).toContainText('Keep-apart pairs: 1');
  await expect(holdings).toContainText('Active escorts: none');
  await expectNoViolations(page, 'delete confirmation with what he still has');
  // In custody in a cell he is not archived (decision 102): the dialog says to release or transfer him first.
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(confirm).toContainText(`is Incarcerated in cell ${prisoner.cellId}: release or transfer him first`);
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  const released = await api.put(`/api/v1/prisoner/update/${prisoner.prisoner_id}`, { data: { status: 'Released' } });
  expect(released.status(), await released.text()).toBe(200);
  await page.reload();
  await page.getByPlaceholder('Search prisoner').fill(lastName);
  await row.getByRole('button', { name: /^Actions for prisoner/ }).click();
  await page.getByRole('menuitem', { name: 'Delete' }).click();
  await expect(confirm.getByTestId('prisoner-holdings')).toContainText('Status: Released');
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('Prisoner deleted successfully.')).toBeVisible();
  await expect(row).toHaveCount(0);

  // His details still open, saying who archived him and when.
  await page.goto(`/prisoner-details/${prisoner.prisoner_id}`);
  await expect(page.getByRole('status', { name: 'Archived record' })).toContainText(/Archived on .+ by /);
  await expect(page.getByRole('heading', { name: `Orrin ${lastName}` })).toBeVisible();
  await expectNoViolations(page, 'archived prisoner details');

  // An investigation still finds him on the history screen, among the archived records.
  await page.goto('/location-history');
  await page.getByRole('searchbox', { name: 'Prisoner' }).fill(lastName);
  const found = page.getByRole('list', { name: 'Prisoners' }).getByRole('button', { name: new RegExp(lastName) });
  await expect(found).toHaveCount(0);
  await page.getByRole('checkbox', { name: 'Archived records' }).check();
  await expect(found).toHaveCount(1);

  // An administrator finds him among the archived records and restores him.
  await page.goto('/dashboard');
  await page.getByRole('button', { name: 'Archived records' }).click();
  await page.getByPlaceholder('Search prisoner').fill(lastName);
  await expect(row).toHaveCount(1);
  await row.getByRole('button', { name: /^Actions for prisoner/ }).click();
  await expect(page.getByRole('menuitem', { name: 'Delete' })).toHaveCount(0);
  await page.getByRole('menuitem', { name: 'Restore' }).click();
  await expect(page.getByText(`Orrin ${lastName} (ID ${prisoner.prisoner_id}) restored.`)).toBeVisible();
  await expect(row).toHaveCount(0);
  await page.getByRole('button', { name: 'Archived records' }).click();
  await expect(row).toHaveCount(1);

  await page.goto(`/prisoner-details/${prisoner.prisoner_id}`);
  await expect(page.getByRole('heading', { name: `Orrin ${lastName}` })).toBeVisible();
  await expect(page.getByRole('status', { name: 'Archived record' })).toHaveCount(0);
});

test('an officer with escort history is retired by Delete, listed under Retired and restored', async ({
  adminPage: page,
  api,
}) => {
  const officer = await seedStaff(api, 'Police', { last_name: unique('Retiring') });
  const device = await api.post('/api/v1/devices', { data: { name: unique('Tag '), staff_id: officer.staff_id, kind: 'phone' } });
  expect(device.status(), await device.text()).toBeLessThan(300);
  const prisoner = await seedPrisoner(api, {
    first_name: 'Escorted',
    last_name: unique('Once'),
    status: 'Incarcerated',
  });
  const created = await api.post('/api/v1/escorts', {
    data: { prisoner_id: prisoner.prisoner_id, staff_id: officer.staff_id },
  });
  expect(created.status(), await created.text()).toBe(200);
  const { escort } = (await created.json()) as { escort: { id: number } };
  expect((await api.post(`/api/v1/escorts/${escort.id}/end`)).status()).toBe(200);

  await page.goto('/dashboard');
  await page.getByRole('tab', { name: /Police/ }).click();
  await page.getByPlaceholder('Search police officer').fill(officer.last_name);
  const row = page.getByRole('row').filter({ hasText: officer.last_name });
  await expect(row).toHaveCount(1);
  await row.getByRole('button', { name: /^Actions for/ }).click();
  await page.getByRole('menuitem', { name: 'Delete' }).click();
  const confirm = page.getByRole('dialog', { name: 'Confirm Delete' });
  await expect(confirm).toContainText('Are you sure you want to delete this staff member?');
  await confirm.getByRole('button', { name: 'Confirm' }).click();
  await expect(confirm).toBeHidden();
  await expect(row).toHaveCount(0);

  // The escort still names its officer.
  const escorts = await api.get(`/api/v1/escorts?prisoner_id=${prisoner.prisoner_id}`);
  expect(((await escorts.json()) as { data: { staff: { staff_id: number } }[] }).data[0]?.staff.staff_id).toBe(
    officer.staff_id,
  );

  await page.getByRole('button', { name: 'Retired' }).click();
  await expect(row).toHaveCount(1);
  await row.getByRole('button', { name: /^Actions for/ }).click();
  await page.getByRole('menuitem', { name: 'Restore' }).click();
  await expect(row).toHaveCount(0);
  await page.getByRole('button', { name: 'Retired' }).click();
  await expect(row).toHaveCount(1);
});
