// The live map an operator works with (decision 026): the popup's live picture (id, cell,
// last fix, battery, open alerts with Acknowledge, links), the marker's colour following an alert raised through the
// API, "Fit site", the view kept across visits, no tiles with MAP_TILES=off, an offline prisoner's last position, and the
// prisoner list as a drawer at 390 px. axe at 1440 and 390 px.
import type { APIRequestContext, Page } from '@playwright/test';
import { deleteGeofenceApproved, expect, test, unique } from '../fixtures';
import { expectNoViolations } from './axe';
import { seedTrackedPrisoner } from './records-helpers';

type Hook = {
  layer: {
    levelOf(id: string): string | null;
    positionOf(id: string): { lat: number; lng: number } | null;
  };
  map: {
    getCenter(): { lat: number; lng: number };
    getZoom(): number;
    getBounds(): { contains(point: [number, number]): boolean };
    setView(center: [number, number], zoom: number, options?: object): void;
    latLngToContainerPoint(point: { lat: number; lng: number }): { x: number; y: number };
  };
};

/** A point of this test's own, away from other specs' shapes. */
const somewhere = () => ({ lat: 51.46 + Math.random() * 0.02, lng: -0.2 + Math.random() * 0.02 });

async function sendFix(api: APIRequestContext, deviceId: string, lat: number, lon: number, secondsAgo = 0) {
  const timestamp = Math.floor(Date.now() / 1000) - secondsAgo;
  const res = await api.get('/api/v1/ingest/osmand', { params: { id: deviceId, lat, lon, timestamp } });
  expect(res.status(), await res.text()).toBe(200);
}

/**
 * Acknowledges whatever is open for the prisoner: a Negative geofence left behind by another spec raises an alert for
 * any new tracker outside it (the engine's rule), and this spec starts from "nothing open".
 */
async function acknowledgeOpen(api: APIRequestContext, prisonerId: number) {
  const res = await api.get('/api/v1/alert/prisoneralerts', { params: { prisoner_id: prisonerId, status: 'New', limit: 100 } });
  expect(res.status(), await res.text()).toBe(200);
  const open = ((await res.json()) as { data: { id: number; alert_type: string }[] }).data;
  if (!open.length) return;
  // A Critical is taken in bulk only when listed again, one by one (decision 040), and with a note (decision 095).
  const confirm_critical_ids = open.filter((alert) => alert.alert_type === 'Critical').map((alert) => alert.id);
  const bulk = await api.post('/api/v1/alert/bulk', {
    data: {
      ids: open.map((alert) => alert.id),
      action: 'acknowledge',
      note: 'Cleared before the map check',
      ...(confirm_critical_ids.length > 0 && { confirm_critical_ids }),
    },
  });
  expect(bulk.status(), await bulk.text()).toBe(200);
}

const levelOf = (page: Page, id: string) =>
  page.evaluate((trackingId) => (window as unknown as { __liveMap?: Hook }).__liveMap?.layer.levelOf(trackingId) ?? null, id);

/** The colour drawn at the centre of a marker, read from the canvas (r, g, b). */
const pixelAt = (page: Page, id: string) =>
  page.evaluate((trackingId) => {
    const hook = (window as unknown as { __liveMap?: Hook }).__liveMap!;
    const position = hook.layer.positionOf(trackingId);
    if (!position) return null;
    const point = hook.map.latLngToContainerPoint(position);
    const canvas = document.querySelector<HTMLCanvasElement>('[data-testid="tracked-markers-canvas"]')!;
    const ratio = window.devicePixelRatio || 1;
    const [r, g, b] = canvas.getContext('2d')!.getImageData(Math.round(point.x * ratio), Math.round(point.y * ratio), 1, 1).data;
    return `${r},${g},${b}`;
  }, id);

/** The map's view, or null while the page (and its test hook) is not there yet. */
const mapView = (page: Page) =>
  page.evaluate(() => {
    const map = (window as unknown as { __liveMap?: Hook }).__liveMap?.map;
    if (!map) return null;
    const center = map.getCenter();
    return { lat: center.lat, lng: center.lng, zoom: map.getZoom() };
  });

