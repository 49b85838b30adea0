// Single sign-on in Chromium (decision 052): a server of this spec's own (E2E_PORT + 14) configured
// with a real OpenID provider this spec starts (oidc-provider, its development login and consent pages). Clicking the
// button on /login, logging in at the provider, lands on / logged in as a new officer account with the claims'
// blocks; a provider account without a role comes back to /login with the reason; the run's shared server, without
// OIDC_ISSUER, shows no button.
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { request as playwrightRequest, type Page } from '@playwright/test';
// The file itself, not the package index: the index loads JSON that Playwright's loader cannot import.
import { SSO_BUTTON_LABEL, SSO_REFUSALS } from '../../packages/shared/src/oidc';
import { startTestOidcProvider, type TestOidcProvider } from '../../apps/server/test/oidc-test-provider';
import { expect, loginThroughApi, test } from '../fixtures';
import { spawnOwnServer, stopOwnServer, waitReady } from '../own-server';
import { expectNoViolations } from './axe';

const sharedPort = Number(process.env.E2E_PORT ?? 3210);
const port = sharedPort + 14;
const base = `http://localhost:${port}`;
const client = { clientId: 'prison-control-e2e', clientSecret: 'the e2e client secret of the test provider' };
let oidc: TestOidcProvider;
let server: ChildProcess;
let dataDir: string;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  oidc = await startTestOidcProvider({
    client: { ...client, redirectUris: [`${base}/api/v1/auth/oidc/callback`] },
  });
  dataDir = mkdtempSync(path.join(tmpdir(), 'prison-e2e-oidc-'));
  server = spawnOwnServer(port, dataDir, {
    OIDC_ISSUER: oidc.issuer,
    OIDC_CLIENT_ID: client.clientId,
    OIDC_CLIENT_SECRET: client.clientSecret,
  });
  await waitReady(base, server);
  // Blocks A and B exist here; the officer's claims name A.
  const api = await playwrightRequest.newContext({ baseURL: base });
  await loginThroughApi(api);
  for (const [cellId, block] of [
    ['A-101', 'A'],
    ['B-101', 'B'],
  ]) {
    const res = await api.post('/api/v1/cell_controls/cells', { data: { cell_id: cellId, block, capacity: 2, security_level: 'Low' } });
    expect(res.status(), await res.text()).toBe(200);
  }
  await api.dispose();
});

test.afterAll(async () => {
  await stopOwnServer(server, dataDir);
  await oidc?.close();
});

test.use({ baseURL: base });

/** The provider's development pages: its login form (any password), then its consent, when it asks. */
async function logInAtProvider(page: Page, login: string) {
  await page.waitForURL((url) => url.origin === oidc.issuer);
  await page.getByPlaceholder('Enter any login').fill(login);
  await page.getByPlaceholder('and password').fill('any password');
  await page.getByRole('button', { name: 'Sign-in' }).click();
  await page.getByRole('button', { name: 'Continue' }).click();
}

test('an OpenID login creates an officer account with the blocks of the claims and lands on / logged in', async ({ page }) => {
  oidc.accounts.set('sub-olivia', { preferred_username: 'olivia.officer', name: 'Olivia Officer', role: 'officer', blocks: ['A'] });
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto('/login');
  await page.getByRole('link', { name: SSO_BUTTON_LABEL }).click();
  await logInAtProvider(page, 'sub-olivia');

  await expect(page).toHaveURL(`${base}/`);
  await expect(page.getByTestId('admin-name')).toHaveText('Olivia Officer');
  // The session the browser holds is the new officer's, with the blocks of the claims.
  const session = await page.request.get('/api/v1/admin/verify-token');
  expect(session.status()).toBe(200);
  expect(await session.json()).toMatchObject({ username: 'olivia.officer', role: 'officer', blocks: ['A'] });
});

test('a provider account without a role comes back to /login with the reason, logged out', async ({ page }) => {
  oidc.accounts.set('sub-nobody', { preferred_username: 'no.role.here', name: 'No Role' });
  await page.goto('/login');
  await page.getByRole('link', { name: SSO_BUTTON_LABEL }).click();
  await logInAtProvider(page, 'sub-nobody');

  await expect(page).toHaveURL(`${base}/login?sso=no_role`);
  await expect(page.getByTestId('login-error')).toHaveText(SSO_REFUSALS.no_role);
  await expect(page.getByRole('link', { name: SSO_BUTTON_LABEL })).toBeVisible();
  await expectNoViolations(page, '/login with single sign-on and its refusal');
  expect((await page.request.get('/api/v1/admin/verify-token')).status()).toBe(401);
});

test('a server without OIDC_ISSUER shows no single sign-on button', async ({ page }) => {
  // Only once the page has heard the server's answer does the missing button mean anything.
  const answered = page.waitForResponse((res) => res.url().endsWith('/api/v1/auth/oidc'));
  await page.goto(`http://localhost:${sharedPort}/login`);
  expect(await (await answered).json()).toEqual({ enabled: false });
  await expect(page.getByRole('form', { name: 'Login' }).getByRole('button', { name: 'Login' })).toBeVisible();
  await expect(page.getByRole('link', { name: SSO_BUTTON_LABEL })).toHaveCount(0);
});
