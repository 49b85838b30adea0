// Above the pixel threshold the live map's markers are drawn and glided by a worker on its own canvas
// (marker-pixels.worker.ts): a marker must still be where the map says it is after a pan, a zoom and a new fix.
// Pixels are read from a real screenshot, decoded in the page.
import type { Page } from '@playwright/test';
import { expect, test } from '../fixtures';

type Hook = {
  feed: {
    snapshot(s: Record<string, unknown>): void;
    changes(c: { changed: Record<string, unknown>; gone: string[] }): void;
  };
  layer: { pixelPathThreshold: number; onPixelFrame: (() => void) | null };
  map: {
    getCenter(): { lat: number; lng: number };
    getZoom(): number;
    setZoom(zoom: number, options: object): void;
    panBy(offset: [number, number], options: object): void;
    latLngToContainerPoint(latLng: [number, number]): { x: number; y: number };
    getContainer(): HTMLElement;
  };
};

/** The marker colour of a prisoner with no open alert (marker-style.ts: '#16a34a'). */
const GREEN = [0x16, 0xa3, 0x4a];

/** Where the probe marker is on the page (CSS pixels), by the map's own projection. */
async function probePoint(page: Page, lat: number, lng: number): Promise<{ x: number; y: number }> {
  return page.evaluate(
    ({ lat, lng }) => {
      const { map } = (window as unknown as { __liveMap: Hook }).__liveMap;
      const point = map.latLngToContainerPoint([lat, lng]);
      const box = map.getContainer().getBoundingClientRect();
      return { x: Math.round(box.left + point.x), y: Math.round(box.top + point.y) };
    },
    { lat, lng },
  );
}

/** The colour of one pixel of a screenshot of the page. */
async function pixelAt(page: Page, { x, y }: { x: number; y: number }): Promise<number[]> {
  const png = (await page.screenshot()).toString('base64');
  return page.evaluate(
    async ({ png, x, y }) => {
      const image = new Image();
      image.src = `data:image/png;base64,${png}`;
      await image.decode();
      const canvas = document.createElement('canvas');
      canvas.width = image.width;
      canvas.height = image.height;
      const ctx = canvas.getContext('2d')!;
      ctx.drawImage(image, 0, 0);
      return [...ctx.getImageData(x, y, 1, 1).data.slice(0, 3)];
    },
    { png, x, y },
  );
}

function isGreen(rgb: number[]): boolean {
  return rgb.every((value, i) => Math.abs(value - GREEN[i]!) <= 12);
}

/**
 * Waits for the worker's next picture (it draws only when something changed or still glides), then for the
 * compositor to show it.
 */
async function pictures(page: Page, start: number) {
  await expect.poll(() => page.evaluate(() => (window as unknown as { __pictures: number }).__pictures)).toBeGreaterThan(start);
  await page.waitForTimeout(200);
}

const picturesSoFar = (page: Page) => page.evaluate(() => (window as unknown as { __pictures: number }).__pictures);

/**
 * Keeps the feed to the markers a test gave it (`window.__testMarkers`): the server's own snapshot (late under load)
 * would replace them, and the trackers earlier specs left behind would join them, one of them where the probe is.
 * The test's own moves go through `feed.testChanges`.
 */
async function keepToTestMarkers(page: Page) {
  await page.evaluate(() => {
    const w = window as unknown as { __liveMap: Hook; __testMarkers: Record<string, unknown> };
    const feed = w.__liveMap.feed as unknown as {
      snapshot(s: unknown): void;
      changes(c: unknown): void;
      testChanges(c: unknown): void;
      setLastKnown(p: Map<string, unknown>): void;
    };
    const keep = feed.snapshot.bind(feed);
    feed.testChanges = feed.changes.bind(feed);
    feed.snapshot = () => keep(w.__testMarkers);
    feed.changes = () => undefined;
    // The device list's last known places of earlier specs' trackers leave too, and stay away.
    feed.setLastKnown(new Map());
    feed.setLastKnown = () => undefined;
    keep(w.__testMarkers);
  });
}

/**
 * Opens the live map with more markers than the pixel threshold, all a degree away (out of view), and one probe
 * `above` CSS pixels above the middle of the map; keeps the feed to them and waits for the worker's first picture.
 * Returns where the probe is.
 */