test('the popup shows the id, the cell and the live picture; the colour follows an alert raised through the API', async ({
  adminPage: page,
  api,
}) => {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.setViewportSize({ width: 1440, height: 900 });
  const prisoner = await seedTrackedPrisoner(api, { first_name: unique('Colour'), last_name: 'Walker' });
  const name = `${prisoner.first_name} ${prisoner.last_name}`;
  const point = somewhere();
  await sendFix(api, prisoner.deviceId, point.lat, point.lng, 2);
  await acknowledgeOpen(api, prisoner.prisoner_id);

  await page.goto('/live-map');
  const row = page.getByTestId('tracked-prisoner').filter({ hasText: name });
  await expect(row).toContainText('Online');
  await expect(row).toHaveAttribute('data-level', 'none');
  await expect(row.getByTestId('tracked-prisoner-age')).toContainText(/Last fix (just now|\d+ s ago)/);
  await expect.poll(() => levelOf(page, prisoner.deviceId)).toBe('none');

  // MAP_TILES=off (decision 065): no tile is asked for, so nothing failed and the map has no notice to give.
  await expect(page.locator('.leaflet-container.map-without-tiles')).toHaveCount(1);
  await expect(page.locator('.leaflet-tile')).toHaveCount(0);
  await expect(page.getByTestId('map-tiles-unavailable')).toHaveCount(0);

  await row.click();
  const popup = page.getByTestId('marker-popup');
  await expect(popup.locator('div').first()).toHaveText(`Name: ${name}`);
  await expect(page.getByTestId('marker-popup-detail')).toHaveText(`#${prisoner.prisoner_id} · cell ${prisoner.cellId}`);
  await expect(page.getByTestId('marker-popup-state')).toContainText('Online · last fix');
  await expect(page.getByTestId('marker-popup-battery')).toContainText('Battery:');
  await expect(popup).toContainText('No open alerts');
  await expect(popup.getByRole('link', { name: 'Prisoner details' })).toHaveAttribute(
    'href',
    `/prisoner-details/${prisoner.prisoner_id}`,
  );
  await expect(popup).toHaveAttribute('data-level', 'none');
  // Drawn green.
  await expect.poll(() => pixelAt(page, prisoner.deviceId)).toBe('22,163,74');
  await expectNoViolations(page, 'live map at 1440 px with a popup open');

  // A Warning and then a Critical raised through the API: the colour follows the worst open one, without a reload.
  const raise = async (alert_type: string, details: string) => {
    const res = await api.post('/api/v1/alert/all', { data: { device_id: prisoner.deviceId, alert_type, details } });
    expect(res.status(), await res.text()).toBe(201);
    return ((await res.json()) as { id: number }).id;
  };
  await raise('Warning', unique('Tamper check '));
  await expect.poll(() => levelOf(page, prisoner.deviceId)).toBe('warning');
  await expect(row).toHaveAttribute('data-level', 'warning');
  const critical = unique('Perimeter call ');
  await raise('Critical', critical);
  await expect.poll(() => levelOf(page, prisoner.deviceId)).toBe('critical');
  await expect(popup).toHaveAttribute('data-level', 'critical');
  await expect.poll(() => pixelAt(page, prisoner.deviceId)).toBe('220,38,38');
  const alerts = page.getByTestId('marker-popup-alert');
  await expect(alerts).toHaveCount(2);
  // Worst first.
  await expect(alerts.first()).toHaveAttribute('data-alert-type', 'Critical');

  // Acknowledged from the popup, with the note a Critical needs (decision 095): no longer open, the marker goes back
  // to amber.
  await alerts.first().getByRole('button', { name: `Acknowledge: ${critical}` }).click();
  const noteDialog = page.getByRole('dialog', { name: 'Acknowledge alert' });
  await expect(noteDialog.getByTestId('acknowledge-alert-details')).toHaveText(`Critical: ${critical}`);
  await noteDialog.getByLabel('Note (required)').fill('Officer Diaz sent to the perimeter');
  await noteDialog.getByRole('button', { name: 'Acknowledge' }).click();
  await expect(noteDialog).toHaveCount(0);
  await expect(alerts).toHaveCount(1);
  await expect.poll(() => levelOf(page, prisoner.deviceId)).toBe('warning');
  await expect.poll(() => pixelAt(page, prisoner.deviceId)).toBe('217,119,6');

  // The history link opens the history with that prisoner chosen.
  await popup.getByRole('link', { name: 'Location history' }).click();
  await expect(page).toHaveURL(new RegExp(`/location-history\\?prisoner=${prisoner.prisoner_id}`));
  await expect(page.getByText('Choose a prisoner to see where they were.')).toHaveCount(0);
  expect(errors).toEqual([]);
});

