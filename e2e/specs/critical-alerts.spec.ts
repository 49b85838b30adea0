// Critical alerts cannot be missed: an SOS raised through the real OsmAnd path stays in the
// layout's Critical bar on any screen until acknowledged from it; the alerts screen then says who and when; another
// operator's acknowledgement removes it too; a Critical toast goes ahead of routine ones waiting.
import type { APIRequestContext } from '@playwright/test';
import { E2E_ADMIN, expect, test, unique } from '../fixtures';
import { expectNoViolations } from './axe';
import { seedTrackedPrisoner } from './records-helpers';

/** A prisoner in a cell wearing a registered tracker. */
async function trackedPrisoner(api: APIRequestContext) {
  const prisoner = await seedTrackedPrisoner(api, { first_name: unique('Sos'), last_name: 'Caller' });
  return { ...prisoner, name: `${prisoner.first_name} ${prisoner.last_name}` };
}

/** The tracker's SOS button, as an OsmAnd/Traccar client reports it: a Critical alert through the real ingest path. */
async function pressSos(api: APIRequestContext, deviceId: string) {
  const lat = 51.52 + Math.random() * 0.01;
  const lon = -0.1 + Math.random() * 0.01;
  const res = await api.get('/api/v1/ingest/osmand', {
    params: { id: deviceId, lat, lon, timestamp: Math.floor(Date.now() / 1000), alarm: 'sos' },
  });
  expect(res.status(), await res.text()).toBe(200);
}

/** Earlier specs leave alerts open; the sound's timing is measured from none. */
async function acknowledgeEveryOpenAlert(api: APIRequestContext) {
  for (;;) {
    const res = await api.get('/api/v1/alert/prisoneralerts', { params: { status: 'New', limit: 100 } });
    expect(res.status(), await res.text()).toBe(200);
    const open = ((await res.json()) as { data: { id: number; alert_type: string }[] }).data;
    if (open.length === 0) return;
    // A Critical is taken in bulk only when listed again, one by one (decision 040), and with a note (decision 095).
    const confirm_critical_ids = open.filter((alert) => alert.alert_type === 'Critical').map((alert) => alert.id);
    const bulk = await api.post('/api/v1/alert/bulk', {
      data: {
        ids: open.map((alert) => alert.id),
        action: 'acknowledge',
        note: 'Cleared before the sound test',
        ...(confirm_critical_ids.length > 0 && { confirm_critical_ids }),
      },
    });
    expect(bulk.status(), await bulk.text()).toBe(200);
  }
}

test('a Critical alert raised while /cell-assign is open stays in the bar past 10 s until acknowledged there; /allAlerts says who and when', async ({
  adminPage: page,
  api,
}) => {
  test.setTimeout(90_000);
  const prisoner = await trackedPrisoner(api);
  await page.goto('/cell-assign');
  await expect(page.getByRole('heading', { name: 'Assign cells' })).toBeVisible();

  await pressSos(api, prisoner.deviceId);
  const bar = page.getByTestId('critical-alert-bar');
  const row = bar.getByTestId('critical-alert').filter({ hasText: prisoner.name });
  await expect(row).toBeVisible();
  // The name never stands alone: the id and the cell beside it.
  await expect(row).toContainText(`${prisoner.name} · ${prisoner.prison_number} · cell ${prisoner.cellId}`);
  await expect(row).toContainText(`SOS from ${prisoner.name}`);
  await expect(page.getByTestId('open-alert-counts').locator('[data-level="Critical"]')).not.toHaveText(/^0/);
  await expectNoViolations(page, 'critical bar at 1440 px');

  // The toast leaves after 5 s; the bar does not.
  await page.waitForTimeout(10_500);
  await expect(page.getByTestId('alert-toast').filter({ hasText: `SOS from ${prisoner.name}` })).toHaveCount(0);
  await expect(row).toBeVisible();
  await expect(row).toContainText(/ago/);

  // "Show on map" centres the live map on the prisoner and opens the marker's popup; the bar is still there.
  await row.getByRole('link', { name: 'Show on map' }).click();
  await expect(page).toHaveURL(new RegExp(`/live-map\\?device=${encodeURIComponent(prisoner.deviceId)}$`));
  await expect(page.getByTestId('marker-popup')).toContainText(prisoner.name);
  await expect(row).toBeVisible();

  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/cell-assign');
  // On a phone the bar is one line; Show lists the alerts (decision 044).
  await expect(page.getByTestId('critical-bar-short')).toBeInViewport();
  await page.getByTestId('critical-bar-toggle').click();
  await expect(row).toBeInViewport();
  await expectNoViolations(page, 'critical bar at 390 px');
  await page.setViewportSize({ width: 1440, height: 900 });

  await row.getByRole('button', { name: 'Acknowledge' }).click();
  // A Critical is acknowledged with a note in words (decision 095): the button waits for one.
  const dialog = page.getByRole('dialog', { name: 'Acknowledge alert' });
  await expect(dialog.getByTestId('acknowledge-alert-details')).toContainText(`Critical: SOS from ${prisoner.name}`);
  await expect(dialog.getByRole('button', { name: 'Acknowledge' })).toBeDisabled();
  await dialog.getByLabel('Note (required)').fill('...');
  await expect(dialog.getByRole('button', { name: 'Acknowledge' })).toBeDisabled();
  await dialog.getByLabel('Note (required)').fill('Officer sent to the cell');
  await dialog.getByRole('button', { name: 'Acknowledge' }).click();
  await expect(row).toHaveCount(0);

  await page.goto('/allAlerts');
  const card = page.getByTestId('alert-card').filter({ hasText: `SOS from ${prisoner.name}` });
  await expect(card).toContainText('Status: Acknowledged');
  await expect(card.getByTestId('alert-handling')).toContainText(
    new RegExp(`Acknowledged by ${E2E_ADMIN.username} at \\w{3} \\d+, \\d{4}`),
  );
  await expect(card.getByTestId('alert-handling')).toContainText('Note: Officer sent to the cell');
});

