// Roll counts on a phone: a wing officer of block A, on a 390 px wide screen, counts his block by a typed total (clear);
// a second count typed one short names nobody, so he recounts cell by cell, which names the missing prisoner, and
// accounts for him (at court), which closes it. Both stay in the history and the overview shows the block's roll. An
// administrator starts a whole-prison count, which the form asks for by name.
import type { APIRequestContext } from '@playwright/test';
import { expect, test, unique, wingOfficerOnPhone } from '../fixtures';
import { seedPrisoner } from './records-helpers';

const LAT = 51.5007;
const LNG = -0.1246;
const AREA = [
  { lat: LAT - 0.0005, lng: LNG - 0.0008 },
  { lat: LAT - 0.0005, lng: LNG + 0.0008 },
  { lat: LAT + 0.0005, lng: LNG + 0.0008 },
  { lat: LAT + 0.0005, lng: LNG - 0.0008 },
];

async function trackedPrisonerIn(api: APIRequestContext, cellId: string, firstName: string) {
  const prisoner = await seedPrisoner(api, { first_name: firstName, last_name: 'Counted', status: 'Incarcerated', cell_id: cellId });
  const device = await api.post('/api/v1/devices', { data: { name: unique('Tag '), prisoner_id: prisoner.prisoner_id, kind: 'phone' } });
  expect(device.status(), await device.text()).toBe(201);
  const { id } = (await device.json()) as { id: string };
  const fix = await api.get('/api/v1/ingest/osmand', {
    params: { id, lat: LAT, lon: LNG, timestamp: Math.floor(Date.now() / 1000) },
  });
  expect(fix.status(), await fix.text()).toBe(200);
  return prisoner;
}

test.use({ viewport: { width: 390, height: 844 } });

