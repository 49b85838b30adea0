// The cell rules and keep-apart pairs (decisions 031 and 032) on the real server: a refused move shows its
// reason before anything is written and the override asks for one; a keep-apart pair made on the details screen is
// then enforced in the cell picker; two prisoners of one block are kept apart by block only with a move (decision 102).
import type { APIRequestContext } from '@playwright/test';
import { approvePendingChange, expect, test, unique } from '../fixtures';
import { expectNoViolations } from './axe';
import { seedCell, seedPrisoner } from './records-helpers';

async function addCell(api: APIRequestContext, block: string, capacity = 2) {
  const cellId = unique('C');
  const res = await api.post('/api/v1/cell_controls/cells', { data: { cell_id: cellId, block, capacity, security_level: 'Low' } });
  expect(res.status(), await res.text()).toBe(200);
  return cellId;
}

test('a move the cell rules refuse shows why on /cell-assign, and the override asks for a reason', async ({ adminPage: page, api }) => {
  const { block, cellId } = await seedCell(api, { capacity: 3 });
  const lastName = unique('Rule');
  await seedPrisoner(api, { first_name: 'Adam', last_name: lastName, gender: 'Male', status: 'Incarcerated', cell_id: cellId });
  const eve = await seedPrisoner(api, { first_name: 'Eve', last_name: lastName, gender: 'Female', status: 'On Trial' });

  await page.goto('/cell-assign');
  await page.getByRole('combobox', { name: 'Block', exact: true }).selectOption(block);
  const card = page.getByTestId(`cell-card-${cellId}`);
  await card.getByRole('button', { name: `Assign a prisoner to cell ${cellId}` }).click();
  const dialog = page.getByRole('dialog', { name: `Assign a prisoner to cell ${cellId}` });
  await dialog.getByPlaceholder('Search prisoner').fill(`Eve ${lastName}`);
  const row = dialog.getByTestId(`candidate-${eve.prisoner_id}`);
  // Before anything is written: the reason, in the server's words, and no plain Assign.
  await expect(row).toContainText(`Eve ${lastName} (#${eve.prisoner_id}) is female: a cell holds prisoners of one sex`);
  await expect(row.getByRole('button', { name: `Assign: Eve ${lastName}` })).toHaveCount(0);
  await expectNoViolations(page, 'assign dialog with a refused prisoner');

  await row.getByRole('button', { name: `Override the rules: Eve ${lastName}` }).click();
  const override = page.getByRole('dialog', { name: `Override the cell rules for cell ${cellId}` });
  await expect(override).toContainText('a cell holds prisoners of one sex');
  await override.getByRole('button', { name: 'Override and assign' }).click();
  await expect(override.getByText('Give a reason of at least 10 characters.')).toBeVisible();
  await expectNoViolations(page, 'override reason dialog');
  // Ten dots are not a reason.
  await override.getByLabel('Reason for the override').fill('..........');
  await override.getByRole('button', { name: 'Override and assign' }).click();
  await expect(override.getByText('Say why in words (at least two words).')).toBeVisible();
  await override.getByLabel('Reason for the override').fill('Short stay while the women’s wing is repainted');
  await override.getByRole('button', { name: 'Override and assign' }).click();
  await expect(override).toBeHidden();
  await expect(card).toContainText(`Eve ${lastName}`);

  // The override and the rule it overrode are in the audit trail.
  const audit = await api.get(`/api/v1/audit?action=override_cell_rule&entity=prisoner&entity_id=${eve.prisoner_id}`);
  expect(audit.status()).toBe(200);
  expect(JSON.stringify(await audit.json())).toContain('women’s wing is repainted');
});

