// Observation checks: on a phone (390 px), the block's due screen turns a prisoner overdue while it
// is watched (his own interval of 1 minute: due within 40-60 s of his last check, staggered) and the overdue Warning is
// raised; recording the check in the dialog clears it. Real server, real Chromium.
import { expect, test, unique } from '../fixtures';
import { expectNoViolations } from './axe';
import { seedCell, seedPrisoner } from './records-helpers';

test('the due screen turns a prisoner overdue while watched, and recording the check clears it', async ({ adminPage: page, api }) => {
  test.setTimeout(240_000);
  const { block, cellId } = await seedCell(api);
  const prisoner = await seedPrisoner(api, { first_name: unique('Olive'), last_name: 'Watch', status: 'Incarcerated', cell_id: cellId });
  const set = await api.put(`/api/v1/prisoners/${prisoner.prisoner_id}/observation`, {
    data: { level: 'high', interval_minutes: 1, reason: 'Self-harm risk assessed today' },
  });
  expect(set.status(), await set.text()).toBe(200);
  const first = await api.post('/api/v1/observations', { data: { prisoner_id: prisoner.prisoner_id, observed: 'Sitting on the bed, calm' } });
  expect(first.status(), await first.text()).toBe(201);

  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/observations?block=${encodeURIComponent(block)}`);
  await expect(page.getByRole('heading', { name: 'Observation checks' })).toBeVisible();
  const row = page.getByTestId('due-row').filter({ hasText: prisoner.first_name });
  await expect(page.getByTestId('due-cell').filter({ has: row })).toContainText(`Cell ${cellId}`);
  await expect(row).toContainText('High, every 1 min');
  await expect(row).not.toHaveAttribute('data-state', 'overdue');
  await expect(page.getByText('updated at')).toBeVisible();
  await expectNoViolations(page, 'observation checks at 390 px');
  // No sideways scrolling on a phone.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

  // Watched: it turns overdue on its own (at most 60 s after the check).
  await expect(row).toHaveAttribute('data-state', 'overdue', { timeout: 90_000 });
  await expect(row.getByText('Overdue', { exact: true })).toBeVisible();
  await expect(page.getByTestId('overdue-count')).toHaveText('1');
  // The overdue watcher raised the Warning, naming prisoner and cell.
  await expect
    .poll(
      async () => {
        const res = await api.get('/api/v1/alert/recent', { params: { limit: 50 } });
        const { data } = (await res.json()) as { data: { alert_type: string; details: string; prisoner_id: number | null }[] };
        return data.filter((a) => a.prisoner_id === prisoner.prisoner_id).map((a) => `${a.alert_type}: ${a.details}`);
      },
      { timeout: 30_000 },
    )
    .toContain(`Warning: Observation check overdue: ${prisoner.first_name} Watch, cell ${cellId}`);

  await row.getByRole('button', { name: /Record check for/ }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('What you saw').fill('asleep');
  await dialog.getByRole('button', { name: 'Record check' }).click();
  await expect(dialog).toContainText('at least 3 words');
  await dialog.getByLabel('What you saw').fill('Awake, talking calmly at the door');
  await dialog.getByRole('button', { name: 'Record check' }).click();
  await expect(dialog).toBeHidden();
  await expect(row).not.toHaveAttribute('data-state', 'overdue');
  await expect(page.getByTestId('overdue-count')).toHaveText('0');
  await expect(row).toContainText('by e2e');
});