test('the map opens fitted to the geofences, "Fit site" goes back there, and the view is kept across visits', async ({
  adminPage: page,
  api,
  secondApi,
}) => {
  const centre = somewhere();
  const name = unique('Fit yard ');
  const res = await api.post('/api/v1/geofence/add', {
    data: {
      geofence_id: crypto.randomUUID(),
      shape: 'Circle',
      name,
      type: 'Positive',
      alert_type: 'Informational',
      radius: 50,
      center_lat: centre.lat,
      center_lng: centre.lng,
    },
  });
  expect(res.status(), await res.text()).toBeLessThan(300);
  try {
    const geofences = (await (await api.get('/api/v1/geofence/all')).json()) as {
      center_lat: number | null;
      center_lng: number | null;
      coordinates: { lat: number; lng: number }[] | null;
    }[];
    const points = geofences.flatMap((geofence) =>
      geofence.center_lat !== null && geofence.center_lng !== null
        ? [[geofence.center_lat, geofence.center_lng] as [number, number]]
        : (geofence.coordinates ?? []).map((p) => [p.lat, p.lng] as [number, number]),
    );
    const allInView = () =>
      page.evaluate(
        (all) => {
          const map = (window as unknown as { __liveMap?: Hook }).__liveMap?.map;
          return map ? all.every((p) => map.getBounds().contains(p)) : null;
        },
        points,
      );

    await page.goto('/live-map');
    await expect(page.getByTestId('geofence-item').filter({ hasText: name })).toBeVisible();
    await expect.poll(allInView).toBe(true);

    // Somewhere else entirely; leaving and coming back (and reloading) keeps it.
    await page.evaluate(() => (window as unknown as { __liveMap?: Hook }).__liveMap!.map.setView([48.8566, 2.3522], 11, { animate: false }));
    await expect.poll(allInView).toBe(false);
    await page.getByRole('link', { name: 'Alerts and Notifications' }).click();
    await expect(page.getByRole('heading', { name: 'Alerts', exact: true })).toBeVisible();
    await page.getByRole('link', { name: 'Live Map' }).click();
    await expect.poll(async () => (await mapView(page))?.zoom).toBe(11);
    const kept = (await mapView(page))!;
    expect(kept.lat).toBeCloseTo(48.8566, 3);
    expect(kept.lng).toBeCloseTo(2.3522, 3);
    await page.reload();
    await expect.poll(async () => (await mapView(page))?.zoom).toBe(11);

    // "Fit site", by keyboard: every geofence in view again.
    const fit = page.getByRole('button', { name: 'Fit site' });
    await fit.focus();
    await page.keyboard.press('Enter');
    await expect.poll(allInView).toBe(true);
  } finally {
    const all = (await (await api.get('/api/v1/geofence/all')).json()) as { geofence_id: string; name: string }[];
    for (const geofence of all) {
      if (geofence.name === name) await deleteGeofenceApproved(api, secondApi, geofence.geofence_id);
    }
  }
});

test('an offline prisoner is grey at the last position; selecting it pans there and opens the popup', async ({
  adminPage: page,
  api,
}) => {
  const prisoner = await seedTrackedPrisoner(api, { first_name: unique('Quiet'), last_name: 'Sleeper' });
  const name = `${prisoner.first_name} ${prisoner.last_name}`;
  const point = somewhere();
  // The last fix is 10 minutes old: past the offline threshold (DEVICE_OFFLINE_SECONDS, 120 s by default).
  await sendFix(api, prisoner.deviceId, point.lat, point.lng, 600);

  await page.goto('/live-map');
  const row = page.getByTestId('tracked-prisoner').filter({ hasText: name });
  await expect(row).toContainText('Offline');
  await expect(row).toHaveAttribute('data-level', 'offline');
  await expect(row.getByTestId('tracked-prisoner-age')).toContainText(/Last fix 1[01] min ago/);
  await expect.poll(() => levelOf(page, prisoner.deviceId)).toBe('offline');

  await row.click();
  await expect(page.getByTestId('marker-popup').locator('div').first()).toHaveText(`Name: ${name}`);
  await expect(page.getByTestId('marker-popup-state')).toContainText(/Offline · last fix 1[01] min ago/);
  await expect
    .poll(async () => {
      const view = await mapView(page);
      if (!view) return false;
      return Math.abs(view.lat - point.lat) < 1e-4 && Math.abs(view.lng - point.lng) < 1e-4 && view.zoom >= 16;
    })
    .toBe(true);
  // Grey where it was last seen.
  await expect.poll(() => pixelAt(page, prisoner.deviceId)).toBe('148,163,184');
});

test('at 390 px the list is a drawer over the map: open it, pick a prisoner, the popup shows', async ({
  adminPage: page,
  api,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const prisoner = await seedTrackedPrisoner(api, { first_name: unique('Phone'), last_name: 'Picked' });
  const name = `${prisoner.first_name} ${prisoner.last_name}`;
  const point = somewhere();
  await sendFix(api, prisoner.deviceId, point.lat, point.lng, 1);

  await page.goto('/live-map');
  const map = page.getByTestId('live-map');
  const panel = page.getByTestId('live-map-panel');
  await expect(panel).toBeHidden();
  // The map fills the width.
  const mapBox = (await map.boundingBox())!;
  expect(mapBox.width).toBeGreaterThanOrEqual(380);
  await expectNoViolations(page, 'live map at 390 px');

  const open = page.getByRole('button', { name: /^Prisoner list/ });
  await expect(open).toHaveAttribute('aria-expanded', 'false');
  await open.click();
  await expect(panel).toBeVisible();
  const panelBox = (await panel.boundingBox())!;
  expect(panelBox.width).toBeGreaterThan(300);
  await expectNoViolations(page, 'live map at 390 px with the list open');

  await panel.getByLabel('Search tracked prisoners').fill(prisoner.first_name);
  const row = panel.getByTestId('tracked-prisoner').filter({ hasText: name });
  await expect(row).toHaveCount(1);
  await row.click();
  await expect(panel).toBeHidden();
  await expect(page.getByTestId('marker-popup').locator('div').first()).toHaveText(`Name: ${name}`);
  await expect(page.getByTestId('marker-popup-detail')).toHaveText(`#${prisoner.prisoner_id} · cell ${prisoner.cellId}`);
});
