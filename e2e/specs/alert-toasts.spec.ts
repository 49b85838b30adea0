// Live alert toasts and the alerts screen taking them in ("Must show"; a Critical first, decision 105). The toast
// queue counts every alert that reaches this browser, so this spec runs on a server of its own (E2E_PORT + 40, + 41
// for its OsmAnd port): on the run's shared server, alerts other specs raise meanwhile join the queue and the counts.
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test, unique } from '../fixtures';
import { spawnOwnServer, stopOwnServer, waitReady } from '../own-server';

const port = Number(process.env.E2E_PORT ?? 3210) + 40;
const base = `http://localhost:${port}`;
let server: ChildProcess | undefined;
let dataDir = '';

test.beforeAll(async () => {
  test.setTimeout(150_000);
  dataDir = mkdtempSync(path.join(tmpdir(), 'prison-e2e-toasts-'));
  server = spawnOwnServer(port, dataDir);
  await waitReady(base, server);
});

test.afterAll(async () => {
  await stopOwnServer(server, dataDir, 10_000);
});

test.use({ baseURL: base });

test('new alerts appear live: toasts queue Critical first with "N more waiting", Dismiss all keeps the Critical, the alerts screen updates, filters apply', async ({
  adminPage: page,
  api,
}) => {
  // Informational toasts are off unless this browser switched them on (decision 040).
  await page.addInitScript(() => localStorage.setItem('prison.informationalToasts', 'on'));
  await page.goto('/alerts');
  await expect(page.getByTestId('alert-counts')).toBeVisible();
  const check = unique('Manual check ');
  const types = ['Warning', 'Critical', 'Informational'] as const;
  for (const [index, alert_type] of types.entries()) {
    const res = await api.post('/api/v1/alert/all', { data: { alert_type, details: `${check} #${index}` } });
    expect(res.status(), await res.text()).toBeLessThan(300);
  }

  // One toast at a time, coloured by level, saying how many wait; ordered by level, then time: the Critical, posted
  // after the Warning, is shown first (decision 105).
  const toast = page.getByTestId('alert-toast');
  await expect(toast).toContainText(`${check} #1`);
  await expect(toast).toHaveAttribute('data-alert-type', 'Critical');
  await expect(page.getByTestId('alert-toast-waiting')).toHaveText('2 more waiting');
  // "Dismiss all" takes the Warning and the Informational, never a Critical unseen.
  await toast.getByRole('button', { name: 'Dismiss all' }).click();
  await expect(toast).toContainText(`${check} #1`);
  await expect(toast).toHaveAttribute('data-alert-type', 'Critical');
  await expect(page.getByTestId('alert-toast-waiting')).toHaveCount(0);
  await toast.getByRole('button', { name: 'Dismiss alert' }).click();
  await expect(toast).toHaveCount(0);

  // The list took them in without a reload: the open Critical pinned on top, then the others newest first.
  const cards = page.getByTestId('alert-card').filter({ hasText: check });
  await expect(cards).toHaveCount(3);
  await expect(cards.first()).toContainText(`${check} #1`);
  await expect(cards.first()).toHaveAttribute('data-pinned', 'true');
  await expect(cards.nth(1)).toContainText(`${check} #2`);
  await expect(cards.nth(1)).toContainText('Prisoner: ');

  await page.getByLabel('Type', { exact: true }).selectOption('Critical');
  await expect(cards).toHaveCount(1);
  await expect(cards.first()).toHaveAttribute('data-alert-type', 'Critical');
  await page.getByLabel('Type', { exact: true }).selectOption('');
  await expect(cards).toHaveCount(3);
  await page.getByLabel('From', { exact: true }).fill('2099-01-01T00:00');
  await expect(page.getByText('No alerts.')).toBeVisible();
});
