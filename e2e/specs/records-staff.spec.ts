// Police officers and guards end to end: create, edit (with a refused edit), delete with "Confirm Delete".
import { expect, test, unique } from '../fixtures';
import { seedStaff, uniqueBadge } from './records-helpers';

test('create a police officer', async ({ adminPage: page }) => {
  const lastName = unique('Cop');
  const badge = uniqueBadge();
  await page.goto('/dashboard');
  await page.getByRole('tab', { name: /Police/ }).click();
  await page.getByRole('button', { name: 'Create New Police Officer' }).click();
  const form = page.getByRole('dialog', { name: 'Create New Police Officer' });
  await expect(form.getByLabel('Role')).toHaveValue('Police');
  await form.getByLabel('First name').fill('Dana');
  await form.getByLabel('Last name').fill(lastName);
  await form.getByLabel('Badge number').fill(badge);
  await form.getByLabel('Rank').fill('Sergeant');
  await form.getByLabel('Department').selectOption('CID');
  await form.getByLabel('Contact info').fill('+44 20 7946 0000');
  await form.getByRole('button', { name: 'Create' }).click();
  await expect(form).toBeHidden();

  await page.getByPlaceholder('Search police officer').fill(lastName);
  const row = page.getByRole('row').filter({ hasText: lastName });
  await expect(row).toHaveCount(1);
  for (const text of ['Dana', 'Police', badge, 'Sergeant', 'CID', '+44 20 7946 0000'])
    await expect(row).toContainText(text);
});

for (const role of ['Guard', 'Police'] as const) {
  const tab = role === 'Guard' ? 'Guards' : 'Police';
  const search = role === 'Guard' ? 'Search guard' : 'Search police officer';
  const editTitle = role === 'Guard' ? 'Edit Guard Details' : 'Edit Officer Details';

  test(`edit and delete a ${role === 'Guard' ? 'guard' : 'police officer'}`, async ({ adminPage: page, api }) => {
    const member = await seedStaff(api, role, {
      rank: role === 'Guard' ? 'Security' : 'Constable',
      department: 'Patrol',
    });
    await page.goto('/dashboard');
    await page.getByRole('tab', { name: new RegExp(tab) }).click();
    await page.getByPlaceholder(search).fill(member.last_name);
    const row = page.getByRole('row').filter({ hasText: member.last_name });
    await expect(row).toHaveCount(1);

    await row.getByRole('button', { name: /^Actions for/ }).click();
    await page.getByRole('menuitem', { name: 'Edit' }).click();
    const dialog = page.getByRole('dialog', { name: editTitle });
    await expect(dialog.getByLabel('Last name')).toHaveValue(member.last_name);
    // Bad input is refused with the spec's text and the field named.
    await dialog.getByLabel('Badge number').fill('12ab');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(dialog.getByRole('alert')).toHaveText('Failed to update staff. Please check your input.');
    await expect(dialog.getByText('badge_number must be a number (digits only)')).toBeVisible();
    // A badge number already in use is refused by the server (409), and its message names the field.
    const other = await seedStaff(api, role);
    await dialog.getByLabel('Badge number').fill(other.badge_number);
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(dialog.getByRole('alert')).toContainText('Failed to update staff. Please check your input.');
    await expect(dialog.getByRole('alert')).toContainText('badge_number');
    await dialog.getByLabel('Badge number').fill(member.badge_number);
    await dialog.getByLabel('Rank').fill(role === 'Guard' ? 'Supervisor' : 'Inspector');
    await dialog.getByLabel('Department').selectOption('SWAT');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(dialog).toBeHidden();
    await expect(row).toContainText(role === 'Guard' ? 'Supervisor' : 'Inspector');
    await expect(row).toContainText('SWAT');

    await row.getByRole('button', { name: /^Actions for/ }).click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    const confirm = page.getByRole('dialog', { name: 'Confirm Delete' });
    await expect(confirm).toContainText('Are you sure you want to delete this staff member?');
    await confirm.getByRole('button', { name: 'Confirm' }).click();
    await expect(confirm).toBeHidden();
    await expect(row).toHaveCount(0);
  });
}

test('guard filters: badge number and the role that reads the rank', async ({ adminPage: page, api }) => {
  const lastName = unique('Grd');
  const security = await seedStaff(api, 'Guard', { last_name: lastName, rank: 'Security' });
  await seedStaff(api, 'Guard', { last_name: lastName, rank: 'Supervisor' });
  await page.goto('/dashboard?tab=guards');
  await page.getByPlaceholder('Search guard').fill(lastName);
  const rows = page.getByRole('table', { name: 'Guards' }).locator('tbody tr');
  await expect(rows).toHaveCount(2);
  await page.getByRole('button', { name: 'Filter', exact: true }).click();
  const filters = page.getByRole('form', { name: 'Filters' });
  await filters.getByLabel('Role').selectOption('Supervisor');
  await filters.getByRole('button', { name: 'Apply Filters' }).click();
  await expect(rows).toHaveCount(1);
  await expect(rows).toContainText('Supervisor');
  await filters.getByRole('button', { name: 'Clear Filters' }).click();
  await filters.getByLabel('Badge number').fill(security.badge_number);
  await filters.getByRole('button', { name: 'Apply Filters' }).click();
  await expect(rows).toHaveCount(1);
  await expect(rows).toContainText(security.badge_number);
});
