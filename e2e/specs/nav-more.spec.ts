// The desktop menu's "More": a plain button on the first page whose dropdown loads at the first press, then opens at
// once, is worked by keyboard and takes the operator to the screen chosen.
import { expect, test } from '../fixtures';

test.use({ viewport: { width: 1440, height: 900 } });

test('More opens its menu at the first press and a menu item opens its screen', async ({ adminPage: page }) => {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto('/');
  // Exactly "More": the Critical bar's "N more" is another button, there whenever more Criticals are open than it lists.
  const more = page.getByRole('button', { name: 'More', exact: true });
  await expect(more).toHaveAttribute('aria-expanded', 'false');
  await more.click();
  const items = page.getByRole('menuitem');
  await expect(items.first()).toBeVisible();
  await expect(more).toHaveAttribute('aria-expanded', 'true');

  // Escape closes it and gives the focus back to the button; Enter opens it again.
  await page.keyboard.press('Escape');
  await expect(items).toHaveCount(0);
  await expect(more).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(items.first()).toBeVisible();

  const target = await items.first().getAttribute('href');
  expect(target).toBeTruthy();
  await items.first().click();
  await expect(page).toHaveURL(new RegExp(`${target!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`));
  expect(errors).toEqual([]);
});
