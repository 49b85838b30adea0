// Prisoner records end to end: create through the modal with the cell picker, details, full and inline edits, delete.
import { expect, test, unique } from '../fixtures';
import { seedCell, seedPrisoner } from './records-helpers';

test('create a prisoner with the cell picker, see both messages, the row and the details page', async ({
  adminPage: page,
  api,
}) => {
  const { block, cellId } = await seedCell(api, { capacity: 3 });
  const lastName = unique('Create');

  await page.goto('/dashboard');
  await page.getByRole('button', { name: 'Create New Prisoner' }).click();
  const form = page.getByRole('dialog', { name: 'Create New Prisoner' });
  await form.getByLabel('First name').fill('Ada');
  await form.getByLabel('Last name').fill(lastName);
  await form.getByLabel('Date of birth').fill('1990-03-05');
  await form.getByLabel('Gender').selectOption('Female');
  await form.getByRole('combobox', { name: 'National ID' }).click();
  await page.getByPlaceholder('Search country...').fill('Kenya');
  const menu = page.getByTestId('country-menu');
  expect(await menu.evaluate((el) => getComputedStyle(el).maxHeight)).toBe('200px');
  await page.getByRole('option', { name: 'Kenya', exact: true }).click();
  await expect(form.getByRole('combobox', { name: 'National ID' })).toHaveText('Kenya');
  await form.getByLabel('Entry date').fill('2024-03-05');
  await form.getByLabel('Status').selectOption('Incarcerated');

  await form.getByRole('button', { name: 'Select Cell ID' }).click();
  const picker = page.getByRole('dialog', { name: 'Select Block and Cell' });
  await picker.getByLabel('Block').selectOption(block);
  await expect(picker.getByTestId(`cell-${cellId}`)).toContainText('0/3');
  await picker.getByRole('button', { name: 'Less Crowded' }).click();
  await picker.getByRole('button', { name: `Assign cell ${cellId}` }).click();
  await expect(picker).toBeHidden();
  await expect(form.getByTestId('chosen-cell')).toHaveText(cellId);

  await form.getByRole('button', { name: 'Create' }).click();
  await expect(page.getByText('Prisoner created successfully!')).toBeVisible();
  await expect(page.getByText('Cell occupant updated successfully!')).toBeVisible();
  await expect(form).toBeHidden();

  await page.getByPlaceholder('Search prisoner').fill(lastName);
  const row = page.getByRole('row').filter({ hasText: lastName });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('5 March 1990');
  await expect(row).toContainText('Kenya');
  await expect(row.getByTestId('status-badge')).toHaveText('Incarcerated');

  await row.getByRole('button', { name: /^Actions for prisoner/ }).click();
  await page.getByRole('menuitem', { name: 'More Details' }).click();
  await expect(page).toHaveURL(/\/prisoner-details\/\d+$/);
  await expect(page.getByRole('heading', { name: `Ada ${lastName}` })).toBeVisible();
  await expect(page.getByTestId('prisoner-sentence')).toContainText('Kenya');
  await expect(page.getByTestId('prisoner-sentence')).toContainText('5 March 1990');
  await expect(page.getByText('Since 5 March 2024', { exact: true })).toBeVisible();
  await expect(page.getByTestId('avatar-other')).toBeVisible();
  const other = page.getByTestId('other-information');
  await expect(other).toContainText(`Cell Block${block}`);
  await expect(other).toContainText(`Cell id${cellId}`);
  await expect(page.getByTestId('about')).toContainText('Not Decleared');
  // No device: the spec's default name is for a device without a name, not for no device.
  await expect(page.getByTestId('tracking-device-name')).toHaveText('No tracker assigned');
});

