// Seeding helpers for the records specs: every row is created through the API with a unique name.
import type { APIRequestContext } from '@playwright/test';
import { expect, unique } from '../fixtures';

export async function seedCell(api: APIRequestContext, overrides: { capacity?: number; security_level?: string } = {}) {
  const block = unique('B');
  const cellId = unique('C');
  const res = await api.post('/api/v1/cell_controls/cells', {
    data: {
      cell_id: cellId,
      block,
      capacity: overrides.capacity ?? 2,
      security_level: overrides.security_level ?? 'High',
    },
  });
  expect(res.status(), await res.text()).toBe(200);
  return { block, cellId };
}

/** A prisoner with the given fields; the date of birth, required on creation, defaults to 1980-01-01. */
export async function seedPrisoner(api: APIRequestContext, data: Record<string, unknown>) {
  const res = await api.post('/api/v1/prisoner/add', { data: { date_of_birth: '1980-01-01', ...data } });
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()) as { prisoner_id: number; prison_number: string; first_name: string; last_name: string };
}

/** A prisoner in a fresh cell wearing a freshly registered tracker. */
export async function seedTrackedPrisoner(api: APIRequestContext, data: Record<string, unknown>) {
  const { block, cellId } = await seedCell(api);
  const prisoner = await seedPrisoner(api, { status: 'Incarcerated', cell_id: cellId, ...data });
  const deviceRes = await api.post('/api/v1/devices', { data: { name: unique('Tag '), kind: 'phone' } });
  expect(deviceRes.status(), await deviceRes.text()).toBeLessThan(300);
  const device = (await deviceRes.json()) as { id: string };
  const assignRes = await api.put(`/api/v1/devices/${encodeURIComponent(device.id)}/assign`, {
    data: { prisoner_id: prisoner.prisoner_id },
  });
  expect(assignRes.status(), await assignRes.text()).toBe(200);
  return { ...prisoner, block, cellId, deviceId: device.id };
}

export async function seedStaff(api: APIRequestContext, role: 'Police' | 'Guard', data: Record<string, unknown> = {}) {
  const res = await api.post('/api/v1/staff/add', {
    data: { first_name: unique('F'), last_name: unique('L'), role, badge_number: uniqueBadge(), ...data },
  });
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()) as { staff_id: number; first_name: string; last_name: string; badge_number: string };
}

export function uniqueBadge(): string {
  return String(Date.now() % 1e9) + String(Math.floor(Math.random() * 1000)).padStart(3, '0');
}
