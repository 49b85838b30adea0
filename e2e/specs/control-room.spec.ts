// The control room under pressure (decision 105): with six open Criticals and a toast at 1440x900 the live map keeps
// at least 60 % of the window (the Critical bar shows two rows and "N more", the toast floats over the map's corner,
// no footer); with escalation off a Critical past the delay says nobody outside has been told; after a reload with
// autoplay refused the top bar says the sound is blocked and its button turns it on. A server of its own (E2E_PORT +
// 46, + 47 for OsmAnd): the open Criticals are this spec's, and escalation is off with a 1 s delay.
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from '@playwright/test';
import { chromiumLaunchOptions } from '../../scripts/chromium.mjs';
import { expect, loginThroughApi, test, unique } from '../fixtures';
import { spawnOwnServer, stopOwnServer, waitReady } from '../own-server';

// +36 and +37: free beside the other specs' servers in both shards (the second shard's +46 would be 3306, MariaDB's).
const port = Number(process.env.E2E_PORT ?? 3210) + 36;
const base = `http://localhost:${port}`;
let server: ChildProcess | undefined;
let dataDir = '';

test.beforeAll(async () => {
  test.setTimeout(150_000);
  dataDir = mkdtempSync(path.join(tmpdir(), 'prison-e2e-control-room-'));
  server = spawnOwnServer(port, dataDir, { ESCALATE_AFTER_SECONDS: '1' });
  await waitReady(base, server);
});

test.afterAll(async () => {
  await stopOwnServer(server, dataDir, 10_000);
});

test.use({ baseURL: base });

test('six open Criticals and a toast at 1440x900: the live map keeps 60 % of the window; nobody outside has been told', async ({
  adminPage: page,
  api,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  const tag = unique('Pressure ');
  for (let n = 1; n <= 6; n++) {
    const res = await api.post('/api/v1/alert/all', { data: { alert_type: 'Critical', details: `${tag} SOS ${n}` } });
    expect(res.status(), await res.text()).toBe(201);
  }
  await page.goto('/live-map');
  const bar = page.getByTestId('critical-alert-bar');
  await expect(bar).toContainText('6 open Critical alerts');
  // Two rows, the rest behind "4 more".
  await expect(bar.getByTestId('critical-alert')).toHaveCount(2);
  await expect(bar.getByTestId('critical-bar-more')).toHaveText('4 more');
  // Escalation is off (no channel) and the delay is 1 s: each says so, at the bar's next tick (every 15 s).
  await expect(bar.getByTestId('critical-alert').first().getByTestId('nobody-told')).toHaveText(
    'nobody outside the control room has been told',
    { timeout: 20_000 },
  );

  // A toast arrives while the map is shown: it floats over the map's corner and takes none of its rows.
  const res = await api.post('/api/v1/alert/all', { data: { alert_type: 'Warning', details: `${tag} warning` } });
  expect(res.status(), await res.text()).toBe(201);
  const toast = page.getByTestId('alert-toast');
  await expect(toast).toContainText(`${tag} warning`);
  await expect(page.getByTestId('toast-area')).toHaveAttribute('data-floating', 'true');

  const map = page.getByTestId('live-map');
  const mapBox = (await map.boundingBox())!;
  expect(mapBox.height, `map height ${mapBox.height} of 900`).toBeGreaterThanOrEqual(0.6 * 900);
  const toastBox = (await toast.boundingBox())!;
  expect(toastBox.y + toastBox.height).toBeLessThanOrEqual(mapBox.y + mapBox.height);
  expect(toastBox.y).toBeGreaterThanOrEqual(mapBox.y);
  // No footer for a logged-in account.
  await expect(page.getByRole('link', { name: 'Privacy Policy' })).toHaveCount(0);

  // "4 more" opens the full list.
  await bar.getByTestId('critical-bar-more').click();
  await expect(bar.getByTestId('critical-alert')).toHaveCount(6);
  await bar.getByRole('button', { name: 'Show fewer' }).click();
  await expect(bar.getByTestId('critical-alert')).toHaveCount(2);
});

test('after a reload with autoplay refused the top bar says the sound is blocked; "Turn sound on" turns it on', async () => {
  // A browser of its own: the policy is a launch flag, and the run's browser allows autoplay.
  const options = chromiumLaunchOptions();
  const browser = await chromium.launch({
    ...options,
    args: [...options.args, '--autoplay-policy=document-user-activation-required'],
  });
  try {
    const context = await browser.newContext({ baseURL: base, viewport: { width: 1440, height: 900 } });
    await loginThroughApi(context.request);
    const page = await context.newPage();
    // Playwright's own page evaluations (locators, expect) run as a user gesture, which would let the sound start:
    // the page is read through CDP without one, and the only gesture is the click on the button.
    const cdp = await context.newCDPSession(page);
    const read = async <T>(expression: string): Promise<T> =>
      ((await cdp.send('Runtime.evaluate', { expression, returnByValue: true, userGesture: false })).result.value as T);
    const noticeBox = `(() => { const n = document.querySelector('[data-testid="sound-blocked"]'); if (!n) return null;
      const b = n.querySelector('button').getBoundingClientRect(); return { text: n.textContent, x: b.x + b.width / 2, y: b.y + b.height / 2 }; })()`;
    await page.goto('/cell-assign');
    await page.reload();
    let notice: { text: string; x: number; y: number } | null = null;
    await expect.poll(async () => (notice = await read<typeof notice>(noticeBox)) !== null, { timeout: 15_000 }).toBe(true);
    expect(notice!.text).toContain('The browser is blocking the Critical alert sound');
    expect(notice!.text).toContain('Turn sound on');
    await page.mouse.click(notice!.x, notice!.y);
    await expect.poll(() => read(noticeBox), { timeout: 10_000 }).toBeNull();
    await context.close();
  } finally {
    await browser.close();
  }
});
