// The alerts screen for work (issue 11, item 5; docs/decisions/024): the filters come from the URL the home page
// links to, the list comes before the 30-day chart, open Critical alerts are pinned on top, a card links to the
// prisoner and to the map, and a resolved card does not look like a new one.
import { expect, test, unique } from '../fixtures';
import { seedTrackedPrisoner } from './records-helpers';

test('the alerts screen reads its filters from the URL, lists before the chart and links a card to the prisoner and the map', async ({
  adminPage: page,
  api,
}) => {
  const prisoner = await seedTrackedPrisoner(api, { first_name: unique('Alert'), last_name: 'Screen' });

  const tag = unique('scr');
  const post = async (alert_type: string, details: string) => {
    const res = await api.post('/api/v1/alert/all', { data: { device_id: prisoner.deviceId, alert_type, details } });
    expect([200, 201], await res.text()).toContain(res.status());
    return (await res.json()) as { id: number };
  };
  const critical = await post('Critical', `${tag} critical`);
  // Newer than the Critical one, so without pinning it would come first.
  await post('Warning', `${tag} warning`);

  // The home page's overview links open the screen already filtered.
  await page.goto('/allAlerts?alert_type=Critical');
  await expect(page.getByLabel('Type')).toHaveValue('Critical');
  const cards = page.getByTestId('alert-card');
  await expect(cards.filter({ hasText: `${tag} critical` })).toBeVisible();
  await expect(cards.filter({ hasText: `${tag} warning` })).toHaveCount(0);
  const types = await cards.evaluateAll((all) => all.map((card) => card.getAttribute('data-alert-type')));
  expect(types.length).toBeGreaterThan(0);
  expect(new Set(types)).toEqual(new Set(['Critical']));

  // Changing a filter keeps it in the URL.
  await page.getByLabel('Status').selectOption('New');
  await expect(page).toHaveURL(/[?&]alert_type=Critical/);
  await expect(page).toHaveURL(/[?&]status=New/);

  // The list comes before the chart.
  const listBeforeChart = await page.evaluate(() => {
    const list = document.querySelector('[aria-label="Alerts"]');
    const chart = document.querySelector('[data-testid="alerts-chart"]');
    return Boolean(list && chart && list.compareDocumentPosition(chart) & Node.DOCUMENT_POSITION_FOLLOWING);
  });
  expect(listBeforeChart).toBe(true);

  // The card links to the prisoner's details and to the live map centred on the tracker.
  const card = cards.filter({ hasText: `${tag} critical` });
  await expect(card.getByRole('link', { name: `${prisoner.first_name} Screen` })).toHaveAttribute(
    'href',
    `/prisoner-details/${prisoner.prisoner_id}`,
  );
  await expect(card.getByRole('link', { name: 'Show on map' })).toHaveAttribute(
    'href',
    `/live-map?device=${encodeURIComponent(prisoner.deviceId)}`,
  );

  // Unfiltered, the open Critical alert is pinned above the newer Warning.
  await page.goto('/allAlerts');
  await expect(cards.filter({ hasText: `${tag} critical` })).toHaveAttribute('data-pinned', 'true');
  const order = await cards.evaluateAll((all) => all.map((c) => c.textContent ?? ''));
  const criticalAt = order.findIndex((text) => text.includes(`${tag} critical`));
  const warningAt = order.findIndex((text) => text.includes(`${tag} warning`));
  expect(criticalAt).toBeGreaterThanOrEqual(0);
  expect(warningAt === -1 || criticalAt < warningAt).toBe(true);
  await expect(cards.filter({ hasText: `${tag} critical` })).toHaveAttribute('data-pinned', 'true');

  // Resolved, it is no longer pinned and is drawn apart from new cards.
  const resolved = await api.post(`/api/v1/alert/${critical.id}/resolve`, { data: {} });
  expect(resolved.status(), await resolved.text()).toBe(200);
  await page.reload();
  const done = cards.filter({ hasText: `${tag} critical` });
  await expect(done).toHaveAttribute('data-status', 'Resolved');
  await expect(done).not.toHaveAttribute('data-pinned', 'true');
  await expect(done).toHaveClass(/bg-slate-100/);
});
