import { expect, it } from 'vitest';
import { count, eq } from 'drizzle-orm';
import { DEFAULT_DEVICE_NAME, type Device } from '@prison/shared';
import { auditLog, devices, prisoners } from '../../db/schema';
import { hashSecret } from '../../tracking/device-registry';
import { addDevice, addPrisoner, addStaff } from '../../tracking/tracking-test-kit';
import { describeEachEngine } from '../../../test/test-db';
import { useTestApp } from '../../../test/test-app';

describeEachEngine('devices API', (engine) => {
  const ctx = useTestApp(engine);

  it('registers a device with a UUID, the default name and a secret answered once (only its hash stored)', async () => {
    const created = await addDevice(ctx());
    expect(created.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(created).toMatchObject({ name: DEFAULT_DEVICE_NAME, prisoner_id: null, online: false, last_seen_at: null });
    expect(created.secret.length).toBeGreaterThanOrEqual(32);
    const [row] = await ctx().database.db.select().from(devices).where(eq(devices.id, created.id));
    expect(row!.secretHash).toBe(hashSecret(created.secret));
    expect(JSON.stringify(row)).not.toContain(created.secret);
    const list = await ctx().api('GET', '/devices');
    expect(list.statusCode).toBe(200);
    const listed = list.json<{ data: (Device & { secret?: string })[] }>().data.find((d) => d.id === created.id);
    expect(listed).toBeDefined();
    expect(listed!.secret).toBeUndefined();
    const audit = await ctx().database.db.select().from(auditLog).where(eq(auditLog.entityId, created.id)).orderBy(auditLog.id);
    expect(audit.map((a) => a.action)).toContain('create');
    expect(JSON.stringify(audit)).not.toContain(created.secret);
  });

  it('an empty body registers nothing: 400 naming the required kind, nothing stored or audited; a tag is registered as one', async () => {
    const db = ctx().database.db;
    const stored = async () => [(await db.select({ n: count() }).from(devices))[0]!.n, (await db.select({ n: count() }).from(auditLog))[0]!.n];
    const before = await stored();
    for (const body of [{}, { name: 'No kind' }, { kind: 'watch' }, { kind: null }, { kind: 'phone ' }]) {
      const res = await ctx().api('POST', '/devices', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().message, JSON.stringify(body)).toBe('kind: kind is required: phone (reports its own position) or tag (placed by the indoor readers)');
    }
    expect(await stored()).toEqual(before);
    const tag = await addDevice(ctx(), { kind: 'tag', name: 'Corridor tag' });
    expect(tag).toMatchObject({ kind: 'tag', name: 'Corridor tag' });
    expect((await ctx().api('GET', `/devices/${tag.id}`)).json<Device>().kind).toBe('tag');
    expect((await ctx().api('GET', '/devices')).json<{ data: Device[] }>().data.find((d) => d.id === tag.id)?.kind).toBe('tag');
    expect(ctx().app.tracking.registry.get(tag.id)?.kind).toBe('tag');
    // A device stored before kinds existed is a phone (the migration's default).
    await db.insert(devices).values({ id: `old-${engine}`, name: 'Old tracker', secretHash: hashSecret('x') });
    expect((await ctx().api('GET', `/devices/old-${engine}`)).json<Device>().kind).toBe('phone');
  });

  it('registers the id a phone app shows, refuses it twice (409) and refuses a bad id (400)', async () => {
    const first = await ctx().api('POST', '/devices', { id: 'phone-123456', name: 'Pixel 7', kind: 'phone' });
    expect(first.statusCode).toBe(201);
    expect(first.json()).toMatchObject({ id: 'phone-123456', name: 'Pixel 7' });
    const again = await ctx().api('POST', '/devices', { id: 'phone-123456', kind: 'phone' });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toMatch(/already exists/);
    const bad = await ctx().api('POST', '/devices', { id: 'has spaces', kind: 'phone' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/^id/);
  });

  it('assigns, moves and unassigns: one device per prisoner and one prisoner per device', async () => {
    const alice = await addPrisoner(ctx(), 'Alice', 'Smith');
    const bob = await addPrisoner(ctx(), 'Bob', 'Jones');
    const one = await addDevice(ctx());
    const two = await addDevice(ctx());
    const assign = async (id: string, prisoner_id: number | null) => ctx().api('PUT', `/devices/${id}/assign`, { prisoner_id });
    const res = await assign(one.id, alice.id);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: one.id, prisoner_id: alice.id, prisoner_name: 'Alice Smith' });
    // The same device to Bob: Alice loses it.
    await assign(one.id, bob.id);
    const trackingOf = async (id: number) =>
      (await ctx().database.db.select({ d: prisoners.trackingDeviceId }).from(prisoners).where(eq(prisoners.prisonerId, id)))[0]!.d;
    expect(await trackingOf(alice.id)).toBeNull();
    expect(await trackingOf(bob.id)).toBe(one.id);
    // Another device to Bob: it replaces the first.
    await assign(two.id, bob.id);
    expect(await trackingOf(bob.id)).toBe(two.id);
    expect((await ctx().api('GET', `/devices/${one.id}`)).json().prisoner_id).toBeNull();
    const unassigned = await assign(two.id, null);
    expect(unassigned.json()).toMatchObject({ prisoner_id: null, prisoner_name: null });
    expect(await trackingOf(bob.id)).toBeNull();
  });

  it('answers 404 for an unknown device or prisoner and 400 for a bad prisoner_id', async () => {
    const device = await addDevice(ctx());
    expect((await ctx().api('PUT', '/devices/nope/assign', { prisoner_id: null })).statusCode).toBe(404);
    const unknownPrisoner = await ctx().api('PUT', `/devices/${device.id}/assign`, { prisoner_id: 999999 });
    expect(unknownPrisoner.statusCode).toBe(404);
    expect(unknownPrisoner.json().message).toMatch(/^prisoner_id/);
    const bad = await ctx().api('PUT', `/devices/${device.id}/assign`, { prisoner_id: 'x' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/^prisoner_id/);
    expect((await ctx().api('POST', '/devices/nope/rotate-secret')).statusCode).toBe(404);
    expect((await ctx().api('DELETE', '/devices/nope')).statusCode).toBe(404);
    expect((await ctx().api('GET', '/devices/nope')).statusCode).toBe(404);
  });

  it('rotates the secret (the old one stops working) and removes a device, leaving its prisoner without one', async () => {
    const prisoner = await addPrisoner(ctx());
    const device = await addDevice(ctx(), { prisoner_id: prisoner.id });
    expect(device.prisoner_id).toBe(prisoner.id);
    const rotated = await ctx().api('POST', `/devices/${device.id}/rotate-secret`);
    expect(rotated.statusCode).toBe(200);
    const secret = rotated.json().secret as string;
    expect(secret).not.toBe(device.secret);
    const registry = ctx().app.tracking.registry;
    expect(() => registry.authenticate(device.id, device.secret, { secretRequired: true })).toThrow(/Unknown device or wrong secret/);
    expect(registry.authenticate(device.id, secret, { secretRequired: true }).id).toBe(device.id);
    const removed = await ctx().api('DELETE', `/devices/${device.id}`);
    expect(removed.statusCode).toBe(200);
    expect((await ctx().api('GET', `/devices/${device.id}`)).statusCode).toBe(404);
    expect(() => registry.authenticate(device.id, secret, { secretRequired: true })).toThrow(/Unknown device/);
    const [row] = await ctx().database.db.select({ d: prisoners.trackingDeviceId }).from(prisoners).where(eq(prisoners.prisonerId, prisoner.id));
    expect(row!.d).toBeNull();
    const actions = (await ctx().database.db.select().from(auditLog).where(eq(auditLog.entityId, device.id)).orderBy(auditLog.id)).map((a) => a.action);
    expect(actions).toEqual(expect.arrayContaining(['create', 'rotate-secret', 'delete']));
  });

  it('answers when the newest fix was taken (last_fix_at) beside when the server last heard from it (decision 029)', async () => {
    const device = await addDevice(ctx());
    const before = (await ctx().api('GET', `/devices/${device.id}`)).json<Device>();
    expect(before).toMatchObject({ last_fix_at: null, last_seen_at: null, last_battery: null });
    const takenAt = new Date(Math.floor(Date.now() / 1000) * 1000 - 45_000).toISOString();
    const res = await ctx().api('POST', '/ingest/positions', {
      positions: [{ device_id: device.id, secret: device.secret, latitude: 51.5, longitude: -0.12, timestamp: takenAt, battery: 64 }],
    });
    expect(res.statusCode, res.body).toBe(200);
    const after = (await ctx().api('GET', `/devices/${device.id}`)).json<Device>();
    expect(after).toMatchObject({ last_fix_at: takenAt, last_battery: 64, online: true, latitude: 51.5, longitude: -0.12 });
    // Heard from just now, about a fix taken 45 s ago.
    expect(Date.parse(after.last_seen_at!)).toBeGreaterThan(Date.parse(takenAt) + 30_000);
    // A later fix without a battery level (OsmAnd without batt=) keeps the last one known rather than blanking it.
    const later = new Date(Date.parse(takenAt) + 10_000).toISOString();
    await ctx().api('POST', '/ingest/positions', { positions: [{ device_id: device.id, secret: device.secret, latitude: 51.501, longitude: -0.12, timestamp: later }] });
    expect((await ctx().api('GET', `/devices/${device.id}`)).json<Device>()).toMatchObject({ last_fix_at: later, last_battery: 64, latitude: 51.501 });
  });

  it("a new device for a prisoner frees the old one at once, in the tracking registry too (no fix filed under them)", async () => {
    const prisoner = await addPrisoner(ctx(), 'Rena', 'Swap');
    const old = await addDevice(ctx(), { prisoner_id: prisoner.id });
    const registry = ctx().app.tracking.registry;
    expect(registry.get(old.id)?.prisonerId).toBe(prisoner.id);
    // Registered and assigned in one call (the details screen's form): the old device belongs to nobody.
    const created = await ctx().api('POST', '/devices', { name: 'Replacement', kind: 'phone', prisoner_id: prisoner.id });
    expect(created.statusCode, created.body).toBe(201);
    const replacement = created.json<Device>();
    expect(registry.get(replacement.id)?.prisonerId).toBe(prisoner.id);
    expect(registry.get(old.id)?.prisonerId ?? null).toBeNull();
    // Assigned back: the replacement is freed the same way.
    expect((await ctx().api('PUT', `/devices/${old.id}/assign`, { prisoner_id: prisoner.id })).statusCode).toBe(200);
    expect(registry.get(old.id)?.prisonerId).toBe(prisoner.id);
    expect(registry.get(replacement.id)?.prisonerId ?? null).toBeNull();
  });

  it('a device is worn by a prisoner or a staff member, never both (400 naming staff_id); staff fixes are stored, not a prisoner', async () => {
    const prisoner = await addPrisoner(ctx(), 'Ivo', 'Gray');
    const officer = await addStaff(ctx(), 'Dana', 'Scully');
    const both = await ctx().api('POST', '/devices', { kind: 'phone', prisoner_id: prisoner.id, staff_id: officer.id });
    expect(both.statusCode).toBe(400);
    expect(both.json().message).toMatch(/^staff_id: /);
    const device = await addDevice(ctx(), { staff_id: officer.id });
    expect(device).toMatchObject({ prisoner_id: null, staff_id: officer.id, staff_name: 'Dana Scully' });
    expect(ctx().app.tracking.registry.get(device.id)).toMatchObject({ staffId: officer.id, prisonerId: null });
    const bothAssign = await ctx().api('PUT', `/devices/${device.id}/assign`, { prisoner_id: prisoner.id, staff_id: officer.id });
    expect(bothAssign.statusCode).toBe(400);
    expect(bothAssign.json().message).toMatch(/^staff_id: /);
    const unknown = await ctx().api('PUT', `/devices/${device.id}/assign`, { staff_id: 987654 });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toMatch(/^staff_id/);
    // Moved to the prisoner: the officer loses it; back to the officer: the prisoner loses it.
    expect((await ctx().api('PUT', `/devices/${device.id}/assign`, { prisoner_id: prisoner.id })).json()).toMatchObject({ prisoner_id: prisoner.id, staff_id: null });
    const back = await ctx().api('PUT', `/devices/${device.id}/assign`, { staff_id: officer.id });
    expect(back.json()).toMatchObject({ prisoner_id: null, staff_id: officer.id });
    expect(ctx().app.tracking.registry.get(device.id)).toMatchObject({ staffId: officer.id, prisonerId: null });
    const res = await ctx().api('POST', '/ingest/positions', {
      positions: [{ device_id: device.id, secret: device.secret, latitude: 51.5, longitude: -0.12 }],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().stored).toBe(1);
    // Shown on the live map as staff, with no prisoner number.
    expect(ctx().app.tracking.snapshot()[device.id]).toMatchObject({ prisonerId: null, staffId: officer.id, name: 'Dana Scully' });
  });
});
