// The version in the footer of every page (issue 23 item 4, decision 059): the same version and commit /readyz
// gives, on the landing page, the login page and a page behind the login, at 1440 and 390 px; the SPEC footer stays.
import { expect, loginThroughForm, test } from '../fixtures';

test('every page names the running version in its footer, as /readyz does', async ({ page, request }) => {
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
  await expect(page.getByTestId('app-version')).toHaveText(text);
  await expect(page.getByRole('link', { name: 'Privacy Policy' })).toBeVisible();
});
