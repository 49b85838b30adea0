// Closing an alarm is deliberate (decision 040): a toast offers Acknowledge and Open only and goes as soon as
// its alert is acknowledged anywhere; Informational alerts are not toasted unless this browser asks; the bulk bar
// leaves Critical alerts out unless ticked one by one; no toast lies over an action of the alerts screen.
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test, unique } from '../fixtures';

type Level = 'Critical' | 'Warning' | 'Informational';

async function raise(api: APIRequestContext, alert_type: Level, details: string, timestamp?: string) {
  const res = await api.post('/api/v1/alert/all', { data: { alert_type, details, ...(timestamp && { timestamp }) } });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()) as { id: number; status: string };
}

async function statusOf(api: APIRequestContext, id: number, timestamp: string) {
  const res = await api.get('/api/v1/alert/prisoneralerts', { params: { from: timestamp, to: timestamp, limit: 100 } });
  const rows = ((await res.json()) as { data: { id: number; status: string }[] }).data;
  return rows.find((row) => row.id === id)?.status;
}

/** Every toast text this page ever showed, even for a moment. */
async function recordToasts(page: Page) {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __toasts: string[] }).__toasts = seen;
    new MutationObserver(() => {
      for (const toast of Array.from(document.querySelectorAll('[data-testid="alert-toast"]'))) {
        const text = toast.textContent ?? '';
        if (!seen.includes(text)) seen.push(text);
      }
    }).observe(document, { childList: true, subtree: true, characterData: true });
  });
  return () => page.evaluate(() => (window as unknown as { __toasts: string[] }).__toasts);
}

/** How long the alerts screen may take to show its first page after a `goto`. */
const FIRST_LOAD_MS = 30_000;

test('a Critical toast offers Acknowledge and Open only, and goes when the alert is acknowledged elsewhere', async ({
  adminPage: page,
  api,
}) => {
  await page.goto('/cell-assign');
  await expect(page.getByRole('heading', { name: 'Assign cells' })).toBeVisible();
  const tag = unique('Toast ');

  const first = await raise(api, 'Critical', `${tag} elsewhere`);
  const toast = page.getByTestId('alert-toast').filter({ hasText: `${tag} elsewhere` });
  await expect(toast).toBeVisible();
  const shownAt = Date.now();
  const buttons = await toast.getByRole('button').allTextContents();
  expect(buttons.map((text) => text.trim())).toEqual(['✕', 'Acknowledge', 'Open']);
  await expect(toast.getByRole('button', { name: 'Resolve' })).toHaveCount(0);

  // `api` is another session: its acknowledgement takes the toast away here, long before its 5 s are up.
  const ack = await api.post(`/api/v1/alert/${first.id}/acknowledge`, { data: { note: 'Taken by the other desk' } });
  expect(ack.status(), await ack.text()).toBe(200);
  await expect(toast).toHaveCount(0, { timeout: 2_500 });
  expect(Date.now() - shownAt).toBeLessThan(4_500);

  // Acknowledged from the toast itself: a Critical asks for a note (decision 095), in a dialog that stays when the
  // toast's 5 s are up; then the alert is Acknowledged with that note, not Resolved.
  const second = await raise(api, 'Critical', `${tag} here`);
  const here = page.getByTestId('alert-toast').filter({ hasText: `${tag} here` });
  await here.getByRole('button', { name: 'Acknowledge' }).click();
  const noteDialog = page.getByRole('dialog', { name: 'Acknowledge alert' });
  await expect(noteDialog.getByTestId('acknowledge-alert-details')).toHaveText(`Critical: ${tag} here`);
  const confirm = noteDialog.getByRole('button', { name: 'Acknowledge' });
  await expect(confirm).toBeDisabled();
  await expect(here).toHaveCount(0, { timeout: 7_000 });
  await expect(noteDialog).toBeVisible();
  await noteDialog.getByLabel('Note (required)').fill('Officer Hale sent to the gate');
  await confirm.click();
  await expect(noteDialog).toHaveCount(0);
  await expect(page.getByText('Alert acknowledged.')).toBeVisible();
  const res = await api.get('/api/v1/alert/recent', { params: { limit: 20 } });
  const recent = (await res.json()) as { data: { id: number; status: string; note: string | null }[] };
  expect(recent.data.find((a) => a.id === second.id)).toMatchObject({
    status: 'Acknowledged',
    note: 'Officer Hale sent to the gate',
  });

  // A Warning is acknowledged from its toast at once, as before: no dialog.
  const warning = await raise(api, 'Warning', `${tag} warning`);
  const routine = page.getByTestId('alert-toast').filter({ hasText: `${tag} warning` });
  await routine.getByRole('button', { name: 'Acknowledge' }).click();
  await expect(routine).toHaveCount(0, { timeout: 2_500 });
  await expect(page.getByRole('dialog')).toHaveCount(0);
  const after = await api.get('/api/v1/alert/recent', { params: { limit: 20 } });
  const warned = ((await after.json()) as { data: { id: number; status: string }[] }).data.find((a) => a.id === warning.id);
  expect(warned?.status).toBe('Acknowledged');

  // Open goes to the alerts screen at the alert's level.
  await raise(api, 'Critical', `${tag} open`);
  await page.getByTestId('alert-toast').filter({ hasText: `${tag} open` }).getByRole('button', { name: 'Open' }).click();
  await expect(page).toHaveURL(/\/allAlerts\?alert_type=Critical&status=New$/);
  await expect(page.getByTestId('alert-card').filter({ hasText: `${tag} open` })).toBeVisible();
});

