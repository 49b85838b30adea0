// The live map end to end ("Must show"): draw and save a geofence, cancel discards a drawn shape, and a
// device reporting through the OsmAnd protocol moves its marker, raises a toast and lands on the alerts screen.
import { approvePendingChange, expect, test, unique } from '../fixtures';
import type { Page } from '@playwright/test';
import { dragFromMiddle, listGeofences } from './map-helpers';

/** Where the map is panned to: Leaflet moves its map pane by a CSS transform. */
const mapCentre = (page: Page) => page.locator('.leaflet-map-pane').getAttribute('style');

test('draw a circle, fill "Enter Geofence Details", save; it is still there after a reload', async ({
  adminPage: page,
  api,
  secondApi,
}) => {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  const name = unique('Yard ');
  await page.goto('/live-map');
  const map = page.getByTestId('live-map');
  // Only circle, polygon and rectangle (docs/CLIENT-CONTRACT.md).
  const toolbar = map.locator('.leaflet-top.leaflet-right .leaflet-pm-toolbar');
  await expect(toolbar.getByRole('button', { name: 'Draw a circle' })).toBeVisible();
  await expect(toolbar.getByRole('button', { name: 'Draw a polygon' })).toBeVisible();
  await expect(toolbar.getByRole('button', { name: 'Draw a rectangle' })).toBeVisible();
  await expect(toolbar.getByRole('button')).toHaveCount(3);
  await expect(map.locator('.leaflet-pm-toolbar')).toHaveCount(1);

  // Drawn by dragging, as always: the map does not pan meanwhile.
  await toolbar.getByRole('button', { name: 'Draw a circle' }).click();
  // Block areas carry tooltips of their own (their names): the drawing's is found by its text.
  await expect(map.locator('.leaflet-tooltip', { hasText: 'Click and drag to draw circle.' })).toBeVisible();
  const centreBefore = await mapCentre(page);
  await dragFromMiddle(page, page.getByTestId('live-map'), 90, 30);
  expect(await mapCentre(page)).toEqual(centreBefore);

  const dialog = page.getByRole('dialog', { name: 'Enter Geofence Details' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByLabel('Geofence Type')).toHaveValue('Positive');
  // Each type in plain words beside the spec's terms (decision 041).
  await expect(dialog.getByText('Positive: alert when a prisoner is inside')).toBeVisible();
  await expect(dialog.getByText('Negative: alert when a prisoner is outside')).toBeVisible();
  await expect(dialog.getByLabel('Alert Type')).toHaveValue('Informational');
  await dialog.getByRole('button', { name: 'Save Geofence' }).click();
  await expect(dialog.getByText('Geofence Name is required')).toBeVisible();

  await dialog.getByLabel('Geofence Name').fill(name);
  await dialog.getByLabel('Geofence Type').selectOption('Negative');
  await dialog.getByLabel('Alert Type').selectOption('Warning');
  await dialog.getByRole('button', { name: 'Save Geofence' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('geofence-item').filter({ hasText: name })).toBeVisible();

  const saved = (await listGeofences(api)).find((geofence) => geofence.name === name);
  expect(saved).toMatchObject({ shape: 'Circle', type: 'Negative', alert_type: 'Warning' });

  await page.reload();
  await expect(page.getByTestId('geofence-item').filter({ hasText: name })).toBeVisible();
  // Drawn in its alert level's colour: Warning amber (decision 041).
  await expect(map.locator('path.geofence-circle.geofence-level-warning[stroke="#d97706"]').first()).toBeVisible();

  // Select it, rename it, then delete it after the confirmation.
  await page.getByTestId('geofence-item').filter({ hasText: name }).click();
  const editor = page.getByTestId('geofence-editor');
  await editor.getByLabel('Geofence Name').fill(`${name} renamed`);
  await editor.getByRole('button', { name: 'Save Changes' }).click();
  await expect(page.getByTestId('geofence-item').filter({ hasText: `${name} renamed` })).toBeVisible();
  await editor.getByRole('button', { name: 'Delete Geofence' }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete geofence' });
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByTestId('geofence-item').filter({ hasText: `${name} renamed` })).toBeVisible();
  await editor.getByRole('button', { name: 'Delete Geofence' }).click();
  // A delete asks for a reason and waits for a second administrator (decision 041).
  await confirm.getByLabel('Reason').fill('Drawn in the wrong place');
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(confirm).toBeHidden();
  const saved2 = (await listGeofences(api)).find((geofence) => geofence.name === `${name} renamed`)!;
  await approvePendingChange(secondApi, saved2.geofence_id);
  await expect(page.getByTestId('geofence-item').filter({ hasText: name })).toHaveCount(0);
  expect((await listGeofences(api)).some((geofence) => geofence.name.startsWith(name))).toBe(false);
  expect(errors).toEqual([]);
});

test('Cancel in "Enter Geofence Details" discards the drawn shape', async ({ adminPage: page, api }) => {
  await page.goto('/live-map');
  const map = page.getByTestId('live-map');
  const drawRectangle = map.getByRole('button', { name: 'Draw a rectangle' });
  await expect(drawRectangle).toBeVisible();
  const before = (await listGeofences(api)).length;
  await expect(page.getByTestId('geofence-item')).toHaveCount(before);
  const shapes = map.locator('.leaflet-overlay-pane path');
  const shapesBefore = await shapes.count();

  // A click without a drag draws nothing and leaves the tool, as it always did.
  await drawRectangle.click();
  await expect(map.locator('.leaflet-pm-toolbar .button-container.active')).toHaveCount(1);
  const box = (await map.boundingBox())!;
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  await expect(map.locator('.leaflet-pm-toolbar .button-container.active')).toHaveCount(0);
  await expect(shapes).toHaveCount(shapesBefore);
  await expect(page.getByRole('dialog', { name: 'Enter Geofence Details' })).toHaveCount(0);

  await drawRectangle.click();
  await dragFromMiddle(page, page.getByTestId('live-map'), 120, 80);
  const dialog = page.getByRole('dialog', { name: 'Enter Geofence Details' });
  await expect(dialog).toBeVisible();
  await expect(shapes).toHaveCount(shapesBefore + 1);
  await dialog.getByLabel('Geofence Name').fill('never saved');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await expect(shapes).toHaveCount(shapesBefore);
  expect((await listGeofences(api)).length).toBe(before);
});

test('a polygon refuses crossing edges with "Error: shape edges cannot cross!" and closes with 3 points', async ({
  adminPage: page,
}) => {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto('/live-map');
  const map = page.getByTestId('live-map');
  await map.getByRole('button', { name: 'Draw a polygon' }).click();
  const box = (await map.boundingBox())!;
  const x = box.x + box.width / 2;
  const y = box.y + box.height / 2;
  const click = async (dx: number, dy: number) => {
    await page.mouse.move(x + dx, y + dy, { steps: 2 });
    await page.mouse.down();
    await page.mouse.up();
    // A second click that comes too fast would be a double click.
    await page.waitForTimeout(150);
  };
  await click(0, 0);
  await click(150, 0);
  await click(150, 120);
  // Back across the first edge.
  await click(75, -80);
  const error = map.getByRole('alert').filter({ hasText: 'Error: shape edges cannot cross!' });
  await expect(error).toHaveCount(1);
  await expect(error).toHaveClass(/draw-error-tooltip/);
  // The crossing point was refused: still three points.
  await expect(map.locator('.leaflet-marker-pane .marker-icon:not(.cursor-marker)')).toHaveCount(3);
  // The error goes after 2500 ms.
  await expect(error).toHaveCount(0, { timeout: 4000 });

  // Closing on the first point after three points finishes the polygon.
  await click(0, 0);
  const dialog = page.getByRole('dialog', { name: 'Enter Geofence Details' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  expect(errors).toEqual([]);
});

test('a prisoner leaving a Negative geofence: the marker moves, the toast shows, the alerts screen lists it', async ({
  adminPage: page,
  api,
}) => {
  const firstName = unique('Walker');
  const lastName = 'Tracked';
  const fenceName = unique('Perimeter ');
  // A point of our own, far from other specs' shapes.
  const centre = { lat: 51.5 + Math.random() * 0.01, lng: -0.12 + Math.random() * 0.01 };

  const cellId = unique('W-');
  const cellRes = await api.post('/api/v1/cell_controls/cells', {
    data: { cell_id: cellId, block: 'W', capacity: 2, security_level: 'Low' },
  });
  expect(cellRes.status(), await cellRes.text()).toBeLessThan(300);
  const prisonerRes = await api.post('/api/v1/prisoner/add', {
    data: {
      first_name: firstName,
      last_name: lastName,
      date_of_birth: '1986-09-30',
      status: 'Incarcerated',
      cell_id: cellId,
    },
  });
  expect(prisonerRes.status(), await prisonerRes.text()).toBe(200);
  const prisoner = (await prisonerRes.json()) as { prisoner_id: number; prison_number: string };
  const prisonerId = prisoner.prisoner_id;
  // Names are not unique: the id and the cell stand beside the name everywhere; where the screen's
  // data has his prison number (the tracked list, the alert cards), the number stands for the id (decision 101).
  const label = `${firstName} ${lastName} · #${prisonerId} · cell ${cellId}`;
  const numberedLabel = `${firstName} ${lastName} · ${prisoner.prison_number} · cell ${cellId}`;

  const deviceRes = await api.post('/api/v1/devices', { data: { name: unique('Tag '), kind: 'phone' } });
  expect(deviceRes.status(), await deviceRes.text()).toBeLessThan(300);
  const device = (await deviceRes.json()) as { id: string };
  const assignRes = await api.put(`/api/v1/devices/${encodeURIComponent(device.id)}/assign`, {
    data: { prisoner_id: prisonerId },
  });
  expect(assignRes.status(), await assignRes.text()).toBe(200);

  const fenceRes = await api.post('/api/v1/geofence/add', {
    data: {
      geofence_id: crypto.randomUUID(),
      shape: 'Circle',
      name: fenceName,
      type: 'Negative',
      alert_type: 'Critical',
      radius: 300,
      center_lat: centre.lat,
      center_lng: centre.lng,
      dwell_seconds: 0,
      // Only this spec's prisoner: a fence for everyone would put the prisoners of the specs running beside this one
      // in violation (geofences are the prison's, decision 076).
      applies_to: { prisoner_ids: [prisonerId] },
    },
  });
  expect(fenceRes.status(), await fenceRes.text()).toBeLessThan(300);

  await page.goto('/live-map?testHooks=1');
  await expect(page.getByTestId('geofence-item').filter({ hasText: fenceName })).toBeVisible();
  const map = page.getByTestId('live-map');
  const markerPosition = () =>
    page.evaluate((id) => {
      // The page's test hook (apps/web/src/features/live-map/live-map-page.tsx), opened with ?testHooks.
      const hook = (
        window as unknown as { __liveMap?: { layer: { positionOf(id: string): { lat: number; lng: number } | null } } }
      ).__liveMap;
      const point = hook?.layer.positionOf(id);
      return point ? { lat: point.lat, lng: point.lng } : null;
    }, device.id);

  const now = Math.floor(Date.now() / 1000);
  const sendFix = async (lat: number, lon: number, timestamp: number) => {
    const res = await api.get('/api/v1/ingest/osmand', { params: { id: device.id, lat, lon, timestamp } });
    expect(res.status(), await res.text()).toBe(200);
  };

  // Inside the Negative geofence: the marker appears, no alert.
  await sendFix(centre.lat, centre.lng, now - 5);
  await expect(map).toHaveAttribute('data-marker-count', /^[1-9]\d*$/);
  await expect.poll(markerPosition).toEqual({ lat: centre.lat, lng: centre.lng });
  await expect(page.getByTestId('tracked-prisoner').filter({ hasText: `${firstName} ${lastName}` })).toContainText(
    'Online',
  );
  await expect(page.getByTestId('tracked-prisoner').filter({ hasText: `${firstName} ${lastName}` })).toContainText(numberedLabel);

  // Outside (about 1.1 km north): the marker glides there and the breach is raised once.
  const outside = { lat: centre.lat + 0.01, lng: centre.lng };
  await sendFix(outside.lat, outside.lng, now);
  const toast = page.getByTestId('alert-toast').filter({ hasText: `${firstName} ${lastName} left ${fenceName}` });
  await expect(toast).toBeVisible();
  await expect(toast).toHaveAttribute('data-alert-type', 'Critical');
  // The live toast too: the alert carries his prison number, which stands for the id.
  await expect(toast.getByTestId('alert-toast-prisoner')).toHaveText(numberedLabel);
  await expect(toast.getByTestId('alert-toast-prisoner')).not.toHaveText(label);
  await expect.poll(markerPosition, { timeout: 5000 }).toEqual(outside);
  // The side panel marks the breach while it lasts (GET /alert/open-violations).
  await expect(page.getByTestId('tracked-prisoner').filter({ hasText: `${firstName} ${lastName}` })).toContainText(
    'In violation',
  );

  // The marker's popup reads "Name: " and the name; a click in the list centres the map on it.
  await page
    .getByTestId('tracked-prisoner')
    .filter({ hasText: `${firstName} ${lastName}` })
    .click();
  await expect(page.getByTestId('marker-popup').locator('div').first()).toHaveText(`Name: ${firstName} ${lastName}`);
  await expect(page.getByTestId('marker-popup-detail')).toHaveText(`#${prisonerId} · cell ${cellId}`);

  // Leaving the map and coming back: the page asks the open socket for a fresh snapshot.
  await page.getByRole('link', { name: 'Alerts and Notifications' }).click();
  await expect(page.getByRole('heading', { name: 'Alerts', exact: true })).toBeVisible();
  await page.getByRole('link', { name: 'Live Map' }).click();
  await expect.poll(markerPosition).toEqual(outside);

  // A device that leaves (here: removed; the server sends userDisconnected) takes its marker with it.
  const removed = await api.delete(`/api/v1/devices/${encodeURIComponent(device.id)}`);
  expect(removed.status(), await removed.text()).toBe(200);
  await expect.poll(markerPosition).toBeNull();

  await page.goto('/allAlerts');
  await expect(page.getByRole('heading', { name: 'Alerts', exact: true })).toBeVisible();
  const card = page.getByTestId('alert-card').filter({ hasText: `${firstName} ${lastName} left ${fenceName}` });
  await expect(card).toHaveCount(1);
  await expect(card).toContainText(`Prisoner: ${numberedLabel}`);
  await expect(card).toHaveAttribute('data-alert-type', 'Critical');
  await expect(page.getByTestId('alert-counts')).toContainText('Critical:');

  await page.goto('/');
  await expect(
    page.getByTestId('recent-alert').filter({ hasText: `${firstName} ${lastName} left ${fenceName}` }),
  ).toBeVisible();
});
