// A prisoner edit reaches the live tracking cache at once: the live map and alert messages use the new name (or the
// device's own, once the prisoner is deleted) without waiting for the registry's periodic refresh.
import { expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import type { DeviceCreated, Prisoner } from '@prison/shared';
import { describeEachEngine } from '../../../test/test-db';
import { useTestApp } from '../../../test/test-app';
import { alerts } from '../../db/schema';

const LAT = 48.2;
const LNG = 16.37;

describeEachEngine('prisoner edits and live tracking', (engine) => {
  const ctx = useTestApp(engine);
  let serial = 0;
  let clock = Date.now() - 3_600_000;

  async function trackedPrisoner(firstName: string, lastName: string) {
    const added = await ctx().api('POST', '/prisoner/add', {
      first_name: firstName,
      last_name: lastName,
      date_of_birth: '1979-11-02',
      status: 'Incarcerated',
    });
    expect(added.statusCode, added.body).toBe(200);
    const prisoner = added.json<Prisoner>();
    const registered = await ctx().api('POST', '/devices', { id: `tag-${engine}-${++serial}`, name: 'Ankle tag', kind: 'phone' });
    expect(registered.statusCode, registered.body).toBe(201);
    const device = registered.json<DeviceCreated>();
    const assigned = await ctx().api('PUT', `/devices/${device.id}/assign`, { prisoner_id: prisoner.prisoner_id });
    expect(assigned.statusCode, assigned.body).toBe(200);
    return { prisoner, device };
  }

  /** One fix through the gateway batch endpoint, each a second after the last. */
  async function send(device: DeviceCreated, extra: Record<string, unknown> = {}) {
    clock += 1000;
    const fix = {
      device_id: device.id,
      secret: device.secret,
      latitude: LAT,
      longitude: LNG,
      timestamp: new Date(clock).toISOString(),
      ...extra,
    };
    const res = await ctx().api('POST', '/ingest/positions', { positions: [fix] });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().stored).toBe(1);
  }

  const batteryAlerts = (deviceId: string) =>
    ctx()
      .database.db.select()
      .from(alerts)
      .where(and(eq(alerts.deviceId, deviceId), eq(alerts.kind, 'battery')))
      .orderBy(alerts.id);

  it('a renamed prisoner shows the new name on the live map and in the next alert at once', async () => {
    const { prisoner, device } = await trackedPrisoner('Old', 'Name');
    await send(device, { battery: 90 });
    expect(ctx().app.tracking.snapshot()[device.id]).toMatchObject({ id: device.id, prisonerId: prisoner.prisoner_id, name: 'Old Name' });

    const renamed = await ctx().api('PUT', `/prisoner/update/${prisoner.prisoner_id}`, {
      first_name: 'New',
      last_name: 'Person',
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(ctx().app.tracking.registry.get(device.id)).toMatchObject({
      prisonerId: prisoner.prisoner_id,
      prisonerName: 'New Person',
    });
    expect(ctx().app.tracking.snapshot()[device.id]).toMatchObject({ id: device.id, prisonerId: prisoner.prisoner_id, name: 'New Person' });

    await send(device, { battery: 10 });
    const [low] = await batteryAlerts(device.id);
    expect(low).toMatchObject({
      prisonerId: prisoner.prisoner_id,
      details: "New Person's tracker battery is low (10 %)",
    });
  });

  it('an edit that keeps the name keeps it on the map; a prisoner without a device is edited and deleted as before', async () => {
    const { prisoner, device } = await trackedPrisoner('Same', 'Name');
    await send(device);
    const moved = await ctx().api('PUT', `/prisoner/update/${prisoner.prisoner_id}`, { behavior_record: 'Quiet' });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(ctx().app.tracking.snapshot()[device.id]).toMatchObject({ name: 'Same Name' });
    const untracked = (
      await ctx().api('POST', '/prisoner/add', {
        first_name: 'No',
        last_name: 'Device',
        date_of_birth: '1979-11-02',
        status: 'On Trial',
      })
    ).json<Prisoner>();
    const renamed = await ctx().api('PUT', `/prisoner/update/${untracked.prisoner_id}`, { first_name: 'Still' });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect((await ctx().api('DELETE', `/prisoner/delete/${untracked.prisoner_id}`)).statusCode).toBe(200);
  });

  it('a deleted prisoner leaves the device unassigned at once: its own name on the map and in alerts', async () => {
    const { prisoner, device } = await trackedPrisoner('Gone', 'Soon');
    await send(device, { battery: 90 });
    expect(ctx().app.tracking.snapshot()[device.id]).toMatchObject({ name: 'Gone Soon' });

    const deleted = await ctx().api('DELETE', `/prisoner/delete/${prisoner.prisoner_id}`);
    expect(deleted.statusCode, deleted.body).toBe(200);
    const deviceName = `Ankle tag (${device.id.slice(0, 8)})`;
    expect(ctx().app.tracking.registry.get(device.id)).toMatchObject({ prisonerId: null, prisonerName: null });
    expect(ctx().app.tracking.snapshot()[device.id]).toMatchObject({ name: deviceName });

    await send(device, { battery: 10 });
    const [low] = await batteryAlerts(device.id);
    expect(low).toMatchObject({ prisonerId: null, details: `${deviceName}'s tracker battery is low (10 %)` });
  });
});