test('an empty Create New Prisoner form says what is missing in plain words and saves nothing (issue 11)', async ({
  adminPage: page,
  api,
}) => {
  const total = async () => {
    const list = await api.get('/api/v1/prisoner/all?limit=1');
    return ((await list.json()) as { totalPrisoners: number }).totalPrisoners;
  };
  const before = await total();
  const posts: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && request.url().includes('/prisoner/add')) posts.push(request.url());
  });

  await page.goto('/dashboard');
  await page.getByRole('button', { name: 'Create New Prisoner' }).click();
  const form = page.getByRole('dialog', { name: 'Create New Prisoner' });
  await form.getByRole('button', { name: 'Create' }).click();
  for (const message of [
    'First name is required',
    'Last name is required',
    'Date of birth is required',
    'Status is required',
  ]) {
    await expect(form.getByText(message, { exact: true })).toBeVisible();
  }
  await expect(form.getByText(/first_name|date_of_birth/)).toHaveCount(0);
  await expect(form.getByLabel('First name')).toBeFocused();

  // A date of birth in the future is refused in words too.
  const lastName = unique('Required');
  await form.getByLabel('First name').fill('Ida');
  await form.getByLabel('Last name').fill(lastName);
  await form.getByLabel('Date of birth').fill(`${new Date().getUTCFullYear() + 1}-01-01`);
  await form.getByLabel('Status').selectOption('On Trial');
  await form.getByRole('button', { name: 'Create' }).click();
  await expect(form.getByText('Date of birth must be in the past', { exact: true })).toBeVisible();
  await expect(form.getByText('First name is required')).toHaveCount(0);
  expect(posts).toEqual([]);
  expect(await total()).toBe(before);

  // So is an entry date in the future, with the server's rule and words.
  await form.getByLabel('Date of birth').fill('1992-08-01');
  await form.getByLabel('Entry date').fill(`${new Date().getUTCFullYear() + 1}-01-01`);
  await form.getByRole('button', { name: 'Create' }).click();
  await expect(form.getByText('Entry date must not be in the future', { exact: true })).toBeVisible();
  expect(posts).toEqual([]);

  await form.getByLabel('Entry date').fill('2024-03-05');
  await form.getByRole('button', { name: 'Create' }).click();
  await expect(page.getByText('Prisoner created successfully!')).toBeVisible();
  await expect(form).toBeHidden();
  expect(await total()).toBe(before + 1);
});

test('a full cell cannot be picked in the cell picker', async ({ adminPage: page, api }) => {
  const { block, cellId } = await seedCell(api, { capacity: 1 });
  await seedPrisoner(api, { first_name: 'Full', last_name: unique('Cell'), status: 'On Trial', cell_id: cellId });
  await page.goto('/dashboard');
  await page.getByRole('button', { name: 'Create New Prisoner' }).click();
  await page.getByRole('button', { name: 'Select Cell ID' }).click();
  const picker = page.getByRole('dialog', { name: 'Select Block and Cell' });
  await picker.getByLabel('Block').selectOption(block);
  await expect(picker.getByTestId(`cell-${cellId}`)).toContainText('1/1');
  await expect(picker.getByRole('button', { name: `Assign cell ${cellId}` })).toBeDisabled();
});

