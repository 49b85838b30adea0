// Fixtures: an API client logged in through the real login route, and a browser page logged in the same way.
import { test as base, expect, type APIRequestContext, type Browser, type Page } from '@playwright/test';
import { E2E_ADMIN, E2E_APPROVER } from './playwright.config';

export { expect };
export { E2E_ADMIN, E2E_APPROVER };

export async function loginThroughApi(request: APIRequestContext, username = E2E_ADMIN.username, password = E2E_ADMIN.password) {
  const res = await request.post('/api/v1/admin/login', { data: { username, password } });
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()) as { token: string };
}

/**
 * The login form's own button. The header has a "Login" button too, and it is the only one until the lazily loaded
 * login page has rendered: a bare `getByRole('button', { name: 'Login' }).last()` could click the header's.
 */
export const loginButton = (page: Page) => page.getByRole('form', { name: 'Login' }).getByRole('button', { name: 'Login' });

/**
 * Logs in through the login screen, as a person does (the page is left where the login lands). `loginUrl`: the login
 * screen of a server of the spec's own (`${base}/login`).
 */
export async function loginThroughForm(page: Page, username = E2E_ADMIN.username, password = E2E_ADMIN.password, loginUrl = '/login') {
  await page.goto(loginUrl);
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(password);
  await loginButton(page).click();
}

/** Uniquely-named test data, so specs never depend on each other's rows. */
export function unique(prefix: string): string {
  return `${prefix}${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
}

/**
 * The first login of an account another administrator created (or whose password was reset): it must choose its own
 * password before anything else (decision 054). Logs `request` in with the given password and changes it to `chosen`.
 */
export async function chooseOwnPassword(request: APIRequestContext, username: string, given: string, chosen: string) {
  const login = await loginThroughApi(request, username, given);
  expect((login as { passwordChangeRequired?: boolean }).passwordChangeRequired, 'a given password must be changed').toBe(true);
  const changed = await request.post('/api/v1/profile/password', { data: { current_password: given, new_password: chosen } });
  expect(changed.status(), await changed.text()).toBe(200);
}

/**
 * An account created by an administrator through the API, whose first login has already chosen its own password
 * (answered as `password`); `fields` may add role and blocks.
 */
export async function createReadyAccount(
  api: APIRequestContext,
  playwright: { request: { newContext(options: { baseURL?: string }): Promise<APIRequestContext> } },
  baseURL: string | undefined,
  data: { username: string; name: string; password: string } & Record<string, unknown>,
) {
  const given = `given ${data.password}`;
  const res = await api.post('/api/v1/admins', { data: { ...data, password: given } });
  expect([200, 202], await res.text()).toContain(res.status());
  const request = await playwright.request.newContext({ baseURL });
  await approveNewAdministrator(playwright, baseURL, res);
  await chooseOwnPassword(request, data.username, given, data.password);
  // That first session ends here, so the account's sessions are only those the test opens.
  expect((await request.post('/api/v1/admin/logout')).status()).toBe(200);
  await request.dispose();
  return { username: data.username, password: data.password, name: data.name, id: ((await res.json()) as { id: number }).id };
}

/** A tracker's walk through the batch endpoint: `fixes` fixes one minute apart from `start` (ms), northwards. */
export async function walkTracker(api: APIRequestContext, device: { id: string; secret: string }, start: number, fixes: number) {
  const positions = Array.from({ length: fixes }, (_, i) => ({
    device_id: device.id,
    secret: device.secret,
    latitude: 51.51 + i * 0.0002,
    longitude: -0.1,
    timestamp: new Date(start + i * 60_000).toISOString(),
  }));
  expect((await api.post('/api/v1/ingest/positions', { data: { positions } })).status()).toBe(200);
}

/** A wing officer of one block, made through the API, signed in on a phone-sized page of his own (390x844). */
export async function wingOfficerOnPhone(
  { api, playwright, baseURL, browser }: { api: APIRequestContext; playwright: Parameters<typeof createReadyAccount>[1]; baseURL: string | undefined; browser: Browser },
  block: string,
  account: { username: string; name: string; password: string },
) {
  const officer = await createReadyAccount(api, playwright, baseURL, { ...account, role: 'officer', blocks: [block] });
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  const login = await page.request.post('/api/v1/admin/login', { data: { username: officer.username, password: officer.password } });
  expect(login.status(), await login.text()).toBe(200);
  return { officer, context, page };
}

/**
 * A new administrator made through the API (answered 202) takes effect when a second administrator approves it
 * (decision 091): the run's approver does. Nothing for any other account.
 */
export async function approveNewAdministrator(
  playwright: Parameters<typeof createReadyAccount>[1],
  baseURL: string | undefined,
  created: { status(): number; json(): Promise<unknown> },
) {
  if (created.status() !== 202) return;
  const { pending } = (await created.json()) as { pending: { id: number } };
  const approver = await playwright.request.newContext({ baseURL });
  await loginThroughApi(approver, E2E_APPROVER.username, E2E_APPROVER.password);
  const approved = await approver.post(`/api/v1/pending-changes/${pending.id}/approve`, { data: {} });
  expect(approved.status(), await approved.text()).toBe(200);
  await approver.dispose();
}

/**
 * Deletes a geofence as two administrators do: asked with a reason by `api`, approved by `secondApi` (decision 041).
 * For the clean-up after a test: a zone left behind would raise alerts in other specs.
 */
export async function deleteGeofenceApproved(api: APIRequestContext, secondApi: APIRequestContext, geofenceId: string) {
  const asked = await api.delete(`/api/v1/geofence/delete/${encodeURIComponent(geofenceId)}`, {
    data: { reason: 'Clean-up after an end-to-end test' },
  });
  if (asked.status() !== 202) return;
  const { pending } = (await asked.json()) as { pending: { id: number } };
  const approved = await secondApi.post(`/api/v1/pending-changes/${pending.id}/approve`, { data: {} });
  expect(approved.status(), await approved.text()).toBe(200);
}

/** Approves, as `secondApi`, the change pending for a geofence or pair (decision 041). */
export async function approvePendingChange(secondApi: APIRequestContext, targetId: string) {
  const list = await secondApi.get(`/api/v1/pending-changes?target_id=${encodeURIComponent(targetId)}`);
  const [pending] = ((await list.json()) as { data: { id: number }[] }).data;
  expect(pending, `a change pending for ${targetId}`).toBeDefined();
  const approved = await secondApi.post(`/api/v1/pending-changes/${pending!.id}/approve`, { data: {} });
  expect(approved.status(), await approved.text()).toBe(200);
}

export const test = base.extend<{ api: APIRequestContext; secondApi: APIRequestContext; adminPage: Page }>({
  api: async ({ playwright, baseURL }, use) => {
    const request = await playwright.request.newContext({ baseURL });
    await loginThroughApi(request);
    await use(request);
    await request.dispose();
  },
  // The second person (decision 041): the run's approver, an administrator the e2e admin did not make (decision 091).
  secondApi: async ({ playwright, baseURL }, use) => {
    const request = await playwright.request.newContext({ baseURL });
    await loginThroughApi(request, E2E_APPROVER.username, E2E_APPROVER.password);
    await use(request);
    await request.dispose();
  },
  adminPage: async ({ page, context }, use) => {
    await loginThroughApi(context.request);
    await use(page);
  },
});
