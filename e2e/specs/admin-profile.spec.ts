// Profile: change the password and log in with the new one; revoke a session and see that browser logged out.
// Each test creates its own admin, so the shared e2e admin keeps its password and sessions.
import { request, type APIRequestContext } from '@playwright/test';
import { approveNewAdministrator, chooseOwnPassword, expect, loginButton, loginThroughApi, test, unique } from '../fixtures';

/** An admin created by the e2e admin whose first login already chose `password` as its own (decision 054). */
async function newAdmin(api: APIRequestContext, password: string) {
  const username = unique('adm');
  const given = `given ${password}`;
  const res = await api.post('/api/v1/admins', { data: { username, name: `Officer ${username}`, password: given } });
  // A new administrator waits for a second one (decision 091): the run's approver approves it.
  await approveNewAdministrator({ request }, test.info().project.use.baseURL, res);
  const first = await request.newContext({ baseURL: test.info().project.use.baseURL });
  await chooseOwnPassword(first, username, given, password);
  // That first session ends here, so the test's session list holds only its own.
  expect((await first.post('/api/v1/admin/logout')).status()).toBe(200);
  await first.dispose();
  return username;
}

test('changes the password, then logs in with the new one', async ({ browser, api }) => {
  const username = await newAdmin(api, 'first password 1');
  const context = await browser.newContext();
  await loginThroughApi(context.request, username, 'first password 1');
  const page = await context.newPage();
  await page.goto('/profile');
  await expect(page.getByTestId('profile-name')).toHaveText(`Officer ${username}`);

  const form = page.getByRole('form', { name: 'Change password' });
  await form.getByLabel('Current password').fill('wrong password');
  await form.getByLabel('New password', { exact: true }).fill('second password 2');
  await form.getByLabel('Confirm new password').fill('second password 2');
  await form.getByRole('button', { name: 'Change password' }).click();
  await expect(form.getByRole('alert')).toHaveText('current_password: is not correct');

  await form.getByLabel('Current password').fill('first password 1');
  await form.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByText('Password changed. Your other sessions were logged out.')).toBeVisible();

  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill('first password 1');
  await loginButton(page).click();
  await expect(page.getByTestId('login-error')).toHaveText('Invalid username or password');
  await page.getByLabel('Password').fill('second password 2');
  await loginButton(page).click();
  await expect(page.getByTestId('admin-name')).toHaveText(`Officer ${username}`);
  await context.close();
});

test('revokes another session: that browser is logged out at once', async ({ browser, api }) => {
  const username = await newAdmin(api, 'session password');
  const mine = await browser.newContext();
  const other = await browser.newContext({ userAgent: 'Other browser (e2e)' });
  await loginThroughApi(mine.request, username, 'session password');
  await loginThroughApi(other.request, username, 'session password');
  const otherPage = await other.newPage();
  await otherPage.goto('/dashboard');
  await expect(otherPage.getByTestId('admin-name')).toBeVisible();

  const page = await mine.newPage();
  await page.goto('/profile');
  const rows = page.getByTestId('session-row');
  await expect(rows).toHaveCount(2);
  await expect(page.locator('[data-testid="session-row"][data-current]')).toHaveCount(1);
  const otherRow = rows.filter({ hasText: 'Other browser (e2e)' });
  await otherRow.getByRole('button', { name: 'Revoke' }).click();
  const dialog = page.getByRole('dialog', { name: 'Revoke session' });
  await expect(dialog).toContainText('will be logged out at once');
  await dialog.getByRole('button', { name: 'Revoke' }).click();
  await expect(rows).toHaveCount(1);

  // The other browser is sent to /login by the socket, without a reload of its own.
  await expect(otherPage).toHaveURL(/\/login$/, { timeout: 15_000 });
  await expect(otherPage.getByTestId('session-ended')).toHaveText(
    'This session was ended from the sessions list on the profile page. Log in again.',
  );
  await otherPage.goto('/dashboard');
  await expect(otherPage).toHaveURL(/\/login$/);
  await mine.close();
  await other.close();
});

test('creates an admin and disables them: their open browser is logged out', async ({
  adminPage: page,
  api,
  browser,
}) => {
  const username = unique('dis');
  await page.goto('/profile');
  await page.getByRole('button', { name: 'Create account' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create account' });
  await dialog.getByLabel('Username').fill(username);
  await dialog.getByLabel('Display name').fill('To Be Disabled');
  await dialog.getByLabel('Password').fill('short');
  await dialog.getByRole('button', { name: 'Create account' }).click();
  await expect(dialog.getByText('password must be at least 12 characters')).toBeVisible();
  await dialog.getByLabel('Password').fill('disable password');
  // No role by default: whoever creates an account says what it may do (decision 053).
  await dialog.getByRole('button', { name: 'Create account' }).click();
  await expect(dialog.getByText('role: choose the role of the account')).toBeVisible();
  // A wing officer needs a block: none ticked is every block, which is not his (decision 093).
  await dialog.getByLabel('Role').selectOption({ label: 'Wing officer' });
  await dialog.getByRole('button', { name: 'Create account' }).click();
  await expect(dialog.getByText('blocks: a wing officer needs at least one block')).toBeVisible();
  await dialog.getByLabel('Role').selectOption({ label: 'Supervisor' });
  await expect(dialog.getByText('blocks: a wing officer needs at least one block')).toBeHidden();
  await dialog.getByRole('button', { name: 'Create account' }).click();
  await expect(dialog).toBeHidden();
  const row = page.locator(`[data-testid="admin-row"][data-username="${username}"]`);
  await expect(row).toContainText('Active');
  await expect(row.locator('[data-field="role"]')).toHaveText('Supervisor');
  await expect(row.locator('[data-field="blocks"]')).toHaveText('Every block');

  const theirs = await browser.newContext();
  // Created by another administrator: their first login chooses their own password (decision 054).
  await chooseOwnPassword(theirs.request, username, 'disable password', 'their own disable phrase');
  const theirPage = await theirs.newPage();
  await theirPage.goto('/dashboard');
  await expect(theirPage.getByTestId('admin-name')).toHaveText('To Be Disabled');

  await row.getByRole('button', { name: 'Disable' }).click();
  await page.getByRole('dialog', { name: 'Disable admin' }).getByRole('button', { name: 'Disable' }).click();
  await expect(row).toContainText('Disabled');
  await expect(theirPage).toHaveURL(/\/login$/, { timeout: 15_000 });
  await expect(theirPage.getByTestId('session-ended')).toHaveText('Your account was disabled by another administrator.');
  const relogin = await theirs.request.post('/api/v1/admin/login', {
    data: { username, password: 'their own disable phrase' },
  });
  expect(relogin.status()).toBe(401);

  await row.getByRole('button', { name: 'Enable' }).click();
  await expect(row).toContainText('Active');
  expect((await api.post('/api/v1/admin/login', { data: { username, password: 'their own disable phrase' } })).status()).toBe(
    200,
  );
  await theirs.close();
});