test('a keep-apart pair on two prisoners of one block offers the move, and is then refused in the move picker', async ({
  adminPage: page,
  api,
  secondApi,
}) => {
  const { block, cellId } = await seedCell(api, { capacity: 3 });
  const otherCell = await addCell(api, block);
  const thirdBlock = unique('B');
  const third = await addCell(api, thirdBlock);
  const lastName = unique('Apart');
  const kim = await seedPrisoner(api, { first_name: 'Kim', last_name: lastName, gender: 'Male', status: 'Incarcerated', cell_id: cellId });
  const lee = await seedPrisoner(api, { first_name: 'Lee', last_name: lastName, gender: 'Male', status: 'Incarcerated', cell_id: otherCell });

  await page.goto(`/prisoner-details/${kim.prisoner_id}`);
  const section = page.getByTestId('keep-apart');
  await expect(section).toContainText('No one is to be kept apart from this prisoner.');
  await section.getByRole('button', { name: 'Add keep-apart' }).click();
  const dialog = page.getByRole('dialog', { name: `Keep apart from Kim ${lastName}` });
  await dialog.getByLabel('Search prisoner').fill(`Lee ${lastName}`);
  const choice = dialog.getByLabel('Prisoner to keep apart');
  await expect(choice.locator('option', { hasText: `#${lee.prisoner_id}` })).toHaveCount(1);
  await choice.selectOption(String(lee.prisoner_id));
  await dialog.getByLabel('Reason').selectOption('Violence');
  await expect(dialog.getByLabel('Scope').locator('option')).toHaveText(['Not in the same cell', 'Not on the same landing', 'Not in the same block']);
  await dialog.getByLabel('Scope').selectOption('block');
  await dialog.getByLabel('Comment').fill('Fight in the workshop');
  // Both are in one block (decision 102): the form says so in the server's words and offers the move in the same step.
  const breach = dialog.getByRole('group', { name: 'Move one of them' });
  await expect(breach).toContainText(
    `Kim ${lastName} (#${kim.prisoner_id}) and Lee ${lastName} (#${lee.prisoner_id}) must be kept apart by block and are both in block ${block} (cells ${cellId} and ${otherCell}): move one of them out of block ${block} in the same step to create the pair.`,
  );
  await expectNoViolations(page, 'add keep-apart dialog with the move');
  await dialog.getByRole('button', { name: 'Keep apart' }).click();
  await expect(dialog.getByRole('alert')).toContainText('Choose who moves and the cell he moves to.');
  await breach.getByLabel('Who moves').selectOption(String(lee.prisoner_id));
  const destination = breach.getByLabel('Move to cell');
  await expect(destination.locator('option', { hasText: `${third} ·` })).toHaveCount(1);
  await expect(destination.locator('option', { hasText: `${otherCell} ·` })).toHaveCount(0); // Kim's block
  await destination.selectOption(third);
  await dialog.getByRole('button', { name: 'Keep apart' }).click();
  await expect(dialog).toBeHidden();
  await expect(section).toContainText(`Lee ${lastName} · #${lee.prisoner_id} · cell ${third}`);
  await expect(section).toContainText('Violence · Not in the same block · Fight in the workshop');
  await expectNoViolations(page, 'details with a keep-apart pair');

  // Stored as made on screen.
  const pairs = (await (await api.get(`/api/v1/keep-apart?prisoner_id=${lee.prisoner_id}`)).json()) as {
    data: { prisoner_a: { prisoner_id: number }; scope: string; reason: string }[];
  };
  expect(pairs.data).toMatchObject([{ prisoner_a: { prisoner_id: kim.prisoner_id }, scope: 'block', reason: 'Violence' }]);

  // Moving Lee back: every cell of Kim's block is marked as refused, with Kim named.
  await page.goto('/cell-assign');
  await page.getByRole('combobox', { name: 'Block', exact: true }).selectOption(thirdBlock);
  await page.getByTestId(`cell-card-${third}`).getByRole('button', { name: `Move Lee ${lastName}` }).click();
  const picker = page.getByRole('dialog', { name: 'Select Block and Cell' });
  await picker.getByRole('combobox', { name: 'Block' }).selectOption(block);
  await expect(picker.getByTestId(`refusals-${cellId}`)).toContainText(
    `Lee ${lastName} (#${lee.prisoner_id}) must be kept apart from Kim ${lastName} (#${kim.prisoner_id}), who is in cell ${cellId}`,
  );
  await expect(picker.getByRole('button', { name: `Override the rules and assign cell ${cellId}` })).toBeVisible();
  await expect(picker.getByTestId(`refusals-${otherCell}`)).toContainText(`must be kept out of block ${block}`);
  await expectNoViolations(page, 'cell picker with refused cells');

  // Ending the pair on the details screen asks why, and lifts the refusal.
  await page.keyboard.press('Escape');
  await page.goto(`/prisoner-details/${lee.prisoner_id}`);
  await section.getByRole('button', { name: `End keep-apart with Kim ${lastName}` }).click();
  const end = page.getByRole('dialog', { name: `End keep-apart with Kim ${lastName}` });
  await end.getByLabel('Why does it end?').fill('Kim transferred to another prison');
  const [pair] = ((await (await api.get(`/api/v1/keep-apart?prisoner_id=${lee.prisoner_id}&active=true`)).json()) as { data: { id: number }[] }).data;
  await end.getByRole('button', { name: 'End keep-apart' }).click();
  // Ending a pair waits for a second administrator (decision 041); approved, it ends.
  await expect(end).toBeHidden();
  await expect(section.getByTestId('keep-apart-end-pending')).toContainText('Kim transferred to another prison');
  await approvePendingChange(secondApi, String(pair!.id));
  await expect(section).toContainText('Kim transferred to another prison');
  const checks = (await (await api.get(`/api/v1/cell_controls/check?prisoner_id=${lee.prisoner_id}`)).json()) as {
    data: { cell_id: string; refusals: unknown[] }[];
  };
  expect(checks.data.find((c) => c.cell_id === cellId)!.refusals).toEqual([]);
  expect(checks.data.find((c) => c.cell_id === third)!.refusals).toEqual([]);
});

