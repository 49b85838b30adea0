// The welfare round (decision 099) on a phone: a wing officer of block A (officer-a's part: an officer whose caseload
// is that block) does the first round of checks of his block. Nobody has been checked yet, yet everyone is on the
// schedule with a due time; the round is grouped by landing and cell, and each standard check is one tap of a 44 px
// target ("Not in cell" asks where). A prisoner on enhanced observation keeps the written check.
import { expect, test, unique, wingOfficerOnPhone } from '../fixtures';
import { expectNoViolations } from './axe';
import { seedPrisoner } from './records-helpers';

test.use({ viewport: { width: 390, height: 844 } });

test('officer-a does the first round of checks of block A with one tap each', async ({ api, browser, playwright, baseURL }) => {
  const block = unique('A');
  // Two landings (the cell numbers' hundreds): A-101 and A-102 on landing 1, A-201 on landing 2.
  const cells = [`${block}-101`, `${block}-102`, `${block}-201`];
  for (const cellId of cells) {
    const res = await api.post('/api/v1/cell_controls/cells', { data: { cell_id: cellId, block, capacity: 2, security_level: 'Medium' } });
    expect(res.status(), await res.text()).toBe(200);
  }
  const names = ['Arben', 'Besim', 'Cyril', 'Dritan'].map((first) => unique(first));
  const placed = [cells[0]!, cells[0]!, cells[1]!, cells[2]!];
  const prisoners = [];
  for (const [i, first] of names.entries()) prisoners.push(await seedPrisoner(api, { first_name: first, last_name: 'Round', status: 'Incarcerated', cell_id: placed[i] }));
  const enhanced = await seedPrisoner(api, { first_name: unique('Emir'), last_name: 'Round', status: 'Incarcerated', cell_id: cells[2] });
  const set = await api.put(`/api/v1/prisoners/${enhanced.prisoner_id}/observation`, { data: { level: 'enhanced', reason: 'Low mood after a court date' } });
  expect(set.status(), await set.text()).toBe(200);
  const { officer, context, page } = await wingOfficerOnPhone({ api, playwright, baseURL, browser }, block, {
    username: unique('officer-a'),
    name: 'Wing Officer A',
    password: 'landing rounds of my own block',
  });
  await page.goto(`/observations?block=${encodeURIComponent(block)}`);
  await expect(page.getByRole('heading', { name: 'Observation checks' })).toBeVisible();

  // Everyone is on the schedule: five due, none "Not scheduled", none checked yet.
  const rows = page.getByTestId('due-row');
  await expect(rows).toHaveCount(5);
  await expect(page.getByText('Not scheduled')).toHaveCount(0);
  await expect(rows.filter({ hasText: 'never checked' })).toHaveCount(5);
  // Grouped by landing, then cell.
  await expect(page.getByRole('heading', { name: 'Landing 1' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Landing 2' })).toBeVisible();
  await expect(page.getByTestId('due-cell').filter({ hasText: `Cell ${cells[0]}` }).getByTestId('due-row')).toHaveCount(2);
  await expectNoViolations(page, 'the welfare round at 390 px');
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

  // One tap each, every target at least 44 px high.
  const [arben, besim, cyril, dritan] = names;
  const seen = page.getByRole('button', { name: `Seen, well: ${arben} Round` });
  expect((await seen.boundingBox())!.height).toBeGreaterThanOrEqual(44);
  await seen.click();
  await expect(rows.filter({ hasText: arben! })).toContainText(`by ${officer.username}`);
  await page.getByRole('button', { name: `Asleep, breathing seen: ${besim} Round` }).click();
  await expect(rows.filter({ hasText: besim! })).toContainText(`by ${officer.username}`);
  await page.getByRole('button', { name: `Seen, well: ${cyril} Round` }).click();
  await expect(rows.filter({ hasText: cyril! })).toContainText(`by ${officer.username}`);
  // "Not in cell" asks where.
  await page.getByRole('button', { name: `Not in cell: ${dritan} Round` }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('button', { name: 'Record check' }).click();
  await expect(dialog).toContainText('Say where he is.');
  await dialog.getByLabel('Where is he?').fill('Healthcare, with an officer');
  await dialog.getByRole('button', { name: 'Record check' }).click();
  await expect(dialog).toBeHidden();
  await expect(rows.filter({ hasText: dritan! })).toContainText(`by ${officer.username}`);

  // Enhanced keeps the written observation: no one-tap entries for him.
  const emir = rows.filter({ hasText: enhanced.first_name });
  await expect(emir.getByRole('button', { name: /^Seen, well/ })).toHaveCount(0);
  await expect(emir.getByRole('button', { name: `Record check for ${enhanced.first_name} Round` })).toBeVisible();
  // Who is who on the round (decision 101): his prison number beside the name.
  await expect(emir.getByTestId('prison-number')).toHaveText(enhanced.prison_number);
  await expect(rows.filter({ hasText: 'never checked' })).toHaveCount(1);
  await expect(page.getByTestId('overdue-count')).toHaveText('0');

  // What was recorded, by whom, in words.
  const history = await api.get(`/api/v1/prisoners/${prisoners[3]!.prisoner_id}/observation`);
  const { checks } = (await history.json()) as { checks: { observed: string; checked_by: string }[] };
  expect(checks[0]).toMatchObject({ observed: 'Not in cell: Healthcare, with an officer', checked_by: officer.username });
  await context.close();
});
