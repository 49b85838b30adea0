// A count is what the officer sees, cell by cell, on a phone (390x844): officer-a, a wing officer of a fresh block A,
// walks landing 1 and landing 2, confirms each cell in one tap and ticks the one prisoner he does not see. The count is
// a discrepancy naming exactly him, whatever the trackers say; a recount that sees everyone clears it, and the tracker
// that placed a prisoner he saw in the yard is listed for a device check. Every target on the sheet is 44 px or more.
import type { APIRequestContext, Locator } from '@playwright/test';
import { expect, test, unique, wingOfficerOnPhone } from '../fixtures';
import { expectNoViolations } from './axe';
import { seedPrisoner } from './records-helpers';

const LAT = 51.5107;
const LNG = -0.1346;
const AREA = [
  { lat: LAT - 0.0005, lng: LNG - 0.0008 },
  { lat: LAT - 0.0005, lng: LNG + 0.0008 },
  { lat: LAT + 0.0005, lng: LNG + 0.0008 },
  { lat: LAT + 0.0005, lng: LNG - 0.0008 },
];
const OUTSIDE = { lat: LAT + 0.004, lng: LNG };

async function prisonerIn(api: APIRequestContext, cellId: string, firstName: string, at: { lat: number; lng: number } | null) {
  const prisoner = await seedPrisoner(api, { first_name: firstName, last_name: 'Walked', status: 'Incarcerated', cell_id: cellId });
  if (at === null) return prisoner;
  const device = await api.post('/api/v1/devices', { data: { name: unique('Tag '), prisoner_id: prisoner.prisoner_id, kind: 'phone' } });
  expect(device.status(), await device.text()).toBe(201);
  const { id } = (await device.json()) as { id: string };
  const fix = await api.get('/api/v1/ingest/osmand', {
    params: { id, lat: at.lat, lon: at.lng, timestamp: Math.floor(Date.now() / 1000) },
  });
  expect(fix.status(), await fix.text()).toBe(200);
  return prisoner;
}

async function expectTargets(buttons: Locator) {
  for (const button of await buttons.all()) {
    const name = (await button.textContent()) ?? '';
    const box = await button.boundingBox();
    expect(box, name).not.toBeNull();
    expect(box!.height, `${name} height`).toBeGreaterThanOrEqual(44);
    expect(box!.width, `${name} width`).toBeGreaterThanOrEqual(44);
  }
}

test.use({ viewport: { width: 390, height: 844 } });

