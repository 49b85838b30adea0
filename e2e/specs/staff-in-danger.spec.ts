// Staff in danger on the live map (decisions 064 and 072): an officer's SOS posted through the OsmAnd
// protocol raises "Officer NAME needs assistance" with the nearest three other staff; the Critical bar's "Show on map"
// opens the live map on him, marks him and the three nearest (rings on their markers, a line to each, a label with the
// name and the distance at the alarm) and lists them beside the map. Hidden, they come back by opening his marker.
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test, unique } from '../fixtures';
import { expectNoViolations } from './axe';
import { seedStaff } from './records-helpers';

type LatLng = { lat: number; lng: number };
type Hook = {
  layer: { positionOf(id: string): LatLng | null };
  map: {
    eachLayer(visit: (layer: { options: { className?: string }; getLatLng?: () => LatLng; getElement?: () => Element | undefined }) => void): void;
    latLngToContainerPoint(point: LatLng): { x: number; y: number };
  } | null;
};

/** A point `metres` from `from` towards north (0), east (90), south (180) or west (270). */
function offset(from: LatLng, metres: number, bearing: 0 | 90 | 180 | 270): LatLng {
  const dLat = metres / 111_320;
  const dLng = metres / (111_320 * Math.cos((from.lat * Math.PI) / 180));
  if (bearing === 0) return { lat: from.lat + dLat, lng: from.lng };
  if (bearing === 180) return { lat: from.lat - dLat, lng: from.lng };
  return { lat: from.lat, lng: from.lng + (bearing === 90 ? dLng : -dLng) };
}

async function sendFix(api: APIRequestContext, deviceId: string, at: LatLng, extra: Record<string, string> = {}) {
  const res = await api.get('/api/v1/ingest/osmand', { params: { id: deviceId, lat: at.lat, lon: at.lng, timestamp: new Date().toISOString(), ...extra } });
  expect(res.status(), await res.text()).toBe(200);
}

async function staffTracker(api: APIRequestContext, first: string) {
  const staff = await seedStaff(api, 'Guard', { first_name: first });
  const res = await api.post('/api/v1/devices', { data: { name: unique('Radio '), staff_id: staff.staff_id, kind: 'phone' } });
  expect(res.status(), await res.text()).toBe(201);
  return { ...staff, name: `${staff.first_name} ${staff.last_name}`, deviceId: ((await res.json()) as { id: string }).id };
}

/** The assistance rings on the map: per tracking id, whether its ring sits on its marker (within a pixel). */
const ringsOnMarkers = (page: Page) =>
  page.evaluate(() => {
    const hook = (window as unknown as { __liveMap?: Hook }).__liveMap;
    const found: Record<string, { kind: string; onMarker: boolean }> = {};
    hook?.map?.eachLayer((layer) => {
      const kind = layer.options.className;
      if (kind !== 'staff-assist-officer' && kind !== 'staff-assist-nearest') return;
      const id = layer.getElement?.()?.getAttribute('data-tracking-id');
      const marker = id ? hook.layer.positionOf(id) : null;
      if (!id || !marker || !layer.getLatLng) return;
      const a = hook.map!.latLngToContainerPoint(layer.getLatLng());
      const b = hook.map!.latLngToContainerPoint(marker);
      found[id] = { kind, onMarker: Math.hypot(a.x - b.x, a.y - b.y) <= 1 };
    });
    return found;
  });

