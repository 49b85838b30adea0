// The control-room log: a message posted in one browser appears live in a second one.
import { expect, loginThroughApi, test, unique } from '../fixtures';

test('a log message posted in one browser arrives in another', async ({ adminPage: page, browser }) => {
  const second = await browser.newContext();
  await loginThroughApi(second.request);
  const secondPage = await second.newPage();
  await secondPage.goto('/communication');
  await expect(secondPage.getByRole('heading', { name: 'Control-room log' })).toBeVisible();

  await page.goto('/communication');
  const text = `Handover ${unique('m')}: all quiet in block C.`;
  await page.getByLabel('New log entry').fill(text);
  await page.getByRole('button', { name: 'Post' }).click();
  await expect(page.getByTestId('log-entry').first()).toContainText(text);
  await expect(page.getByLabel('New log entry')).toHaveValue('');

  // Newest first, with its author, without a reload.
  const arrived = secondPage.getByTestId('log-entry').first();
  await expect(arrived).toContainText(text);
  await expect(arrived).toContainText('e2e-admin');
  await second.close();
});