test('officer-a counts block A cell by cell: one prisoner not seen is a discrepancy naming exactly him; a recount clears it', async ({
  api,
  browser,
  playwright,
  baseURL,
}) => {
  const block = unique('A');
  for (const cellId of [`${block}-101`, `${block}-102`, `${block}-201`]) {
    const cell = await api.post('/api/v1/cell_controls/cells', { data: { cell_id: cellId, block, capacity: 4, security_level: 'Medium' } });
    expect(cell.status(), await cell.text()).toBe(200);
  }
  const area = await api.put(`/api/v1/blocks/${encodeURIComponent(block)}/area`, { data: { points: AREA } });
  expect(area.status(), await area.text()).toBe(200);
  const inCell = { lat: LAT, lng: LNG };
  const ann = await prisonerIn(api, `${block}-101`, unique('Ann'), inCell);
  const ben = await prisonerIn(api, `${block}-101`, unique('Ben'), inCell);
  const cal = await prisonerIn(api, `${block}-102`, unique('Cal'), OUTSIDE); // his tracker says elsewhere
  const dee = await prisonerIn(api, `${block}-201`, unique('Dee'), null); // no tracker at all
  const { context, page } = await wingOfficerOnPhone({ api, playwright, baseURL, browser }, block, {
    username: unique('officer-a'),
    name: 'Wing Officer A',
    password: 'landing rounds of block alpha',
  });
  await page.goto('/counts');
  await page.getByRole('combobox', { name: 'Count' }).selectOption(`Block ${block}`);
  await page.getByRole('button', { name: 'Start count' }).click();
  const sheet = page.getByTestId('count-sheet');
  await expect(sheet.getByRole('heading', { name: `Block ${block} count` })).toBeVisible();
  await expect(sheet.getByTestId('count-expected')).toHaveText('4');

  // Landing by landing, cell by cell, each prisoner with his tracker's advice.
  await expect(sheet.getByRole('heading', { name: /^Landing \d$/ })).toHaveText(['Landing 1', 'Landing 2']);
  const cells = sheet.getByTestId('count-cell');
  await expect(cells).toHaveCount(3);
  const cell101 = sheet.getByRole('listitem', { name: `Cell ${block}-101` });
  const cell102 = sheet.getByRole('listitem', { name: `Cell ${block}-102` });
  const cell201 = sheet.getByRole('listitem', { name: `Cell ${block}-201` });
  await expect(cell101.getByTestId('count-prisoner')).toHaveCount(2);
  await expect(cell102.getByTestId('count-prisoner')).toContainText(['Elsewhere']);
  await expect(cell201.getByTestId('count-prisoner')).toContainText(['Untracked']);
  // Who is who (decision 101): each prisoner on the sheet with his prison number and his initials (no photo).
  await expect(cell201.getByTestId('count-prisoner').getByTestId('prison-number')).toHaveText(dee.prison_number);
  await expect(cell201.getByTestId('count-prisoner').getByTestId('prisoner-initials')).toBeVisible();
  await expectTargets(sheet.getByRole('button'));
  await expectNoViolations(page, 'the count sheet, open');
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

  // Ben is not in his cell: ticked missing, then the cell confirmed; the other two cells in one tap each.
  await cell101.getByRole('button', { name: `Not seen: ${ben.first_name} Walked` }).click();
  await cell101.getByRole('button', { name: /: Confirm 1 seen$/ }).click();
  await cell102.getByRole('button', { name: /: All 1 seen$/ }).click();
  await cell201.getByRole('button', { name: /: All 1 seen$/ }).click();
  await expect(sheet.getByTestId('count-progress')).toHaveText('3 of 3 cells confirmed · 3 seen · 1 not seen');
  await sheet.getByRole('button', { name: 'Submit count: 3 seen of 4' }).click();

  await expect(sheet.getByTestId('count-state')).toHaveText('Discrepancy');
  await expect(sheet.getByText('Discrepancy: 1 not seen.')).toBeVisible();
  const toFind = sheet.getByRole('list', { name: 'Prisoners to find' }).getByTestId('to-find');
  await expect(toFind).toHaveCount(1);
  await expect(toFind).toContainText(ben.first_name);
  await expect(sheet.getByTestId('count-to-find')).toHaveText('1');
  // Cal was seen though his tracker is elsewhere: a tracker to check, not a prisoner to find.
  await expect(sheet.getByRole('list', { name: 'Trackers to check' }).getByTestId('tracker-mismatch')).toContainText([cal.first_name]);

  await expectNoViolations(page, 'the count sheet, a discrepancy');

  // The recount: every cell confirmed in one tap, everyone seen.
  await expect(sheet.getByRole('heading', { name: 'Recount cell by cell' })).toBeVisible();
  for (const cell of [cell101, cell102, cell201]) await cell.getByRole('button', { name: /: All \d seen$/ }).click();
  await sheet.getByRole('button', { name: 'Submit count: 4 seen of 4' }).click();
  await expect(sheet.getByTestId('count-state')).toHaveText('Clear');
  await expect(sheet.getByText('Count clear: every prisoner is accounted for.')).toBeVisible();
  await expect(sheet.getByText('counted 2 times, the last decides')).toBeVisible();
  await expect(sheet.getByTestId('count-to-find')).toHaveText('0');
  await expect(sheet.getByRole('heading', { name: 'Recount cell by cell' })).toHaveCount(0);
  await sheet.getByText('The roll (4)').click();
  await expect(sheet.getByRole('list', { name: 'Count lines' }).getByTestId('count-line')).toContainText([
    ann.first_name,
    ben.first_name,
    cal.first_name,
    dee.first_name,
  ]);

  // The home page's overview shows the block's roll.
  await page.goto('/');
  await expect(page.getByTestId('latest-count').filter({ hasText: `Block ${block}` }).getByTestId('block-roll')).toHaveText(
    '4 expected · 4 seen · 0 out · 0 to find',
  );
  await context.close();
});