async function openWithProbe(page: Page, above = 0): Promise<{ lat: number; lng: number }> {
  await page.goto('/live-map?testHooks=1');
  await page.waitForFunction(() => Boolean((window as unknown as { __liveMap?: Hook }).__liveMap?.map));
  const probe = await page.evaluate((above) => {
    const hook = (window as unknown as { __liveMap: Hook }).__liveMap;
    const counter = window as unknown as { __pictures: number };
    counter.__pictures = 0;
    hook.layer.onPixelFrame = () => counter.__pictures++;
    const { lat, lng } = hook.map.getCenter();
    const all: Record<string, unknown> = {};
    for (let i = 0; i < hook.layer.pixelPathThreshold + 50; i++) {
      all[`far-${i}`] = { id: `far-${i}`, prisonerId: null, name: `Far ${i}`, latitude: lat + 1, longitude: lng + 1, trackingId: `far-${i}` };
    }
    const middle = hook.map.latLngToContainerPoint([lat, lng]);
    const map = hook.map as unknown as { containerPointToLatLng(p: [number, number]): { lat: number; lng: number } };
    const at = map.containerPointToLatLng([middle.x, middle.y - above]);
    all.probe = { id: 'probe', prisonerId: null, name: 'Probe', latitude: at.lat, longitude: at.lng, trackingId: 'probe' };
    (window as unknown as { __testMarkers: Record<string, unknown> }).__testMarkers = all;
    return { lat: at.lat, lng: at.lng };
  }, above);
  await keepToTestMarkers(page);
  await pictures(page, 0);
  return probe;
}

// Tall enough that the probes, placed at the map's centre, stay on the map when earlier specs' open Critical alerts
// fill the bar above it and their toasts the band below the page: the map's box then shrinks from the bottom.
test.use({ viewport: { width: 1280, height: 1200 } });

test('above the pixel threshold a marker stays where the map puts it: after a pan, a zoom and a new fix', async ({ adminPage: page }) => {
  const centre = await openWithProbe(page);
  // Two canvases: the layer's own (labels) and the worker's.
  await expect(page.locator('canvas.tracked-markers-canvas')).toHaveCount(2);
  const first = await probePoint(page, centre.lat, centre.lng);
  expect(isGreen(await pixelAt(page, first))).toBe(true);

  // A pan: the worker is told the new view and its canvas goes with it.
  let before = await picturesSoFar(page);
  await page.evaluate(() => (window as unknown as { __liveMap: Hook }).__liveMap.map.panBy([150, 80], { animate: false }));
  await pictures(page, before);
  const panned = await probePoint(page, centre.lat, centre.lng);
  expect(panned).toEqual({ x: first.x - 150, y: first.y - 80 });
  expect(isGreen(await pixelAt(page, panned))).toBe(true);
  expect(isGreen(await pixelAt(page, first))).toBe(false);

  // A zoom: every marker re-projected, the worker's canvas shown again with the new zoom's first picture.
  before = await picturesSoFar(page);
  await page.evaluate(() => {
    const { map } = (window as unknown as { __liveMap: Hook }).__liveMap;
    map.setZoom(map.getZoom() + 1, { animate: false });
  });
  await pictures(page, before);
  const zoomed = await probePoint(page, centre.lat, centre.lng);
  expect(isGreen(await pixelAt(page, zoomed))).toBe(true);

  // A new fix: the worker glides the probe there by itself (GLIDE_MS, 1 s) and stops when it arrives.
  const moved = { lat: centre.lat + 0.0004, lng: centre.lng + 0.0006 };
  await page.evaluate((moved) => {
    const hook = (window as unknown as { __liveMap: { feed: { testChanges: Hook['feed']['changes'] } } }).__liveMap;
    hook.feed.testChanges({
      changed: { probe: { id: 'probe', prisonerId: null, name: 'Probe', latitude: moved.lat, longitude: moved.lng, trackingId: 'probe' } },
      gone: [],
    });
  }, moved);
  await page.waitForTimeout(1500);
  const arrived = await probePoint(page, moved.lat, moved.lng);
  expect(arrived).not.toEqual(zoomed);
  expect(isGreen(await pixelAt(page, arrived))).toBe(true);
  expect(isGreen(await pixelAt(page, zoomed))).toBe(false);
});

test("when the map's box shrinks (a toast below the page, the Critical bar above), Leaflet and the marker canvases follow it and nothing moves", async ({
  adminPage: page,
}) => {
  // The probe a little above the middle, so that it stays on the map when the box loses its lower part.
  const centre = await openWithProbe(page, 60);
  const before = await probePoint(page, centre.lat, centre.lng);
  expect(isGreen(await pixelAt(page, before))).toBe(true);

  const height = await page.evaluate(() => {
    const container = (window as unknown as { __liveMap: Hook }).__liveMap.map.getContainer();
    const shorter = Math.round(container.getBoundingClientRect().height / 2) + 80;
    container.style.height = `${shorter}px`;
    return shorter;
  });
  // Leaflet is told (ResizeObserver, then invalidateSize): its size and the canvases' are the box's.
  await expect
    .poll(() => page.evaluate(() => (window as unknown as { __liveMap: Hook }).__liveMap.map.getContainer().clientHeight))
    .toBe(height);
  await expect
    .poll(() => page.evaluate(() => (window as unknown as { __liveMap: { map: { getSize(): { y: number } } } }).__liveMap.map.getSize().y))
    .toBe(height);
  for (const canvas of await page.locator('canvas.tracked-markers-canvas').all()) {
    await expect.poll(async () => Math.round((await canvas.boundingBox())?.height ?? 0)).toBe(height);
  }
  // What the operator sees did not move: the probe is where it was, and drawn.
  expect(await probePoint(page, centre.lat, centre.lng)).toEqual(before);
  expect(isGreen(await pixelAt(page, before))).toBe(true);
});

