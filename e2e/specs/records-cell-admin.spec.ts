// Adding, editing and removing cells on /cell-assign through its dialogs, with the real server's refusals shown:
// a taken cell ID, a capacity below the current occupants, removing a cell that still holds a prisoner.
import type { Page } from '@playwright/test';
import { expect, test, unique } from '../fixtures';
import { expectNoViolations } from './axe';
import { seedCell, seedPrisoner } from './records-helpers';

/** Loads /cell-assign afresh showing one block, so changes made through the API are on screen. */
async function showBlock(page: Page, block: string) {
  await page.goto('/cell-assign');
  await page.getByRole('combobox', { name: 'Block', exact: true }).selectOption(block);
}

test("add a cell through the dialog; a taken ID shows the server's message", async ({ adminPage: page, api }) => {
  const { block: existingBlock } = await seedCell(api);
  const block = unique('B');
  const cellId = unique('C');

  await page.goto('/cell-assign');
  await page.getByRole('button', { name: 'Add cell', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Add cell' });
  await expect(dialog.getByLabel('Cell ID')).toBeFocused();
  await expect(dialog.locator(`datalist option[value="${existingBlock}"]`)).toHaveCount(1);

  // Nothing filled in: each field says what is missing, and nothing is sent.
  await dialog.getByRole('button', { name: 'Add cell', exact: true }).click();
  await expect(dialog.getByText('cell_id is required')).toBeVisible();
  await expect(dialog.getByText('block is required')).toBeVisible();
  await expect(dialog.getByText('capacity is required')).toBeVisible();
  await expect(dialog.getByLabel('Cell ID')).toHaveAttribute('aria-invalid', 'true');

  await dialog.getByLabel('Cell ID').fill(cellId);
  await dialog.getByLabel('Block').fill(block);
  await dialog.getByLabel('Capacity').fill('2');
  await dialog.getByLabel('Security level').selectOption('Low');
  await expectNoViolations(page, 'add cell dialog');

  // The request is held (not answered by the test) until the pending state has been seen.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/api/v1/cell_controls/cells', async (route) => {
    await held;
    await route.continue();
  });
  const submit = dialog.getByRole('button', { name: 'Add cell', exact: true });
  await submit.click();
  await expect(submit).toBeDisabled();
  await expect(submit).toHaveAttribute('aria-busy', 'true');
  release();
  await expect(page.getByText(`Cell ${cellId} added to block ${block}.`)).toBeVisible();
  await expect(dialog).toBeHidden();
  await page.unroute('**/api/v1/cell_controls/cells');

  await page.getByRole('combobox', { name: 'Block', exact: true }).selectOption(block);
  const card = page.getByTestId(`cell-card-${cellId}`);
  await expect(card).toContainText('Low security');
  await expect(card.getByRole('meter')).toHaveAttribute('aria-valuetext', '0 of 2');

  // The same ID again, from the block's own button (its block prefilled): the server's 409 stays in the dialog.
  await page.getByRole('button', { name: `Add cell to block ${block}` }).click();
  await expect(dialog.getByLabel('Block')).toHaveValue(block);
  await dialog.getByLabel('Cell ID').fill(cellId);
  await dialog.getByLabel('Capacity').fill('1');
  await dialog.getByLabel('Security level').selectOption('High');
  await dialog.getByRole('button', { name: 'Add cell', exact: true }).click();
  await expect(dialog.getByRole('alert')).toContainText(`${cellId} already exists`);
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Add cell', exact: true })).toBeEnabled();
  await dialog.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId(`cell-card-${cellId}`)).toHaveCount(1);
  await expect(card).toContainText('Low security');
});