test('edit a prisoner in the full dialog and inline, then delete it with confirmation', async ({
  adminPage: page,
  api,
}) => {
  const lastName = unique('Edit');
  const seeded = await seedPrisoner(api, {
    first_name: 'Bram',
    last_name: lastName,
    gender: 'Male',
    date_of_birth: '1985-01-20',
    entry_date: '2020-06-01',
    status: 'On Trial',
  });

  await page.goto(`/prisoner-details/${seeded.prisoner_id}`);
  await expect(page.getByRole('heading', { name: `Bram ${lastName}` })).toBeVisible();
  await expect(page.getByTestId('avatar-male')).toBeVisible();
  const about = page.getByTestId('about');
  await expect(about).toContainText('Not Decleared');
  await expect(about).toContainText('Not found'); // nationality was not given

  // The full update dialog is prefilled; saving closes it and reloads the data.
  await page.getByRole('button', { name: 'Edit prisoner details' }).click();
  const dialog = page.getByRole('dialog', { name: 'Update Prisoner Details' });
  await expect(dialog.getByLabel('Last name')).toHaveValue(lastName);
  await expect(dialog.getByLabel('Date of birth')).toHaveValue('1985-01-20');
  await expect(dialog.getByLabel('Status')).toHaveValue('On Trial');
  await dialog.getByLabel('First name').fill('Bramwell');
  await dialog.getByLabel('Status').selectOption('Released');
  await dialog.getByLabel('Release date').fill('2019-01-01');
  await dialog.getByRole('button', { name: 'Save' }).click();
  // A release before the entry date is refused by the server, and the message shows in the form.
  await expect(dialog.getByRole('alert')).toHaveText('Release date must not be before entry date');
  await dialog.getByLabel('Release date').fill('2025-02-14');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('heading', { name: `Bramwell ${lastName}` })).toBeVisible();
  await expect(about).toContainText('14 February 2025');
  await expect(about).toContainText('Released');

  // Inline editors: one at a time, Cancel resets the draft, Save updates the view.
  await expect(page.getByTestId('behavior-remarks-text')).toHaveText('Not Found');
  await page.getByRole('button', { name: 'Edit Medical History' }).click();
  await page.getByRole('textbox', { name: 'Medical History' }).fill('draft to drop');
  await page.getByRole('button', { name: 'Edit Behavior Remarks' }).click();
  await expect(page.getByRole('textbox', { name: 'Medical History' })).toHaveCount(0);
  await page.getByRole('textbox', { name: 'Behavior Remarks' }).fill('Calm, cooperative with staff.');
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByTestId('behavior-remarks-text')).toHaveText('Not Found');
  await expect(page.getByTestId('medical-history-text')).toHaveText('Not Found');
  await page.getByTestId('behavior-remarks-text').click(); // click-to-edit
  await expect(page.getByRole('textbox', { name: 'Behavior Remarks' })).toHaveValue('');
  await page.getByRole('textbox', { name: 'Behavior Remarks' }).fill('Calm, cooperative with staff.');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByTestId('behavior-remarks-text')).toHaveText('Calm, cooperative with staff.');
  await page.reload();
  await expect(page.getByTestId('behavior-remarks-text')).toHaveText('Calm, cooperative with staff.');

  // A refused single-field update shows a browser alert with the server's message and keeps the editor open.
  await page.getByRole('button', { name: 'Edit Medical History' }).click();
  await page.getByRole('textbox', { name: 'Medical History' }).fill('x'.repeat(5001));
  let alertText = '';
  page.once('dialog', (browserAlert) => {
    alertText = `${browserAlert.type()}: ${browserAlert.message()}`;
    void browserAlert.dismiss(); // at once, so the blocked page never stalls the next action
  });
  await page.getByRole('button', { name: 'Save' }).click();
  await expect.poll(() => alertText).toMatch(/^alert: .*medical_history/);
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByTestId('medical-history-text')).toHaveText('Not Found');

  // Delete from the management screen, with confirmation.
  await page.goto('/dashboard');
  await page.getByPlaceholder('Search prisoner').fill(lastName);
  const row = page.getByRole('row').filter({ hasText: lastName });
  await expect(row).toHaveCount(1);
  await row.getByRole('button', { name: /^Actions for prisoner/ }).click();
  await page.getByRole('menuitem', { name: 'Delete' }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete prisoner' });
  await expect(confirm).toContainText('Are you sure you want to delete this prisoner?');
  // The dialog names the prisoner it would delete and what he still has (decision 042).
  await expect(confirm.getByTestId('confirm-subject')).toContainText(`Bramwell ${lastName} (ID ${seeded.prisoner_id})`);
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(row).toHaveCount(1);
  await row.getByRole('button', { name: /^Actions for prisoner/ }).click();
  await page.getByRole('menuitem', { name: 'Delete' }).click();
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('Prisoner deleted successfully.')).toBeVisible();
  await expect(row).toHaveCount(0);

  // Archived, not erased (decision 042): the details still open, saying so.
  await page.goto(`/prisoner-details/${seeded.prisoner_id}`);
  await expect(page.getByRole('status', { name: 'Archived record' })).toContainText('Archived on');
});