test('an officer SOS through OsmAnd: "Show on map" marks him and the nearest three staff with their distance', async ({ adminPage: page, api }) => {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.setViewportSize({ width: 1440, height: 900 });
  const base = { lat: 52.2 + Math.random() * 0.05, lng: -2.1 + Math.random() * 0.05 };
  const officer = await staffTracker(api, unique('Ada'));
  const near = await staffTracker(api, unique('Cid'));
  const middle = await staffTracker(api, unique('Dot'));
  const third = await staffTracker(api, unique('Bea'));
  const far = await staffTracker(api, unique('Eve'));
  await sendFix(api, officer.deviceId, base);
  await sendFix(api, near.deviceId, offset(base, 25, 0));
  await sendFix(api, middle.deviceId, offset(base, 60, 180));
  await sendFix(api, third.deviceId, offset(base, 80, 90));
  await sendFix(api, far.deviceId, offset(base, 400, 270));
  await sendFix(api, officer.deviceId, base, { alarm: 'sos' });

  // The alert names them, in words and as data (the trackers and the distances at the alarm).
  const listed = await api.get('/api/v1/alert/prisoneralerts', { params: { status: 'New', alert_type: 'Critical', limit: 100 } });
  type Listed = { id: number; details: string; nearby_staff?: { device_id: string; name: string; metres: number }[] };
  const alert = ((await listed.json()) as { data: Listed[] }).data.find((a) => a.details.startsWith(`Officer ${officer.name} needs assistance`))!;
  expect(alert).toBeDefined();
  expect(alert.nearby_staff!.map((s) => s.device_id)).toEqual([near.deviceId, middle.deviceId, third.deviceId]);
  expect(alert.nearby_staff!.map((s) => s.metres)).toEqual([25, 60, 80]);
  expect(alert.details).toBe(`Officer ${officer.name} needs assistance. Nearest staff: ${near.name} 25 m, ${middle.name} 60 m, ${third.name} 80 m`);

  // The Critical bar, on any screen: "Show on map" opens the live map on the officer with the alert named.
  await page.goto('/alerts');
  const bar = page.locator(`[data-testid="critical-alert"][data-alert-id="${alert.id}"]`);
  await expect(bar).toContainText(`Officer ${officer.name} needs assistance`);
  await bar.getByRole('link', { name: 'Show on map' }).click();
  await expect(page).toHaveURL(new RegExp(`/live-map\\?device=${officer.deviceId}&alert=${alert.id}$`));

  const box = page.getByTestId('staff-in-danger');
  await expect(box.getByRole('heading')).toHaveText(`Officer ${officer.name} needs assistance`);
  const expected = [`1. ${near.name} · 25 m`, `2. ${middle.name} · 60 m`, `3. ${third.name} · 80 m`];
  await expect(box.getByTestId('staff-in-danger-nearest')).toHaveText(expected.map((text) => new RegExp(`^${text}`)));
  // On the map: a label by each of the three, the officer's, a dashed line from him to each, rings on their markers.
  await expect(page.locator('.staff-assist-nearest-label')).toHaveText(expected);
  await expect(page.locator('.staff-assist-officer-label')).toHaveText(`${officer.name} needs assistance`);
  await expect(page.locator('path.staff-assist-line')).toHaveCount(3);
  await expect
    .poll(() => ringsOnMarkers(page))
    .toEqual({
      [officer.deviceId]: { kind: 'staff-assist-officer', onMarker: true },
      [near.deviceId]: { kind: 'staff-assist-nearest', onMarker: true },
      [middle.deviceId]: { kind: 'staff-assist-nearest', onMarker: true },
      [third.deviceId]: { kind: 'staff-assist-nearest', onMarker: true },
    });
  // The far one is not marked, and all four are in view (the map was fitted to them; the fit is animated, so asked
  // until it has ended).
  await expect(page.locator(`.staff-assist-nearest[data-tracking-id="${far.deviceId}"]`)).toHaveCount(0);
  const inView = () => page.evaluate((ids) => {
    const hook = (window as unknown as { __liveMap?: Hook }).__liveMap!;
    const size = document.querySelector('[data-testid="live-map"]')!.getBoundingClientRect();
    return ids.every((id) => {
      const p = hook.map!.latLngToContainerPoint(hook.layer.positionOf(id)!);
      return p.x > 0 && p.y > 0 && p.x < size.width && p.y < size.height;
    });
  }, [officer.deviceId, near.deviceId, middle.deviceId, third.deviceId]);
  await expect.poll(inView).toBe(true);
  await expectNoViolations(page, 'live map with an officer in need');

  // Hidden, then back by opening the officer's own marker.
  await box.getByRole('button', { name: 'Hide' }).click();
  await expect(box).toHaveCount(0);
  await expect(page.locator('.staff-assist-nearest-label')).toHaveCount(0);
  const point = await page.evaluate((id) => {
    const hook = (window as unknown as { __liveMap?: Hook }).__liveMap!;
    return hook.map!.latLngToContainerPoint(hook.layer.positionOf(id)!);
  }, officer.deviceId);
  await page.getByTestId('live-map').locator('.leaflet-container').click({ position: { x: point.x, y: point.y } });
  await expect(page.getByTestId('marker-popup')).toContainText(officer.name);
  await expect(page.locator('.staff-assist-nearest-label')).toHaveText(expected);

  // Resolved, the marks go.
  expect((await api.post(`/api/v1/alert/${alert.id}/acknowledge`, { data: { note: 'Two officers sent' } })).status()).toBe(200);
  expect((await api.post(`/api/v1/alert/${alert.id}/resolve`, { data: { note: 'Officer safe, area cleared' } })).status()).toBe(200);
  await expect(page.getByTestId('staff-in-danger')).toHaveCount(0);
  await expect(page.locator('.staff-assist-nearest-label')).toHaveCount(0);
  expect(errors).toEqual([]);
});

test('?device= of an officer without an SOS centres the map on his marker', async ({ adminPage: page, api }) => {
  const officer = await staffTracker(api, unique('Calm'));
  // A spot of this test's own, so no other spec's marker stands there.
  const spot = { lat: 51.49 + Math.random() * 0.02, lng: -0.14 + Math.random() * 0.04 };
  await sendFix(api, officer.deviceId, spot);
  await page.goto(`/live-map?device=${encodeURIComponent(officer.deviceId)}`);
  await expect
    .poll(
      () =>
        page.evaluate(() => {
          const map = (window as unknown as { __liveMap?: { map: { getCenter(): LatLng; getZoom(): number } | null } }).__liveMap?.map;
          return map ? { ...map.getCenter(), zoom: map.getZoom() } : null;
        }),
      { timeout: 30_000 },
    )
    .toMatchObject({ lat: expect.closeTo(spot.lat, 4), lng: expect.closeTo(spot.lng, 4), zoom: expect.any(Number) });
  expect(await page.evaluate(() => (window as unknown as { __liveMap: { map: { getZoom(): number } } }).__liveMap.map.getZoom())).toBeGreaterThanOrEqual(16);
  // His popup is open, named.
  await expect(page.getByTestId('marker-popup')).toContainText(`Name: ${officer.name}`);
  await page.waitForTimeout(400); // the popup's fade-in, so contrast is judged on the shown popup
  await expectNoViolations(page, 'live map centred on an officer');
});