test('a wing officer completes a count of block A on a phone-sized screen', async ({ api, browser, playwright, baseURL }) => {
  const block = unique('A');
  const cellId = unique('A-');
  const cell = await api.post('/api/v1/cell_controls/cells', {
    data: { cell_id: cellId, block, capacity: 4, security_level: 'Medium' },
  });
  expect(cell.status(), await cell.text()).toBe(200);
  const area = await api.put(`/api/v1/blocks/${encodeURIComponent(block)}/area`, { data: { points: AREA } });
  expect(area.status(), await area.text()).toBe(200);
  const first = await trackedPrisonerIn(api, cellId, unique('Ann'));
  const second = await trackedPrisonerIn(api, cellId, unique('Ben'));
  const { context, page } = await wingOfficerOnPhone({ api, playwright, baseURL, browser }, block, {
    username: unique('officer'),
    name: 'Wendy Wing',
    password: 'rounds of my own landing',
  });

  // The menu (a phone's) leads to the Counts screen.
  await page.goto('/');
  await page.getByRole('button', { name: /menu/i }).click();
  await page.getByRole('link', { name: 'Counts' }).click();
  await expect(page.getByRole('heading', { name: 'Roll counts' })).toBeVisible();
  await expect(page.getByText('No counts yet.')).toBeVisible();
  // His caseload is one block: no whole-prison count is offered.
  await expect(page.getByRole('combobox', { name: 'Count' }).locator('option', { hasText: 'Whole prison' })).toHaveCount(0);

  await page.getByRole('combobox', { name: 'Count' }).selectOption(`Block ${block}`);
  await page.getByRole('button', { name: 'Start count' }).click();
  const sheet = page.getByTestId('count-sheet');
  await expect(sheet.getByRole('heading', { name: `Block ${block} count` })).toBeVisible();
  await expect(sheet.getByTestId('count-expected')).toHaveText('2');
  await expect(sheet.getByTestId('count-located')).toHaveText('2');
  const prisoners = sheet.getByTestId('count-prisoner');
  await expect(prisoners).toHaveCount(2);
  for (const prisoner of [first, second]) {
    await expect(prisoners.filter({ hasText: prisoner.first_name }).getByTestId('line-state')).toHaveText('In block');
  }

  // Nothing wider than the phone.
  const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(scrollWidth).toBeLessThanOrEqual(390);

  // A typed total is still possible: the number, then Enter submits.
  await sheet.getByText('Type a total instead').click();
  await sheet.getByLabel('Number counted').fill('2');
  await sheet.getByLabel('Number counted').press('Enter');
  await expect(sheet.getByTestId('count-state')).toHaveText('Clear');
  await expect(sheet.getByText('Count clear: every prisoner is accounted for.')).toBeVisible();
  await expect(page.getByTestId('count-history-row').first()).toContainText('Clear');

  // A second count typed one short names nobody: the sheet asks for a recount cell by cell, which names him; he is
  // then accounted for (at court), which closes the count. A note alone is not offered.
  await page.getByRole('combobox', { name: 'Count' }).selectOption(`Block ${block}`);
  await page.getByRole('button', { name: 'Start count' }).click();
  await expect(sheet.getByTestId('count-state')).toHaveText('In progress');
  await sheet.getByText('Type a total instead').click();
  await sheet.getByLabel('Number counted').fill('1');
  await sheet.getByRole('button', { name: 'Submit number' }).click();
  await expect(sheet.getByTestId('count-state')).toHaveText('Discrepancy');
  await expect(sheet.getByText('Discrepancy: counted 1 of 2 expected; 1 missing, not named. Recount cell by cell to find who.')).toBeVisible();
  await expect(sheet.getByRole('form', { name: 'Account for each prisoner not seen' })).toHaveCount(0);
  await sheet.getByRole('button', { name: `Not seen: ${second.first_name} Counted` }).click();
  await sheet.getByRole('button', { name: /: Confirm 1 seen$/ }).click();
  await sheet.getByRole('button', { name: 'Submit count: 1 seen of 2' }).click();
  await expect(sheet.getByTestId('to-find')).toHaveCount(1);
  await expect(sheet.getByTestId('to-find')).toContainText(second.first_name);
  const accounts = sheet.getByRole('form', { name: 'Account for each prisoner not seen' });
  await accounts.getByRole('button', { name: 'Close: each one accounted for' }).click();
  await expect(accounts.getByText(`accounts: choose where ${second.first_name} Counted is`)).toBeVisible();
  await accounts.getByRole('combobox', { name: `Where is ${second.first_name} Counted` }).selectOption('Court');
  await accounts.getByRole('button', { name: 'Close: each one accounted for' }).click();
  await expect(sheet.getByTestId('count-state')).toHaveText('Closed');
  await expect(sheet.getByText(/: each prisoner not seen is accounted for\.$/)).toBeVisible();
  await expect(sheet.getByTestId('out-line')).toHaveText(`${second.first_name} Counted: Court`);
  const history = page.getByTestId('count-history-row');
  await expect(history).toHaveCount(2);
  await expect(history.first()).toContainText('Closed');
  await expect(history.nth(1)).toContainText('Clear');

  // The home page's overview shows the block's last count: its state and its roll.
  await page.goto('/');
  const latest = page.getByTestId('latest-count').filter({ hasText: `Block ${block}` });
  await expect(latest).toContainText('Closed');
  await expect(latest.getByTestId('block-roll')).toHaveText('2 expected · 1 seen · 1 out (Court) · 0 to find');
  await context.close();
});

test('an administrator counts the whole prison: the form asks for it by name (scope "prison"), never by an empty body', async ({
  adminPage: page,
}) => {
  await page.goto('/counts');
  const started = page.waitForRequest((request) => request.method() === 'POST' && request.url().endsWith('/api/v1/counts'));
  await page.getByRole('combobox', { name: 'Count' }).selectOption('Whole prison');
  await page.getByRole('button', { name: 'Start count' }).click();
  expect((await started).postDataJSON()).toEqual({ scope: 'prison' });
  const sheet = page.getByTestId('count-sheet');
  await expect(sheet.getByRole('heading', { name: 'Whole prison count' })).toBeVisible();
  await expect(sheet.getByTestId('count-state')).toHaveText('In progress');
});