/** The marker colour of a prisoner with an open Critical alert (marker-style.ts: '#dc2626'). */
const RED = [0xdc, 0x26, 0x26];

test('30,000 markers ten deep (drawn front to back): the marker drawn last is on top, the crowd is drawn around it', async ({ adminPage: page }) => {
  await page.goto('/live-map?testHooks=1');
  await page.waitForFunction(() => Boolean((window as unknown as { __liveMap?: Hook }).__liveMap?.map));
  const centre = await page.evaluate(() => {
    const hook = (window as unknown as { __liveMap: Hook }).__liveMap;
    const counter = window as unknown as { __pictures: number };
    counter.__pictures = 0;
    hook.layer.onPixelFrame = () => counter.__pictures++;
    const bounds = (hook.map as unknown as { getBounds(): { getSouth(): number; getNorth(): number; getWest(): number; getEast(): number } }).getBounds();
    const { lat, lng } = hook.map.getCenter();
    // A crowd of prisoners with an open Critical alert (red) over the whole view, then the probe (no alert, green),
    // last, so drawn last: on top of the ten or so red markers under its centre.
    const worst = new Map<number, string>();
    const all: Record<string, unknown> = {};
    let seed = 5;
    const random = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    for (let i = 0; i < 30_000; i++) {
      worst.set(i + 1, 'Critical');
      all[`crowd-${i}`] = {
        id: `crowd-${i}`,
        prisonerId: i + 1,
        name: `Crowd ${i}`,
        latitude: bounds.getSouth() + random() * (bounds.getNorth() - bounds.getSouth()),
        longitude: bounds.getWest() + random() * (bounds.getEast() - bounds.getWest()),
        trackingId: `crowd-${i}`,
      };
    }
    all.probe = { id: 'probe', prisonerId: null, name: 'Probe', latitude: lat, longitude: lng, trackingId: 'probe' };
    // The crowd stays Critical: the server's own levels are its prisoners', not this crowd's.
    const feed = hook.feed as unknown as { setAlertLevels(worst: Map<number, string>): void };
    const keepLevels = feed.setAlertLevels.bind(feed);
    keepLevels(worst);
    feed.setAlertLevels = () => keepLevels(worst);
    (window as unknown as { __testMarkers: Record<string, unknown> }).__testMarkers = all;
    return { lat, lng };
  });
  // This test is about the drawing: the server's own snapshot and earlier specs' trackers stay out of the crowd.
  await keepToTestMarkers(page);
  // Every marker applied (the feed spreads a snapshot over frames), then a picture of all of them.
  await expect
    .poll(() => page.evaluate(() => (window as unknown as { __liveMap: { layer: { size: number } } }).__liveMap.layer.size), { timeout: 30_000 })
    .toBe(30_001);
  // The worker draws within a frame of the last change, then idles (nothing glides): let the compositor show it.
  await page.waitForTimeout(1000);
  const probe = await probePoint(page, centre.lat, centre.lng);
  expect(isGreen(await pixelAt(page, probe))).toBe(true);
  // Around it, the crowd: a red fill at many points of a line across the map (the others its white ring or edge).
  const png = (await page.screenshot()).toString('base64');
  const reds = await page.evaluate(
    async ({ png, left, y, red }) => {
      const image = new Image();
      image.src = `data:image/png;base64,${png}`;
      await image.decode();
      const canvas = document.createElement('canvas');
      canvas.width = image.width;
      canvas.height = image.height;
      const ctx = canvas.getContext('2d')!;
      ctx.drawImage(image, 0, 0);
      let count = 0;
      for (let x = left; x < left + 40 * 7; x += 7) {
        const [r, g, b] = ctx.getImageData(x, y, 1, 1).data;
        if (Math.abs(r! - red[0]!) <= 12 && Math.abs(g! - red[1]!) <= 12 && Math.abs(b! - red[2]!) <= 12) count++;
      }
      return count;
    },
    { png, left: probe.x - 140, y: probe.y + 60, red: RED },
  );
  expect(reds).toBeGreaterThanOrEqual(10);
});
