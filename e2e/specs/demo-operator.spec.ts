// The operator's check on the demo itself (decisions 040 and 044): a server of this spec's own runs the demo
// (seeded records, geofences, the simulator walking trackers through OsmAnd with their secrets, DEVICE_SECRET_REQUIRED
// on). After login the operator lands on the overview, which shows no red for Informational zones; in 60 s of the
// demo raising alerts (the yard's Informational dwell alerts, plus one posted here) no Informational toast appears,
// while a Critical one does; at 390 px two open Criticals take one line. The demo's accounts: one per
// role with the published passwords, not asked to change them.
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { request as playwrightRequest, type APIRequestContext } from '@playwright/test';
import { expect, loginThroughApi, loginThroughForm, test, unique } from '../fixtures';
import { spawnOwnServer, stopOwnServer, waitReady } from '../own-server';
import { colours, isRed } from './severity-colours';
import { DEMO_ACCOUNTS } from '../../apps/server/src/seed/demo-accounts';

const port = Number(process.env.E2E_PORT ?? 3210) + 12;
const base = `http://localhost:${port}`;
let server: ChildProcess;
let dataDir: string;
let api: APIRequestContext;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  dataDir = mkdtempSync(path.join(tmpdir(), 'prison-e2e-demo-'));
  server = spawnOwnServer(port, dataDir, { DEMO: 'true', DEVICE_SECRET_REQUIRED: 'true', SIMULATOR_DEVICES: '60' });
  await waitReady(base, server);
  api = await playwrightRequest.newContext({ baseURL: base });
  await loginThroughApi(api);
});

test.afterAll(async () => {
  await api?.dispose();
  await stopOwnServer(server, dataDir);
});

test.use({ baseURL: base });

async function countAlerts(level: string): Promise<number> {
  const res = await api.get('/api/v1/alert/prisoneralerts', { params: { alert_type: level, limit: 1 } });
  expect(res.status(), await res.text()).toBe(200);
  return ((await res.json()) as { totalAlerts: number }).totalAlerts;
}

test('the demo: login lands on the overview with no red for Informational zones; no Informational toast in 60 s; two Criticals take one line at 390 px', async ({
  page,
}) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await loginThroughForm(page);
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByTestId('operations-overview')).toBeVisible();

  // The demo's trackers report through OsmAnd with their secrets: the roll fills in.
  await expect
    .poll(
      async () =>
        ((await (await api.get('/api/v1/overview')).json()) as { prison: { tracked: number } }).prison?.tracked ?? 0,
      { timeout: 60_000 },
    )
    .toBeGreaterThan(0);

  // 60 s of the demo: Informational alerts are raised (the yard's dwell alerts, and one posted here), none is toasted.
  const informationalBefore = await countAlerts('Informational');
  let informationalToasts = 0;
  await page.exposeFunction('informationalToastSeen', () => void informationalToasts++);
  await page.evaluate(() => {
    new MutationObserver(() => {
      for (const toast of Array.from(
        document.querySelectorAll('[data-testid="alert-toast"][data-alert-type="Informational"]'),
      )) {
        if (!toast.hasAttribute('data-counted')) {
          toast.setAttribute('data-counted', '');
          void (window as unknown as { informationalToastSeen: () => void }).informationalToastSeen();
        }
      }
    }).observe(document.body, { subtree: true, childList: true, attributes: true });
  });
  const posted = await api.post('/api/v1/alert/all', {
    data: { alert_type: 'Informational', details: unique('Demo check informational ') },
  });
  expect(posted.status(), await posted.text()).toBe(201);
  const watchedUntil = Date.now() + 60_000;

  // Meanwhile the overview: nothing about an Informational zone or alert is red.
  for (const colour of await colours(page.getByTestId('open-alerts-Informational')))
    expect(isRed(colour), `Informational count: ${colour}`).toBe(false);
  for (const colour of await colours(page.locator('td[data-field="in_zone"], td[data-field="in_zone"] a')))
    expect(isRed(colour), `in zone: ${colour}`).toBe(false);

  await page.waitForTimeout(Math.max(0, watchedUntil - Date.now()));
  expect(await countAlerts('Informational'), 'the demo raised Informational alerts in the minute').toBeGreaterThan(
    informationalBefore,
  );
  expect(informationalToasts, 'Informational toasts in 60 s').toBe(0);

  // A Critical still toasts (the toasts work; Informational ones are held back by choice).
  const criticals = [unique('Demo check critical A '), unique('Demo check critical B ')];
  for (const details of criticals) {
    const res = await api.post('/api/v1/alert/all', { data: { alert_type: 'Critical', details } });
    expect(res.status(), await res.text()).toBe(201);
  }
  await expect(page.getByTestId('alert-toast').first()).toHaveAttribute('data-alert-type', 'Critical');

  // At 390 px the open Criticals (at least these two) take one line.
  await page.setViewportSize({ width: 390, height: 844 });
  const bar = page.getByTestId('critical-alert-bar');
  await expect(bar.getByTestId('critical-bar-short')).toHaveText(/^\d+ open Criticals$/);
  expect((await bar.boundingBox())!.height, 'the Critical bar on a phone').toBeLessThan(56);
});

test("the demo's accounts: one per role with the README's passwords, kept; a wing officer's screens name the role", async ({
  page,
}) => {
  // They are seeded after the server listens, with the demo records.
  for (const account of DEMO_ACCOUNTS) {
    const login = async () =>
      (await api.post('/api/v1/admin/login', { data: { username: account.username, password: account.password } })).status();
    await expect.poll(login, { timeout: 60_000, message: account.username }).toBe(200);
    const res = await api.post('/api/v1/admin/login', { data: { username: account.username, password: account.password } });
    expect(await res.json()).toMatchObject({ role: account.role, blocks: account.blocks, passwordChangeRequired: false });
  }
  await loginThroughApi(api);
  const officer = DEMO_ACCOUNTS.find((a) => a.role === 'officer')!;
  await page.setViewportSize({ width: 1440, height: 900 });
  await loginThroughForm(page, officer.username, officer.password);
  await expect(page.getByTestId('admin-role')).toHaveText('Wing officer');
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Live Map' })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Audit' })).toHaveCount(0);
});
