// The alerts screen for work (docs/decisions/024): the filters come from the URL the home page
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
  // A Critical is acknowledged (with a note, decision 095) before it is resolved, with a note (decision 040).
  const acknowledged = await api.post(`/api/v1/alert/${critical.id}/acknowledge`, { data: { note: 'Officer on the way' } });
  expect(acknowledged.status(), await acknowledged.text()).toBe(200);
  const resolved = await api.post(`/api/v1/alert/${critical.id}/resolve`, { data: { note: 'Checked, false alarm' } });
  expect(resolved.status(), await resolved.text()).toBe(200);
  await page.reload();
  const done = cards.filter({ hasText: `${tag} critical` });
  await expect(done).toHaveAttribute('data-status', 'Resolved');
  await expect(done).not.toHaveAttribute('data-pinned', 'true');
  await expect(done).toHaveClass(/bg-slate-100/);
});

test("the link of an escalation email or webhook (/alerts?alert=ID, decision 096) marks that alert's card", async ({ adminPage: page, api }) => {
  const prisoner = await seedTrackedPrisoner(api, { first_name: unique('Linked'), last_name: 'Alert' });
  const tag = unique('esc');
  const res = await api.post('/api/v1/alert/all', { data: { device_id: prisoner.deviceId, alert_type: 'Critical', details: `${tag} escalated` } });
  expect([200, 201], await res.text()).toContain(res.status());
  const { id } = (await res.json()) as { id: number };

  await page.goto(`/alerts?alert=${id}`);
  const linked = page.locator('[data-testid="alert-card"][aria-current="true"]');
  await expect(linked).toHaveCount(1);
  await expect(linked).toContainText(`${tag} escalated`);
  await expect(linked).toBeInViewport();
});

test('every count beside the title follows every filter (docs/decisions/029)', async ({ adminPage: page, api }) => {
  const prisoner = await seedTrackedPrisoner(api, { first_name: unique('Count'), last_name: 'Filter' });
  const tag = unique('cnt');
  const post = async (alert_type: string, details: string) => {
    const res = await api.post('/api/v1/alert/all', { data: { device_id: prisoner.deviceId, alert_type, details } });
    expect([200, 201], await res.text()).toContain(res.status());
    return (await res.json()) as { id: number };
  };
  await post('Critical', `${tag} critical`);
  await post('Warning', `${tag} warning open`);
  const handled = await post('Warning', `${tag} warning handled`);
  expect((await api.post(`/api/v1/alert/${handled.id}/acknowledge`, { data: {} })).status()).toBe(200);

  const counts = page.getByTestId('alert-counts');
  const count = async (label: string) =>
    Number((await counts.locator(`[data-count="${label}"] dd`).textContent()) ?? 'NaN');
  /** What the list route itself says for the same filters: the header must agree with the list. The screen shows the
   *  alerts that need action unless "Show" says otherwise: an event (an Informational zone entry) has its own filter. */
  const listTotal = async (query: Record<string, string>, needs_action: 'true' | 'false' | 'all' = 'true') => {
    const shown: Record<string, string> = needs_action === 'all' ? {} : { needs_action };
    const res = await api.get('/api/v1/alert/prisoneralerts', { params: { ...query, ...shown, limit: 1 } });
    expect(res.status(), await res.text()).toBe(200);
    return ((await res.json()) as { totalAlerts: number }).totalAlerts;
  };

  // Type and status filtered: other types and other statuses count nothing, and the type's count is the total.
  await page.goto('/allAlerts?alert_type=Warning&status=New');
  await expect(page.getByTestId('alert-card').filter({ hasText: `${tag} warning open` })).toBeVisible();
  await expect(counts.locator('[data-count="Total"] dd')).toHaveText(String(await listTotal({ alert_type: 'Warning', status: 'New' })));
  const total = await count('Total');
  expect(total).toBeGreaterThan(0);
  expect(await count('Warnings')).toBe(total);
  expect(await count('Critical')).toBe(0);
  expect(await count('Informational')).toBe(0);
  expect(await count('New')).toBe(total);
  expect(await count('Acknowledged')).toBe(0);
  expect(await count('Resolved')).toBe(0);

  // Type alone: the statuses split the type's total, and the acknowledged Warning is among them.
  await page.getByLabel('Status').selectOption('');
  await expect(page).not.toHaveURL(/status=/);
  await expect(page.getByTestId('alert-card').filter({ hasText: `${tag} warning handled` })).toBeVisible();
  await expect(counts.locator('[data-count="Total"] dd')).toHaveText(String(await listTotal({ alert_type: 'Warning' })));
  const typeTotal = await count('Total');
  expect(await count('Warnings')).toBe(typeTotal);
  expect(await count('Critical')).toBe(0);
  expect((await count('New')) + (await count('Acknowledged')) + (await count('Resolved'))).toBe(typeTotal);
  expect(await count('Acknowledged')).toBeGreaterThan(0);

  // No filter: the types add up to the total.
  await page.goto('/allAlerts');
  await expect(counts.locator('[data-count="Total"] dd')).toHaveText(String(await listTotal({})));
  const all = await count('Total');
  expect((await count('Critical')) + (await count('Warnings')) + (await count('Informational'))).toBe(all);
  expect((await count('New')) + (await count('Acknowledged')) + (await count('Resolved'))).toBe(all);

  // The events alone, then everything: the counts follow "Show" too, and the work and the events make everything.
  await page.getByLabel('Show', { exact: true }).selectOption('events');
  await expect(page).toHaveURL(/[?&]show=events/);
  await expect(counts.locator('[data-count="Total"] dd')).toHaveText(String(await listTotal({}, 'false')));
  const events = await count('Total');
  expect(await count('Critical')).toBe(0);
  expect(await count('Warnings')).toBe(0);
  expect(await count('Informational')).toBe(events);
  await page.getByLabel('Show', { exact: true }).selectOption('all');
  await expect(page).toHaveURL(/[?&]show=all/);
  await expect(counts.locator('[data-count="Total"] dd')).toHaveText(String(await listTotal({}, 'all')));
  expect(await count('Total')).toBe(all + events);
  expect((await count('Critical')) + (await count('Warnings')) + (await count('Informational'))).toBe(all + events);
});
