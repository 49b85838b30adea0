// Fixtures: an API client logged in through the real login route, and a browser page logged in the same way.
import { test as base, expect, type APIRequestContext, type Page } from '@playwright/test';
import { E2E_ADMIN } from './playwright.config';

export { expect };
export { E2E_ADMIN };

export async function loginThroughApi(request: APIRequestContext, username = E2E_ADMIN.username, password = E2E_ADMIN.password) {
  const res = await request.post('/api/v1/admin/login', { data: { username, password } });
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()) as { token: string };
}

/** Uniquely-named test data, so specs never depend on each other's rows. */
export function unique(prefix: string): string {
  return `${prefix}${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
}

export const test = base.extend<{ api: APIRequestContext; adminPage: Page }>({
  api: async ({ playwright, baseURL }, use) => {
    const request = await playwright.request.newContext({ baseURL });
    await loginThroughApi(request);
    await use(request);
    await request.dispose();
  },
  adminPage: async ({ page, context }, use) => {
    await loginThroughApi(context.request);
    await use(page);
  },
});
