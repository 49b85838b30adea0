// The management lists end to end: server search as you type, filters, pagination over more than 20 rows.
import { expect, test, unique } from '../fixtures';
import { seedPrisoner } from './records-helpers';

test('page through 25 prisoners: Page X of Y, Previous and Next', async ({ adminPage: page, api }) => {
  const lastName = unique('Page');
  for (let i = 0; i < 25; i++)
    await seedPrisoner(api, {
      first_name: `P${String(i).padStart(2, '0')}`,
      last_name: lastName,
      status: 'Incarcerated',
    });

  await page.goto('/dashboard');
  await expect(page.getByRole('tab', { name: /Prisoners/ }).getByTestId('count-badge')).not.toHaveText('…');
  await page.getByPlaceholder('Search prisoner').fill(lastName);
  const rows = page.getByRole('table', { name: 'Prisoners' }).locator('tbody tr');
  const pages = page.getByRole('navigation', { name: 'Prisoner pages' });
  await expect(pages).toContainText('Page 1 of 2');
  await expect(rows).toHaveCount(20);
  await expect(pages.getByRole('button', { name: 'Previous' })).toBeDisabled();
  await pages.getByRole('button', { name: 'Next' }).click();
  await expect(pages).toContainText('Page 2 of 2');
  await expect(rows).toHaveCount(5);
  await expect(pages.getByRole('button', { name: 'Next' })).toBeDisabled();
  await pages.getByRole('button', { name: 'Previous' }).click();
  await expect(pages).toContainText('Page 1 of 2');
  await expect(rows).toHaveCount(20);
});

test('search and filter prisoners on the server, then clear the filters', async ({ adminPage: page, api }) => {
  const lastName = unique('Filt');
  await seedPrisoner(api, { first_name: 'Ines', last_name: lastName, status: 'Released' });
  await seedPrisoner(api, { first_name: 'Jonas', last_name: lastName, status: 'Incarcerated' });
  await seedPrisoner(api, { first_name: 'Karim', last_name: lastName, status: 'On Trial' });

  await page.goto('/dashboard');
  await page.getByPlaceholder('Search prisoner').fill(lastName);
  const rows = page.getByRole('table', { name: 'Prisoners' }).locator('tbody tr');
  await expect(rows).toHaveCount(3);
  await expect(rows.filter({ hasText: 'Karim' }).getByTestId('status-badge')).toHaveClass(/yellow/);
  await expect(rows.filter({ hasText: 'Ines' }).getByTestId('status-badge')).toHaveClass(/green/);
  await expect(rows.filter({ hasText: 'Jonas' }).getByTestId('status-badge')).toHaveClass(/red/);

  await page.getByRole('button', { name: 'Filter', exact: true }).click();
  const filters = page.getByRole('form', { name: 'Filters' });
  await filters.getByLabel('Status').selectOption('Released');
  await filters.getByRole('button', { name: 'Apply Filters' }).click();
  await expect(rows).toHaveCount(1);
  await expect(rows).toContainText('Ines');

  await filters.getByRole('button', { name: 'Clear Filters' }).click();
  await expect(rows).toHaveCount(3);
  await page.getByPlaceholder('Search prisoner').fill('');
  await filters.getByLabel('Last name').fill(lastName);
  await filters.getByLabel('First name').fill('Jon');
  await filters.getByRole('button', { name: 'Apply Filters' }).click();
  await expect(rows).toHaveCount(1);
  await expect(rows).toContainText('Jonas');

  await page.getByRole('button', { name: 'Filter', exact: true }).click();
  await expect(filters).toBeHidden();
  await page.getByPlaceholder('Search prisoner').fill(`${lastName}-nobody`);
  await expect(page.getByText('No prisoners match the search and filters.')).toBeVisible();
});
