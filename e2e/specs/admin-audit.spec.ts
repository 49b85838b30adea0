// The audit trail: an alert acknowledged and resolved shows up with who, what and the before/after diff, and the
// filtered trail downloads as CSV with the chain's state. (Acknowledge/resolve run through the API here; the alerts
// screen mounts the buttons separately.)
import { readFile } from 'node:fs/promises';
import { expect, test, unique } from '../fixtures';

test('acknowledging and resolving an alert is on the audit trail', async ({ adminPage: page, api }) => {
  const details = `Audit trail ${unique('a')}`;
  const created = await api.post('/api/v1/alert/all', { data: { alert_type: 'Critical', details } });
  expect([200, 201], await created.text()).toContain(created.status());
  const alert = (await created.json()) as { id: number };
  expect(
    (await api.post(`/api/v1/alert/${alert.id}/acknowledge`, { data: { note: 'Guard on the way' } })).status(),
  ).toBe(200);
  expect((await api.post(`/api/v1/alert/${alert.id}/resolve`, { data: { note: 'Back in cell' } })).status()).toBe(200);

  await page.goto('/audit');
  await expect(page.getByRole('heading', { name: 'Audit trail' })).toBeVisible();
  await page.getByLabel('Entity').fill('alert');
  await page.getByRole('button', { name: 'Apply Filters' }).click();
  const rowsOf = (action: string) =>
    page.locator(
      `[data-testid="audit-row"][data-entity="alert"][data-entity-id="${alert.id}"][data-action="${action}"]`,
    );
  await expect(rowsOf('acknowledge')).toHaveCount(1);
  const resolved = rowsOf('resolve');
  await expect(resolved).toHaveCount(1);
  await expect(resolved).toContainText('e2e-admin');
  await expect(resolved).toContainText('UTC');
  await resolved.getByRole('button', { name: 'Show changes' }).click();
  const changes = page.getByRole('table', { name: 'Changes' });
  await expect(changes).toContainText('Acknowledged');
  await expect(changes).toContainText('Resolved');
  await expect(changes).toContainText('Back in cell');

  // Filter by action prefix and by who.
  await page.getByLabel('Action').fill('acknowledge');
  await page.getByLabel('Who').fill('e2e-admin');
  await page.getByRole('button', { name: 'Apply Filters' }).click();
  await expect(rowsOf('acknowledge')).toHaveCount(1);
  await expect(page.locator('[data-testid="audit-row"]:not([data-action="acknowledge"])')).toHaveCount(0);

  // The filtered trail as a file an inspector takes away: the entries shown, each with its hash, and the chain intact.
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Export CSV' }).click()]);
  expect(download.suggestedFilename()).toMatch(/^audit-trail-\d{4}-\d{2}-\d{2}\.csv$/);
  const csv = await readFile((await download.path())!, 'utf8');
  expect(csv).toContain('Chain,intact');
  expect(csv).toContain('action=acknowledge; actor=e2e-admin');
  expect(csv).toMatch(new RegExp(`,e2e-admin,[^\\n]*,acknowledge,alert,${alert.id},[^\\n]*,[0-9a-f]{64}\\n`));

  // No API changes or deletes an entry.
  expect((await api.delete('/api/v1/audit')).status()).toBe(404);
  expect((await api.put('/api/v1/audit', { data: {} })).status()).toBe(404);
});
