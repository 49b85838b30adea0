// Two-factor login: enrol on /profile, log out, log in with a code; the same code again is refused; a
// recovery code works once. Turning it on asks for the password and ends the admin's other sessions.
// The admin is the test's own, so the shared e2e admin keeps logging in with a password.
import type { Page } from '@playwright/test';
import { generate } from 'otplib';
import { createReadyAccount, expect, loginButton, loginThroughApi, loginThroughForm, test, unique } from '../fixtures';

const PASSWORD = 'two factor phrase';

async function logInWithCode(page: Page, username: string, code?: string) {
  await loginThroughForm(page, username, PASSWORD);
  if (code === undefined) return;
  // The form asks for the code only once the password was right.
  const codeField = page.getByLabel('Authentication code');
  await expect(codeField).toBeVisible();
  await codeField.fill(code);
  await loginButton(page).click();
}

async function logOut(page: Page) {
  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/login$/);
}

test('enrols on /profile, logs in with a code once, and with a recovery code once', async ({ browser, api, playwright, baseURL }) => {
  const username = unique('tfa');
  await createReadyAccount(api, playwright, baseURL, { username, name: `Officer ${username}`, password: PASSWORD });
  const context = await browser.newContext();
  await loginThroughApi(context.request, username, PASSWORD);
  // Another session of the same admin, opened with the password alone: it must end when two-factor login is turned on.
  const otherContext = await browser.newContext();
  await loginThroughApi(otherContext.request, username, PASSWORD);
  expect((await otherContext.request.get('/api/v1/admin/verify-token')).status()).toBe(200);
  const page = await context.newPage();
  await page.goto('/profile');

  const section = page.getByRole('region', { name: 'Two-factor login' });
  await section.getByRole('button', { name: 'Set up two-factor login' }).click();
  await expect(section.getByRole('img', { name: 'QR code for your authenticator app' })).toBeVisible();
  const secret = (await section.getByTestId('totp-secret').textContent())!.trim();
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  // The previous 30 s step's code (accepted within the one-step tolerance), so the current one stays unused.
  const enrolCode = await generate({ secret, epoch: Math.floor(Date.now() / 1000) - 30 });
  await section.getByLabel('Code from the app').fill(enrolCode);
  // A live session is not enough: the form asks for the password, and shows the server's answer to a wrong one.
  await section.getByLabel('Current password').fill('not my password');
  await section.getByRole('button', { name: 'Turn on two-factor login' }).click();
  await expect(section.getByRole('alert')).toHaveText('current_password: is not correct');
  await section.getByLabel('Current password').fill(PASSWORD);
  // A fresh code: the first try may have crossed a 30 s step.
  await section.getByLabel('Code from the app').fill(await generate({ secret, epoch: Math.floor(Date.now() / 1000) - 30 }));
  await section.getByRole('button', { name: 'Turn on two-factor login' }).click();
  await expect(section.getByTestId('recovery-code')).toHaveCount(10);
  const ended = await otherContext.request.get('/api/v1/admin/verify-token');
  expect(ended.status()).toBe(401);
  expect((await ended.json()).reason).toBe('two_factor_enabled');
  await otherContext.close();
  const recoveryCodes = await section.getByTestId('recovery-code').allTextContents();
  await section.getByRole('button', { name: 'I have saved them' }).click();
  await expect(section.getByTestId('totp-status')).toContainText('Two-factor login is on. 10 recovery codes left.');

  await logOut(page);
  const code = await generate({ secret });
  await logInWithCode(page, username, code);
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByTestId('admin-name')).toHaveText(`Officer ${username}`);

  await logOut(page);
  await logInWithCode(page, username, code);
  await expect(page.getByTestId('login-error')).toHaveText('Invalid or already used code');
  await expect(page).toHaveURL(/\/login$/);

  await page.getByLabel('Authentication code').fill(recoveryCodes[0]!);
  await loginButton(page).click();
  await expect(page).toHaveURL(/\/$/);

  await logOut(page);
  await logInWithCode(page, username, recoveryCodes[0]!);
  await expect(page.getByTestId('login-error')).toHaveText('Invalid or already used code');
  await expect(page).toHaveURL(/\/login$/);
  await context.close();
});
