// A handover the next shift must read: written in the control-room log by one account, it shows on every screen of
// the next account to log in (a second browser, a phone) until that account confirms reading it, then no more; the
// writer sees who confirmed. On a server of its own (E2E_PORT + 44, + 45 for its OsmAnd port): a handover on the run's
// shared server would show its panel to every account the other specs log in with.
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createReadyAccount, expect, test, unique } from '../fixtures';
import { spawnOwnServer, stopOwnServer, waitReady } from '../own-server';
import { expectNoViolations } from './axe';

const port = Number(process.env.E2E_PORT ?? 3210) + 44;
const base = `http://localhost:${port}`;
let server: ChildProcess | undefined;
let dataDir = '';

test.beforeAll(async () => {
  test.setTimeout(150_000);
  dataDir = mkdtempSync(path.join(tmpdir(), 'prison-e2e-handover-'));
  server = spawnOwnServer(port, dataDir);
  await waitReady(base, server);
});

test.afterAll(async () => {
  await stopOwnServer(server, dataDir, 10_000);
});

test.use({ baseURL: base });

test('a handover shows on every screen of the next account to log in until it confirms reading it, then no more', async ({
  adminPage: page,
  api,
  browser,
  playwright,
}) => {
  const next = await createReadyAccount(api, playwright, base, {
    username: unique('nextshift'),
    name: 'Nora Nightshift',
    password: 'the next shift password 789',
    role: 'operator',
  });

  // The writer posts a handover with the keyboard: type chosen, Ctrl+Enter posts.
  await page.goto('/communication');
  const text = `Handover ${unique('h')}: B wing locked down at 21:00, one prisoner on constant watch.`;
  await page.getByLabel('New log entry').fill(text);
  await page.getByRole('form', { name: 'Write a log entry' }).getByLabel('Type', { exact: true }).selectOption('handover');
  await page.getByLabel('New log entry').press('Control+Enter');
  const written = page.getByTestId('log-entry').filter({ hasText: text });
  await expect(written).toHaveAttribute('data-type', 'handover');
  await expect(written.getByTestId('handover-reads')).toHaveText('Not confirmed read yet.');
  // Its writer, logged in before it, is asked nothing.
  await expect(page.getByTestId('handover-panel')).toHaveCount(0);

  // The next shift logs in afterwards, on a phone.
  const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, baseURL: base });
  const nextPage = await phone.newPage();
  const login = await nextPage.request.post('/api/v1/admin/login', { data: { username: next.username, password: next.password } });
  expect(login.status(), await login.text()).toBe(200);
  await nextPage.goto('/');
  const panel = nextPage.getByTestId('handover-panel');
  await expect(panel).toContainText(text);
  await expect(panel.getByRole('heading', { name: 'A handover to read before you start' })).toBeVisible();
  await expect(panel.getByTestId('log-type')).toHaveText('Handover');
  // On a phone: nothing sideways, and the panel passes axe.
  expect(await nextPage.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await expectNoViolations(nextPage, 'handover panel at 390 px');

  // Every staff screen shows it until confirmed.
  for (const screen of ['/alerts', '/communication']) {
    await nextPage.goto(screen);
    await expect(nextPage.getByTestId('handover-panel'), screen).toContainText(text);
  }

  // Confirmed with the keyboard: the panel goes, and stays gone on every screen and after a reload.
  const confirm = panel.getByRole('button', { name: 'I have read this handover' });
  await confirm.focus();
  await nextPage.keyboard.press('Enter');
  await expect(panel).toHaveCount(0);
  await nextPage.reload();
  await expect(nextPage.getByTestId('log-entry').filter({ hasText: text })).toBeVisible();
  await expect(nextPage.getByTestId('handover-panel')).toHaveCount(0);
  await nextPage.goto('/alerts');
  await expect(nextPage.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(nextPage.getByTestId('handover-panel')).toHaveCount(0);

  // The entry says who confirmed it, and when, to its writer without a reload.
  await expect(written.getByTestId('handover-reads')).toContainText('Confirmed read by Nora Nightshift');
  await phone.close();
});
