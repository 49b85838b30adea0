// The version in the footer of every visitor's page (decision 059): the same version and commit
// /readyz gives, on the landing page and the login page, at 1440 and 390 px; the SPEC footer stays for visitors. A
// logged-in account has no footer (decision 105): its profile names the version.
import { expect, loginThroughForm, test } from '../fixtures';

test('every visitor page names the running version in its footer, the profile after login, as /readyz does', async ({ page, request }) => {
  const ready = (await (await request.get('/readyz')).json()) as { version: string; commit: string };
  expect(ready.version).toMatch(/^\d+\.\d+\.\d+/);
  const text = `Version ${ready.version} (${ready.commit})`;
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto('/');
    await expect(page.getByTestId('app-version')).toHaveText(text);
    await expect(page.getByText('© 2024 Prison Control. All rights reserved.')).toBeVisible();
    await page.goto('/login');
    await expect(page.getByTestId('app-version')).toHaveText(text);
  }
  await page.setViewportSize({ width: 1440, height: 900 });
  await loginThroughForm(page);
  await page.goto('/allAlerts');
  await expect(page.getByRole('link', { name: 'Privacy Policy' })).toHaveCount(0);
  await page.goto('/profile');
  await expect(page.getByTestId('app-version')).toHaveText(text);
});
