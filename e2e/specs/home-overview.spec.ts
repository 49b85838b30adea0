// The operations overview on / for a logged-in admin; visitors keep the spec's landing.
import AxeBuilder from '@axe-core/playwright';
import type { Block, Overview } from '@prison/shared';
import { expect, test, unique } from '../fixtures';

test('a logged-in admin sees a heading and the overview, whose numbers match the API and link to their lists', async ({
  adminPage: page,
  api,
}) => {
  // A block of its own, so the numbers do not move while other specs run: two cells (capacity 5), three prisoners of
  // whom two take a place, one of them with a tracker that has never reported (offline).
  const block = unique('OV').replace(/[^A-Za-z0-9]/g, '');
  for (const [suffix, capacity] of [
    ['1', 3],
    ['2', 2],
  ] as const) {
    const res = await api.post('/api/v1/cell_controls/cells', {
      data: { cell_id: `${block}-${suffix}`, block, capacity, security_level: 'Low' },
    });
    expect(res.status(), await res.text()).toBe(200);
  }
  const prisonerIds: number[] = [];
  for (const [status, cell] of [
    ['Incarcerated', '1'],
    ['On Trial', '2'],
    ['Released', '1'],
  ] as const) {
    const res = await api.post('/api/v1/prisoner/add', {
      data: {
        first_name: 'Roll',
        last_name: `${block}${status.replace(' ', '')}`,
        date_of_birth: '1980-01-01',
        status,
        cell_id: `${block}-${cell}`,
        // A Released prisoner holds no cell by the cell rules (decision 031); the roll must still not count one who does.
        ...(status === 'Released' ? { override_reason: 'Roll test: a released prisoner left in a cell' } : {}),
      },
    });
    expect(res.status(), await res.text()).toBe(200);
    prisonerIds.push((await res.json()).prisoner_id);
  }
  const device = await api.post('/api/v1/devices', { data: { name: `Tracker ${block}`, prisoner_id: prisonerIds[0], kind: 'phone' } });
  expect(device.status(), await device.text()).toBeLessThan(300);

  await page.goto('/');
  // A logged-in account works here: the overview is the page's heading; no visitor's heading, Get Started or footer
  // (decision 105).
  await expect(page.getByRole('heading', { level: 1, name: 'Operations overview' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Prisoner Management and Live Tracking System' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Get Started' })).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Privacy Policy' })).toHaveCount(0);
  // The spec's sections stay, after the overview.
  await expect(page.getByRole('heading', { name: 'Recent Incidents' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Recent Alerts' })).toBeVisible();

  // The block's row: as seeded, as the API answers, and as the cells screen's own count says.
  const row = page.getByTestId(`roll-block-${block}`);
  const cellOf = (field: string) => row.locator(`td[data-field="${field}"]`);
  const expected = { capacity: 5, assigned: 2, tracked: 1, online: 0, offline: 1, in_violation: 0, untracked: 1 };
  for (const [field, value] of Object.entries(expected)) await expect(cellOf(field), field).toHaveText(String(value));
  const overview = (await (await api.get('/api/v1/overview')).json()) as Overview;
  expect(overview.blocks.find((b) => b.block === block)).toMatchObject({ ...expected, cells: 2 });
  const summaries = (await (await api.get('/api/v1/cell_controls/block-summaries')).json()) as { data: Block[] };
  expect(summaries.data.find((b) => b.block === block)).toMatchObject({ capacity: 5, occupants: 2 });
  // The tracker that never reported is listed among the offline ones or counted in their total.
  expect(overview.offline_trackers.total).toBeGreaterThanOrEqual(1);
  await expect(page.getByTestId('offline-trackers').getByRole('link').first()).toBeVisible();

  // Open alerts by level, one per level, each linking to the alerts screen filtered to it.
  for (const level of ['Critical', 'Warning', 'Informational']) {
    await expect(page.getByTestId(`open-alerts-${level}`)).toBeVisible();
  }
  await expect(page.getByTestId('open-alerts-Critical').locator('[data-field="open"]')).toHaveAttribute(
    'href',
    '/allAlerts?alert_type=Critical',
  );

  // axe on the admin's home, then a number leads to its list.
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.length})`)).toEqual([]);
  await cellOf('assigned').getByRole('link').click();
  await expect(page).toHaveURL(/\/cell-assign$/);
  await expect(page.getByTestId(`block-${block}`)).toBeVisible();
});

test('a visitor still gets the landing hero, the footer and no overview', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Prisoner Management and Live Tracking System' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Get Started' })).toBeVisible();
  await expect(page.getByText('© 2024 Prison Control. All rights reserved.')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Privacy Policy' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Terms of Service' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Recent Incidents' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Operations overview' })).toHaveCount(0);
});