test('no Informational toast by default; the switch on the alerts screen turns them on for this browser', async ({
  adminPage: page,
  api,
}) => {
  const toasts = await recordToasts(page);
  await page.goto('/allAlerts');
  // The screen's first load: under a loaded CI machine it has taken more than the default 10 s (two CI runs of
  // 2026-11-27); what follows keeps the default.
  await expect(page.getByTestId('alert-counts')).toBeVisible({ timeout: FIRST_LOAD_MS });
  const tag = unique('Routine ');
  const toggle = page.getByRole('switch', { name: 'Show Informational alerts as toasts' });
  await expect(toggle).not.toBeChecked();

  await raise(api, 'Informational', `${tag} headcount`);
  await raise(api, 'Warning', `${tag} warning`);
  // Had the Informational one been queued, it would be on screen first with one waiting behind it.
  const toast = page.getByTestId('alert-toast');
  await expect(toast).toContainText(`${tag} warning`);
  await expect(page.getByTestId('alert-toast-waiting')).toHaveCount(0);
  // The list has it all the same.
  await expect(page.getByTestId('alert-card').filter({ hasText: `${tag} headcount` })).toBeVisible();
  expect((await toasts()).filter((text) => text.includes(`${tag} headcount`))).toEqual([]);

  await toggle.check();
  expect(await page.evaluate(() => localStorage.getItem('prison.informationalToasts'))).toBe('on');
  await raise(api, 'Informational', `${tag} switched on`);
  await expect(page.getByTestId('alert-toast').filter({ hasText: `${tag} switched on` })).toBeVisible();
  await toggle.uncheck();
});

test('the bulk bar says what it changes per level and leaves the Criticals out unless ticked one by one', async ({
  adminPage: page,
  api,
}) => {
  // A moment of its own, 20 hours ago, so the filtered page holds exactly these alerts.
  const at = new Date(Date.now() - 20 * 3600_000 + Math.floor(Math.random() * 3600) * 1000);
  at.setUTCMilliseconds(0);
  const timestamp = at.toISOString();
  const tag = unique('Bulk ');
  const criticals = [await raise(api, 'Critical', `${tag} c1`, timestamp), await raise(api, 'Critical', `${tag} c2`, timestamp)];
  const routine = [];
  for (const n of [1, 2, 3]) routine.push(await raise(api, 'Informational', `${tag} i${n}`, timestamp));

  await page.goto(`/allAlerts?from=${encodeURIComponent(timestamp)}&to=${encodeURIComponent(timestamp)}`);
  await expect(page.getByTestId('alert-card').filter({ hasText: tag })).toHaveCount(5, { timeout: FIRST_LOAD_MS });
  await page.getByLabel('Select all on this page (Critical alerts one by one)').check();
  for (const alert of criticals) await expect(page.getByLabel(`Select alert ${alert.id}`)).not.toBeChecked();
  await expect(page.getByTestId('bulk-plan-resolve')).toHaveText(
    'Resolve 3 Informational; 2 Critical left out: resolve them one by one',
  );
  await expect(page.getByTestId('bulk-plan-acknowledge')).toHaveText(
    'Acknowledge 3 Informational; 2 Critical left out: acknowledge them one by one',
  );

  await page.getByRole('button', { name: 'Resolve selected' }).click();
  const dialog = page.getByRole('dialog', { name: 'Resolve alerts (3)' });
  await expect(dialog.getByTestId('bulk-plan')).toHaveText(
    'Resolve 3 Informational; 2 Critical left out: resolve them one by one',
  );
  await dialog.getByRole('button', { name: 'Resolve' }).click();
  await expect(page.getByText('3 alerts resolved.')).toBeVisible();
  for (const alert of routine) expect(await statusOf(api, alert.id, timestamp)).toBe('Resolved');
  for (const alert of criticals) expect(await statusOf(api, alert.id, timestamp)).toBe('New');

  // A Critical ticked one by one is taken (acknowledged here: resolving it waits for that and a note).
  await page.getByLabel(`Select alert ${criticals[0]!.id}`).check();
  await expect(page.getByTestId('bulk-plan-acknowledge')).toHaveText(
    'Acknowledge 1 Critical; 1 Critical left out: acknowledge them one by one',
  );
  await expect(page.getByTestId('bulk-plan-resolve')).toHaveText(
    'Resolve nothing; 1 Critical left out: resolve them one by one; 1 not acknowledged left out: acknowledge them first',
  );
  await expect(page.getByRole('button', { name: 'Resolve selected' })).toBeDisabled();
  await page.getByRole('button', { name: 'Acknowledge selected' }).click();
  // A Critical among them: the note is required (decision 095).
  const ackDialog = page.getByRole('dialog', { name: 'Acknowledge alert' });
  await expect(ackDialog.getByRole('button', { name: 'Acknowledge' })).toBeDisabled();
  await ackDialog.getByLabel('Note (required)').fill('Officers sent to the fence');
  await ackDialog.getByRole('button', { name: 'Acknowledge' }).click();
  await expect(page.getByText('1 alerts acknowledged.')).toBeVisible();
  expect(await statusOf(api, criticals[0]!.id, timestamp)).toBe('Acknowledged');
  expect(await statusOf(api, criticals[1]!.id, timestamp)).toBe('New');
  const done = await api.post(`/api/v1/alert/${criticals[1]!.id}/acknowledge`, { data: { note: 'Handled in the test' } });
  expect(done.status(), await done.text()).toBe(200);
});

