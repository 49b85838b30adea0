// What the live-map specs share: the stored geofences, and a mouse drag as a person makes one.
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { expect } from '../fixtures';

export interface GeofenceRow {
  geofence_id: string;
  name: string;
  shape: string;
  type: string;
  alert_type: string;
  radius: number | null;
  center_lat: number | null;
  center_lng: number | null;
  /** `{ lat, lng }` points, as every answer gives them (docs/CLIENT-CONTRACT.md). */
  coordinates: { lat: number; lng: number }[] | null;
}

export async function listGeofences(api: APIRequestContext): Promise<GeofenceRow[]> {
  const res = await api.get('/api/v1/geofence/all');
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()) as GeofenceRow[];
}

/** Drags the middle of an element (the map to draw, an edit handle to reshape) by dx, dy pixels with the mouse. */
export async function dragFromMiddle(page: Page, element: Locator, dx: number, dy: number) {
  const box = (await element.boundingBox())!;
  const x = box.x + box.width / 2;
  const y = box.y + box.height / 2;
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(x + dx / 2, y + dy / 2, { steps: 5 });
  await page.mouse.move(x + dx, y + dy, { steps: 5 });
  await page.mouse.up();
}