test("edit a cell from the keyboard; a capacity below its occupants shows the server's refusal", async ({
  adminPage: page,
  api,
}) => {
  const { block, cellId } = await seedCell(api, { capacity: 2, security_level: 'High' });
  await showBlock(page, block);
  const card = page.getByTestId(`cell-card-${cellId}`);
  const edit = card.getByRole('button', { name: `Edit cell ${cellId}` });
  await edit.focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: `Edit cell ${cellId}` });
  await expect(dialog.getByLabel('Block')).toBeFocused();
  await expect(dialog.getByLabel('Cell ID')).toHaveValue(cellId);
  await expect(dialog.getByLabel('Cell ID')).toHaveAttribute('readonly', '');
  await expect(dialog.getByLabel('Capacity')).toHaveValue('2');
  await expect(dialog.getByLabel('Security level')).toHaveValue('High');
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(edit).toBeFocused();

  await page.keyboard.press('Enter');
  await dialog.getByLabel('Capacity').fill('4');
  await dialog.getByLabel('Security level').selectOption('Medium');
  await dialog.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByText(`Cell ${cellId} updated.`)).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(card.getByRole('meter')).toHaveAttribute('aria-valuetext', '0 of 4');
  await expect(card).toContainText('Medium security');

  // Two prisoners move in; lowering the capacity to 1 is refused by the server and the dialog stays open.
  const lastName = unique('Held');
  for (const firstName of ['Ada', 'Bo']) {
    await seedPrisoner(api, { first_name: firstName, last_name: lastName, status: 'Incarcerated', cell_id: cellId });
  }
  await showBlock(page, block);
  await expect(card.getByRole('meter')).toHaveAttribute('aria-valuetext', '2 of 4');
  await card.getByRole('button', { name: `Edit cell ${cellId}` }).click();
  await dialog.getByLabel('Capacity').fill('1');
  await dialog.getByRole('button', { name: 'Save changes' }).click();
  await expect(dialog.getByRole('alert')).toContainText('holds 2 prisoners');
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Save changes' })).toBeEnabled();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await expect(card.getByRole('meter')).toHaveAttribute('aria-valuetext', '2 of 4');
});

test('remove an empty cell after confirming; a cell that still holds a prisoner is refused', async ({
  adminPage: page,
  api,
}) => {
  const { block, cellId: empty } = await seedCell(api, { capacity: 1 });
  const occupied = unique('C');
  const created = await api.post('/api/v1/cell_controls/cells', {
    data: { cell_id: occupied, block, capacity: 2, security_level: 'Medium' },
  });
  expect(created.status(), await created.text()).toBe(200);
  const lastName = unique('Stay');
  await seedPrisoner(api, { first_name: 'Cy', last_name: lastName, status: 'On Trial', cell_id: occupied });

  await showBlock(page, block);
  const occupiedCard = page.getByTestId(`cell-card-${occupied}`);
  const removeOccupied = occupiedCard.getByRole('button', { name: `Remove cell ${occupied}` });
  await expect(removeOccupied).toBeDisabled();
  await expect(removeOccupied).toHaveAttribute('title', /still holds 1 prisoner/);

  // Remove the empty cell, but someone is put in it before the confirmation: the server refuses.
  const emptyCard = page.getByTestId(`cell-card-${empty}`);
  await emptyCard.getByRole('button', { name: `Remove cell ${empty}` }).click();
  const confirm = page.getByRole('dialog', { name: `Remove cell ${empty}` });
  await expect(confirm).toContainText(`Remove cell ${empty} from block ${block}?`);
  await expectNoViolations(page, 'remove cell dialog');
  const late = await seedPrisoner(api, {
    first_name: 'Di',
    last_name: lastName,
    status: 'Incarcerated',
    cell_id: empty,
  });
  await confirm.getByRole('button', { name: 'Remove', exact: true }).click();
  await expect(confirm.getByRole('alert')).toContainText(`Cell ${empty} still holds 1 prisoner`);
  await expect(confirm).toBeVisible();
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(confirm).toBeHidden();
  await expect(emptyCard).toBeVisible();

  // Released, the prisoner leaves the cell: now it can go.
  const released = await api.put(`/api/v1/prisoner/update/${late.prisoner_id}`, {
    data: { status: 'Released', cell_id: null },
  });
  expect(released.status(), await released.text()).toBe(200);
  await showBlock(page, block);
  await emptyCard.getByRole('button', { name: `Remove cell ${empty}` }).click();
  await confirm.getByRole('button', { name: 'Remove', exact: true }).click();
  await expect(page.getByText(`Cell ${empty} removed.`)).toBeVisible();
  await expect(confirm).toBeHidden();
  await expect(emptyCard).toHaveCount(0);
  await expect(occupiedCard).toBeVisible();
  const left = await api.get('/api/v1/cell_controls/block', { params: { block } });
  expect(((await left.json()) as { data: { cell_id: string }[] }).data.map((c) => c.cell_id)).toEqual([occupied]);
});