for (const size of [
  { width: 1440, height: 900 },
  { width: 390, height: 844 },
]) {
  test(`no toast covers an action of the alerts screen at ${size.width} px`, async ({ adminPage: page, api }) => {
    await page.setViewportSize(size);
    await page.goto('/allAlerts');
    await expect(page.getByTestId('alert-card').first()).toBeVisible({ timeout: FIRST_LOAD_MS });
    const tag = unique('Cover ');
    // Three Criticals: 15 s of toasts, time to look at the top and the bottom of the page under them.
    const raised = [];
    for (const n of [1, 2, 3]) raised.push(await raise(api, 'Critical', `${tag} ${n}`));
    await expect(page.getByTestId('alert-toast')).toBeVisible();

    const coveredActions = () =>
      page.evaluate(() => {
        const area = document.querySelector('[data-testid="toast-area"]')!;
        const root = document.querySelector('[data-scroll-root]')!.getBoundingClientRect();
        const actions = document.querySelectorAll<HTMLElement>(
          '[data-scroll-root] :is(button, a[href], input, select, textarea, summary)',
        );
        let checked = 0;
        const covered: string[] = [];
        for (const action of Array.from(actions)) {
          const box = action.getBoundingClientRect();
          if (box.width === 0 || box.height === 0) continue;
          const x = box.left + box.width / 2;
          const y = box.top + box.height / 2;
          // Only what is on screen now: scrolled past is not covered, it is elsewhere. A centre exactly on the scroll
          // box's bottom edge is half scrolled out, and the point there already belongs to the band below the box.
          if (y < root.top || y >= root.bottom || x < 0 || x > window.innerWidth) continue;
          checked++;
          const hit = document.elementFromPoint(x, y);
          if (hit && area.contains(hit)) covered.push(action.textContent?.trim() || action.outerHTML.slice(0, 80));
        }
        return { checked, covered, toastShown: area.querySelector('[data-testid="alert-toast"]') !== null };
      });

    const top = await coveredActions();
    expect(top.toastShown).toBe(true);
    expect(top.checked).toBeGreaterThan(5);
    expect(top.covered).toEqual([]);
    // Scrolled to the bottom (pagination, the chart's summary): nothing under the toast either.
    await page.evaluate(() => {
      const root = document.querySelector('[data-scroll-root]')!;
      root.scrollTop = root.scrollHeight;
    });
    const bottom = await coveredActions();
    expect(bottom.toastShown).toBe(true);
    expect(bottom.checked).toBeGreaterThan(2);
    expect(bottom.covered).toEqual([]);
    await page.screenshot({ path: test.info().outputPath(`alerts-with-toast-${size.width}.png`) });

    for (const alert of raised) await api.post(`/api/v1/alert/${alert.id}/acknowledge`, { data: { note: 'Cover check done' } });
  });
}