test("another operator's acknowledgement removes the alert from the bar without a reload", async ({
  adminPage: page,
  api,
}) => {
  const prisoner = await trackedPrisoner(api);
  await page.goto('/cell-assign');
  await expect(page.getByRole('heading', { name: 'Assign cells' })).toBeVisible();
  await pressSos(api, prisoner.deviceId);
  const row = page.getByTestId('critical-alert').filter({ hasText: prisoner.name });
  await expect(row).toBeVisible();
  const alertId = Number(await row.getAttribute('data-alert-id'));

  // `api` is another session: the server's dataChanged('alerts') reaches this browser.
  const res = await api.post(`/api/v1/alert/${alertId}/acknowledge`, { data: { note: 'Taken by the other operator' } });
  expect(res.status(), await res.text()).toBe(200);
  await expect(row).toHaveCount(0);
});

test('a Critical toast goes ahead of the Informational on screen and the ones waiting', async ({ adminPage: page, api }) => {
  // Informational toasts are off unless this browser switched them on (decision 040).
  await page.addInitScript(() => localStorage.setItem('prison.informationalToasts', 'on'));
  await page.goto('/cell-assign');
  await expect(page.getByRole('heading', { name: 'Assign cells' })).toBeVisible();
  const tag = unique('Queue ');
  const post = async (alert_type: string, details: string) => {
    const res = await api.post('/api/v1/alert/all', { data: { alert_type, details } });
    expect(res.status(), await res.text()).toBe(201);
  };
  const toast = page.getByTestId('alert-toast');
  // The first is on screen before the others arrive (all four at once would put the Critical first, rightly).
  await post('Informational', `${tag} info 1`);
  await expect(toast).toContainText(`${tag} info 1`);
  for (const [alert_type, details] of [
    ['Informational', `${tag} info 2`],
    ['Informational', `${tag} info 3`],
    ['Critical', `${tag} critical`],
  ] as const) {
    await post(alert_type, details);
  }
  // Ordered by level, then time (decision 105): the Critical takes the screen at once; the one it replaced waits first.
  await expect(toast).toContainText(`${tag} critical`);
  await expect(toast).toHaveAttribute('data-alert-type', 'Critical');
  await expect(page.getByTestId('alert-toast-waiting')).toHaveText('3 more waiting');
  await toast.getByRole('button', { name: 'Dismiss alert' }).click();
  await expect(toast).toContainText(`${tag} info 1`);
});

test('the waiting line and "Dismiss all" of a toast are readable on the Warning colour', async ({
  adminPage: page,
  api,
}) => {
  await page.goto('/cell-assign');
  await expect(page.getByRole('heading', { name: 'Assign cells' })).toBeVisible();
  const tag = unique('Tone ');
  // Three alike: whichever is on screen when axe looks (each stays 5 s), the waiting line is there with it.
  for (const n of [1, 2, 3]) {
    const res = await api.post('/api/v1/alert/all', { data: { alert_type: 'Warning', details: `${tag} ${n}` } });
    expect(res.status(), await res.text()).toBe(201);
  }
  await expect(page.getByTestId('alert-toast')).toHaveAttribute('data-alert-type', 'Warning');
  await expect(page.getByTestId('alert-toast-waiting')).toBeVisible();
  // Faded text on the Warning colour fell below WCAG AA contrast (axe).
  await expectNoViolations(page, 'Warning toast with others waiting');
});

test('the Critical sound is on by default: a beep on the alert, repeated 30 s later while it is open', async ({
  adminPage: page,
  api,
}) => {
  test.setTimeout(90_000);
  // Count the beeps (three oscillators each) where Web Audio makes them; headless Chromium has no speaker to check.
  await page.addInitScript(() => {
    const counter = window as unknown as { __oscillators: number };
    counter.__oscillators = 0;
    const create = AudioContext.prototype.createOscillator;
    AudioContext.prototype.createOscillator = function (this: AudioContext) {
      counter.__oscillators++;
      return create.call(this);
    };
  });
  const beeps = () => page.evaluate(() => (window as unknown as { __oscillators: number }).__oscillators / 3);
  const prisoner = await trackedPrisoner(api);
  await acknowledgeEveryOpenAlert(api);
  await page.goto('/cell-assign');
  await expect(page.getByRole('heading', { name: 'Assign cells' })).toBeVisible();
  await expect(page.getByTestId('open-alert-counts').locator('[data-level="Critical"]')).toHaveText(/^0/);
  expect(await beeps()).toBe(0);

  await pressSos(api, prisoner.deviceId);
  await expect(page.getByTestId('critical-alert').filter({ hasText: prisoner.name })).toBeVisible();
  await expect.poll(beeps).toBe(1);
  // Not again for 30 s, then again while it is open.
  await page.waitForTimeout(25_000);
  expect(await beeps()).toBe(1);
  await expect.poll(beeps, { timeout: 10_000 }).toBe(2);
});
