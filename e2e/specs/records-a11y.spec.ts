// Accessibility of the records screens (axe, WCAG 2 A and AA) and keyboard use of the row menus.
import { expect, test, unique } from '../fixtures';
import { expectNoViolations } from './axe';
import { seedCell, seedPrisoner, seedStaff } from './records-helpers';

test('the records screens have no accessibility violations', async ({ adminPage: page, api }) => {
  const { cellId } = await seedCell(api);
  const prisoner = await seedPrisoner(api, {
    first_name: 'Axe',
    last_name: unique('A11y'),
    status: 'On Trial',
    cell_id: cellId,
    gender: 'Male',
  });
  await seedStaff(api, 'Guard', { rank: 'Security' });

  await page.goto('/dashboard');
  await expect(page.getByRole('table', { name: 'Prisoners' })).toBeVisible();
  await expectNoViolations(page, 'dashboard');
  await page.getByRole('button', { name: 'Create New Prisoner' }).click();
  await expect(page.getByRole('dialog', { name: 'Create New Prisoner' })).toBeVisible();
  await expectNoViolations(page, 'create prisoner');
  // With the required-field messages of an empty form on screen.
  await page.getByRole('dialog', { name: 'Create New Prisoner' }).getByRole('button', { name: 'Create' }).click();
  await expect(page.getByText('First name is required', { exact: true })).toBeVisible();
  await expectNoViolations(page, 'create prisoner with messages');
  await page.keyboard.press('Escape');
  await page.getByRole('tab', { name: /Guards/ }).click();
  await expect(page.getByRole('table', { name: 'Guards' })).toBeVisible();
  await expectNoViolations(page, 'guards');

  await page.goto(`/prisoner-details/${prisoner.prisoner_id}`);
  await expect(page.getByRole('heading', { name: /^Axe / })).toBeVisible();
  await expectNoViolations(page, 'details');

  await page.goto('/cell-assign');
  await expect(page.getByTestId(`cell-card-${cellId}`)).toBeVisible();
  await expectNoViolations(page, 'cell-assign');
});

test('row menus work from the keyboard, one open at a time, and Edit opens the update dialog', async ({
  adminPage: page,
  api,
}) => {
  const lastName = unique('Kbd');
  await seedPrisoner(api, { first_name: 'Key', last_name: lastName, status: 'Incarcerated' });
  const second = await seedPrisoner(api, { first_name: 'Board', last_name: lastName, status: 'Incarcerated' });

  await page.goto('/dashboard');
  await page.getByPlaceholder('Search prisoner').fill(lastName);
  const rows = page.getByRole('table', { name: 'Prisoners' }).locator('tbody tr');
  await expect(rows).toHaveCount(2);

  await rows
    .nth(1)
    .getByRole('button', { name: /^Actions for prisoner/ })
    .click();
  await expect(page.getByRole('menu')).toHaveCount(1);
  await page.keyboard.press('Escape');
  await expect(page.getByRole('menu')).toHaveCount(0);

  await rows
    .nth(0)
    .getByRole('button', { name: /^Actions for prisoner/ })
    .focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('menu')).toHaveCount(1);
  await expect(page.getByRole('menuitem')).toHaveText(['Edit', 'Delete', 'More Details']);
  await page.keyboard.press('Enter'); // the first item, Edit, has focus
  await expect(page).toHaveURL(new RegExp(`/prisoner-details/${second.prisoner_id}\\?edit=1$`));
  const dialog = page.getByRole('dialog', { name: 'Update Prisoner Details' });
  await expect(dialog.getByLabel('First name')).toHaveValue('Board');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await expect(page).toHaveURL(new RegExp(`/prisoner-details/${second.prisoner_id}$`));
});
