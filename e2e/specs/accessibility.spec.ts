// axe-core checks of the shared layout and the public screens (WCAG 2 A and AA rules).
import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '../fixtures';

for (const path of ['/', '/login']) {
  test(`${path} has no accessibility violations`, async ({ page }) => {
    await page.goto(path);
    await expect(page.getByRole('contentinfo')).toBeVisible();
    const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
    expect(results.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.length})`)).toEqual([]);
  });
}