test('the cell picker of a new prisoner marks the cells of the other sex; the override carries the reason to the create', async ({
  adminPage: page,
  api,
}) => {
  const { block, cellId } = await seedCell(api, { capacity: 3 });
  const lastName = unique('Picker');
  const otto = await seedPrisoner(api, { first_name: 'Otto', last_name: lastName, gender: 'Male', status: 'Incarcerated', cell_id: cellId });

  await page.goto('/dashboard');
  await page.getByRole('button', { name: 'Create New Prisoner' }).click();
  const form = page.getByRole('dialog', { name: 'Create New Prisoner' });
  await form.getByLabel('First name').fill('Una');
  await form.getByLabel('Last name').fill(lastName);
  await form.getByLabel('Date of birth').fill('1991-04-06');
  await form.getByLabel('Gender').selectOption('Female');
  await form.getByLabel('Status').selectOption('On Trial');
  await form.getByRole('button', { name: 'Select Cell ID' }).click();
  const picker = page.getByRole('dialog', { name: 'Select Block and Cell' });
  await picker.getByLabel('Block').selectOption(block);
  await expect(picker.getByTestId(`refusals-${cellId}`)).toContainText(`holds Otto ${lastName} (#${otto.prisoner_id}) (male); The new prisoner is female: a cell holds prisoners of one sex`);
  await expect(picker.getByRole('button', { name: `Assign cell ${cellId}`, exact: true })).toHaveCount(0);
  await picker.getByRole('button', { name: `Override the rules and assign cell ${cellId}` }).click();
  const override = page.getByRole('dialog', { name: `Override the cell rules for cell ${cellId}` });
  await override.getByLabel('Reason for the override').fill('Family unit, approved by the governor');
  await override.getByRole('button', { name: 'Override and assign' }).click();
  await expect(picker).toBeHidden();
  await expect(form.getByTestId('chosen-cell')).toHaveText(cellId);
  await expect(form.getByTestId('cell-override')).toContainText('Family unit, approved by the governor');
  await form.getByRole('button', { name: 'Create' }).click();
  await expect(page.getByText('Prisoner created successfully!')).toBeVisible();

  const found = (await (await api.get(`/api/v1/prisoner/all?q=${lastName}&first_name=Una`)).json()) as {
    prisoners: { prisoner_id: number; cell_id: string }[];
  };
  expect(found.prisoners).toMatchObject([{ cell_id: cellId }]);
  const audit = await api.get(`/api/v1/audit?action=override_cell_rule&entity=prisoner&entity_id=${found.prisoners[0]!.prisoner_id}`);
  expect(JSON.stringify(await audit.json())).toContain('Family unit, approved by the governor');
});
