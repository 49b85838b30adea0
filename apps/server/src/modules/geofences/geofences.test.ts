import { describe, expect, it } from 'vitest';
import { and, eq, inArray } from 'drizzle-orm';
import { rectangleCorners } from '@prison/shared';
import { alerts, auditLog, geofenceStates } from '../../db/schema';
import { describeEachEngine } from '../../../test/test-db';
import { testConfig, useTestApp } from '../../../test/test-app';
import { buildApp } from '../../app';
import { addDevice, addPrisoner } from '../../tracking/tracking-test-kit';
import { EDGES_CROSS_MESSAGE } from './geofence-service';

let counter = 0;
const uniqueId = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${++counter}`;

const circle = (overrides: Record<string, unknown> = {}) => ({
  geofence_id: uniqueId('circle'),
  shape: 'Circle',
  name: 'Workshop',
  type: 'Positive',
  alert_type: 'Warning',
  radius: 120,
  center_lat: 51.5,
  center_lng: -0.12,
  ...overrides,
});

const polygon = (coordinates: [number, number][], overrides: Record<string, unknown> = {}) => ({
  geofence_id: uniqueId('polygon'),
  shape: 'Polygon',
  name: 'Yard',
  type: 'Negative',
  alert_type: 'Critical',
  coordinates,
  ...overrides,
});

describeEachEngine('geofence API', (engine) => {
  const ctx = useTestApp(engine);

  it('adds a circle with the defaults, lists it, and loads it into the engine', async () => {
    const input = circle({ alert_type: undefined });
    const res = await ctx().api('POST', '/geofence/add', input);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      geofence_id: input.geofence_id,
      shape: 'Circle',
      name: 'Workshop',
      type: 'Positive',
      alert_type: 'Informational',
      radius: 120,
      center_lat: 51.5,
      center_lng: -0.12,
      coordinates: null,
      dwell_seconds: 0,
      buffer_meters: 0,
    });
    const list = await ctx().api('GET', '/geofence/all');
    expect(list.statusCode).toBe(200);
    expect(list.json()).toContainEqual(res.json());
    expect(
      ctx()
        .app.geofenceEngine.geofences()
        .map((g) => g.geofence_id),
    ).toContain(input.geofence_id);
    const transitions = ctx().app.geofenceEngine.evaluate(uniqueId('device'), 51.5, -0.12, new Date());
    expect(transitions.map((t) => [t.kind, t.geofence.geofence_id])).toContainEqual(['start', input.geofence_id]);
  });

  it('adds a concave polygon and a rectangle, and writes an audit entry for each', async () => {
    const u = polygon(
      [
        [0, 0],
        [0.003, 0],
        [0.003, 0.001],
        [0.001, 0.001],
        [0.001, 0.002],
        [0.003, 0.002],
        [0.003, 0.003],
        [0, 0.003],
        [0, 0],
      ],
      {
        dwell_seconds: 30,
        buffer_meters: 5,
      },
    );
    const res = await ctx().api('POST', '/geofence/add', u);
    expect(res.statusCode).toBe(200);
    // The closing point equal to the first is not an edge: the stored ring has 8 corners.
    expect(res.json()).toMatchObject({ shape: 'Polygon', dwell_seconds: 30, buffer_meters: 5, radius: null });
    expect(res.json().coordinates).toHaveLength(8);
    const rect = { ...polygon(rectangleCorners(10, 20, 10.01, 20.02)), shape: 'Rectangle', type: 'Positive' };
    expect((await ctx().api('POST', '/geofence/add', rect)).statusCode).toBe(200);

    const audit = await ctx().database.db.select().from(auditLog).where(eq(auditLog.entityId, u.geofence_id));
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ action: 'create', entity: 'geofence', actor: 'warden' });
    expect(audit[0]!.after).toMatchObject({ geofence_id: u.geofence_id, name: 'Yard' });
  });

  it('refuses bad input with 400 naming the field, storing nothing', async () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [circle({ name: '  ' }), /^name: name is required/],
      [circle({ type: 'Sideways' }), /^type: /],
      [circle({ alert_type: 'Loud' }), /^alert_type: /],
      [circle({ radius: 0 }), /^radius: /],
      [circle({ radius: -5 }), /^radius: /],
      [circle({ center_lat: 91 }), /^center_lat: /],
      [circle({ center_lng: undefined }), /^center_lng: /],
      [circle({ shape: 'Triangle' }), /^shape: /],
      [circle({ geofence_id: '' }), /^geofence_id: /],
      [circle({ dwell_seconds: -1 }), /^dwell_seconds: /],
      [circle({ buffer_meters: -1 }), /^buffer_meters: /],
      [
        polygon([
          [0, 0],
          [0, 1],
        ]),
        /^coordinates: a polygon needs at least 3 points/,
      ],
      [
        polygon([
          [0, 0],
          [0, 1],
          [0, 1],
          [0, 0],
        ]),
        /^coordinates: a polygon needs at least 3 points/,
      ],
      [
        polygon([
          [0, 0],
          [1, 1],
          [1, 0],
          [0, 1],
        ]),
        new RegExp(`^${EDGES_CROSS_MESSAGE}$`),
      ],
      // Points on one line: the closing edge runs back over the others.
      [
        polygon([
          [0, 0],
          [1, 1],
          [2, 2],
        ]),
        new RegExp(`^${EDGES_CROSS_MESSAGE}$`),
      ],
      [
        polygon([
          [0, 0],
          [0, 200],
          [1, 0],
        ]),
        /^coordinates\.1\.1: /,
      ],
      [
        {
          ...polygon([
            [0, 0],
            [0, 1],
            [1, 1],
          ]),
          shape: 'Rectangle',
        },
        /^coordinates: a rectangle has 4 corners/,
      ],
      [
        {
          ...polygon([
            [0, 0],
            [0, 1],
            [1, 2],
            [1, 0],
          ]),
          shape: 'Rectangle',
        },
        /^coordinates: the 4 corners must form a rectangle/,
      ],
    ];
    const before = (await ctx().api('GET', '/geofence/all')).json().length;
    for (const [body, message] of cases) {
      const res = await ctx().api('POST', '/geofence/add', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().message, JSON.stringify(body)).toMatch(message);
    }
    expect((await ctx().api('GET', '/geofence/all')).json()).toHaveLength(before);
  });

  it('answers 409 for a duplicate geofence_id and keeps the first', async () => {
    const first = circle();
    expect((await ctx().api('POST', '/geofence/add', first)).statusCode).toBe(200);
    const again = await ctx().api('POST', '/geofence/add', { ...first, name: 'Other' });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(`geofence_id: ${first.geofence_id} already exists`);
    const stored = (await ctx().api('GET', '/geofence/all'))
      .json()
      .find((g: { geofence_id: string }) => g.geofence_id === first.geofence_id);
    expect(stored.name).toBe('Workshop');
  });

  it('renames and changes a geofence, audited with before and after, and reloads the engine', async () => {
    const input = circle();
    await ctx().api('POST', '/geofence/add', input);
    const res = await ctx().api('PUT', `/geofence/update/${input.geofence_id}`, {
      name: 'Kitchen',
      type: 'Negative',
      alert_type: 'Critical',
      dwell_seconds: 10,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      geofence_id: input.geofence_id,
      name: 'Kitchen',
      type: 'Negative',
      alert_type: 'Critical',
      dwell_seconds: 10,
      radius: 120,
    });
    const inEngine = ctx()
      .app.geofenceEngine.geofences()
      .find((g) => g.geofence_id === input.geofence_id);
    expect(inEngine).toMatchObject({ name: 'Kitchen', type: 'Negative' });
    const audit = await ctx().database.db.select().from(auditLog).where(eq(auditLog.entityId, input.geofence_id));
    const update = audit.find((a) => a.action === 'update')!;
    expect(update.before).toMatchObject({ name: 'Workshop', type: 'Positive' });
    expect(update.after).toMatchObject({ name: 'Kitchen', type: 'Negative' });
  });

  it('refuses a bad update with 400 and an unknown id with 404', async () => {
    const input = circle();
    await ctx().api('POST', '/geofence/add', input);
    const empty = await ctx().api('PUT', `/geofence/update/${input.geofence_id}`, {});
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toBe('body: no field to update');
    const badName = await ctx().api('PUT', `/geofence/update/${input.geofence_id}`, { name: '' });
    expect(badName.statusCode).toBe(400);
    expect(badName.json().message).toMatch(/^name: /);
    const badType = await ctx().api('PUT', `/geofence/update/${input.geofence_id}`, { type: 'Maybe' });
    expect(badType.statusCode).toBe(400);
    expect(badType.json().message).toMatch(/^type: /);
    const unknown = await ctx().api('PUT', '/geofence/update/no-such-geofence', { name: 'X' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe('Geofence no-such-geofence not found');
  });

  it('deletes a geofence with its engine states, and answers 404 for an unknown one', async () => {
    const input = circle();
    await ctx().api('POST', '/geofence/add', input);
    await ctx()
      .database.db.insert(geofenceStates)
      .values({ deviceId: 'dev-1', geofenceId: input.geofence_id, violating: true, since: new Date() });
    const res = await ctx().api('DELETE', `/geofence/delete/${input.geofence_id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'Geofence Workshop deleted' });
    expect(
      (await ctx().api('GET', '/geofence/all')).json().map((g: { geofence_id: string }) => g.geofence_id),
    ).not.toContain(input.geofence_id);
    expect(
      ctx()
        .app.geofenceEngine.geofences()
        .map((g) => g.geofence_id),
    ).not.toContain(input.geofence_id);
    expect(
      await ctx().database.db.select().from(geofenceStates).where(eq(geofenceStates.geofenceId, input.geofence_id)),
    ).toEqual([]);
    const audit = await ctx().database.db.select().from(auditLog).where(eq(auditLog.entityId, input.geofence_id));
    expect(audit.find((a) => a.action === 'delete')!.before).toMatchObject({ name: 'Workshop' });
    const again = await ctx().api('DELETE', `/geofence/delete/${input.geofence_id}`);
    expect(again.statusCode).toBe(404);
    expect(again.json().message).toBe(`Geofence ${input.geofence_id} not found`);
  });

  it('tells browsers that geofences changed', async () => {
    const topics: string[] = [];
    const realtime = ctx().app.realtime;
    const original = realtime.toBrowsers;
    realtime.toBrowsers = () =>
      ({ emit: (_event: string, topic: string) => topics.push(topic) }) as unknown as ReturnType<typeof original>;
    try {
      await ctx().api('POST', '/geofence/add', circle());
    } finally {
      realtime.toBrowsers = original;
    }
    expect(topics).toEqual(['geofences', 'alerts']);
  });

  it('loads the geofences and the running violations when the server starts', async () => {
    const fence = polygon(rectangleCorners(30, 30, 30.01, 30.01), { name: 'Perimeter' });
    expect((await ctx().api('POST', '/geofence/add', fence)).statusCode).toBe(200);
    await ctx()
      .database.db.insert(geofenceStates)
      .values([
        {
          deviceId: 'escaped-before-restart',
          geofenceId: fence.geofence_id,
          violating: true,
          since: new Date(Date.now() - 60_000),
        },
        {
          deviceId: 'back-before-restart',
          geofenceId: fence.geofence_id,
          violating: false,
          since: new Date(Date.now() - 60_000),
        },
      ]);
    // A second server over the same database, as after a restart.
    const restarted = await buildApp({ config: testConfig(), database: ctx().database, logger: false });
    try {
      await restarted.ready();
      const engine = restarted.geofenceEngine;
      expect(engine.geofences().map((g) => g.geofence_id)).toContain(fence.geofence_id);
      const outside = (device: string) =>
        engine.evaluate(device, 29.9, 29.9, new Date()).filter((t) => t.geofence.geofence_id === fence.geofence_id);
      expect(outside('escaped-before-restart')).toEqual([]); // already alerted before the restart
      expect(outside('back-before-restart').map((t) => t.kind)).toEqual(['start']);
    } finally {
      await restarted.close();
    }
  });

  describe('open alerts of a geofence that goes away', () => {
    // Far from every other fence of this file. A Negative zone is left: one fix inside, then one about 1.1 km north.
    const LAT = 40.5;
    const LNG = 10.5;
    let clock = Date.now() - 3_600_000;

    /** A tracked prisoner whose device reports through the gateway batch endpoint, one fix a second. */
    async function trackedPrisoner() {
      const prisoner = await addPrisoner(ctx(), 'Fence', `Walker${++counter}`);
      const device = await addDevice(ctx(), { prisoner_id: prisoner.id });
      const send = async (lat: number) => {
        clock += 1000;
        const fix = {
          device_id: device.id,
          secret: device.secret,
          latitude: lat,
          longitude: LNG,
          timestamp: new Date(clock).toISOString(),
        };
        const res = await ctx().api('POST', '/ingest/positions', { positions: [fix] });
        expect(res.statusCode, res.body).toBe(200);
        expect(res.json().stored).toBe(1);
      };
      return { device, inside: () => send(LAT), outside: () => send(LAT + 0.01) };
    }

    async function negativeFence(name: string) {
      const fence = circle({
        name,
        type: 'Negative',
        alert_type: 'Critical',
        radius: 200,
        center_lat: LAT,
        center_lng: LNG,
      });
      expect((await ctx().api('POST', '/geofence/add', fence)).statusCode).toBe(200);
      return fence.geofence_id as string;
    }

    const geofenceAlerts = (deviceId: string, geofenceId: string) =>
      ctx()
        .database.db.select()
        .from(alerts)
        .where(and(eq(alerts.deviceId, deviceId), eq(alerts.kind, 'geofence'), eq(alerts.geofenceId, geofenceId)))
        .orderBy(alerts.id);

    it('deleting a geofence ends its running violations, and only its own', async () => {
      const doomed = await negativeFence('Doomed yard');
      const kept = await negativeFence('Kept yard');
      const { device, inside, outside } = await trackedPrisoner();
      await inside();
      await outside();
      const [open] = await geofenceAlerts(device.id, doomed);
      expect(open).toMatchObject({ endedAt: null, status: 'New' });
      expect(await geofenceAlerts(device.id, kept)).toMatchObject([{ endedAt: null }]);

      const startedDelete = Date.now();
      expect((await ctx().api('DELETE', `/geofence/delete/${doomed}`)).statusCode).toBe(200);

      const [ended] = await geofenceAlerts(device.id, doomed);
      expect(ended!.endedAt).not.toBeNull();
      expect(ended!.endedAt!.getTime()).toBeGreaterThanOrEqual(startedDelete - 1000);
      expect(ended!.endedAt!.getTime()).toBeLessThanOrEqual(Date.now() + 1000);
      expect(ended).toMatchObject({ status: 'New', details: open!.details }); // ended, not acknowledged or resolved
      // Another zone's violation runs on.
      expect(await geofenceAlerts(device.id, kept)).toMatchObject([{ endedAt: null }]);
      const audit = await ctx().database.db.select().from(auditLog).where(eq(auditLog.entityId, doomed));
      expect(audit.map((a) => a.action)).toEqual(['create', 'delete']);

      // Still outside: nothing new for the deleted zone, nothing re-opened.
      await outside();
      expect(await geofenceAlerts(device.id, doomed)).toMatchObject([{ id: open!.id, endedAt: ended!.endedAt }]);
      await ctx().api('DELETE', `/geofence/delete/${kept}`);
    });

    it('changing the type of a geofence ends its running violations; other edits do not', async () => {
      const fenceId = await negativeFence('Exercise yard');
      const { device, inside, outside } = await trackedPrisoner();
      await inside();
      await outside();
      await inside(); // the first violation ends when the prisoner comes back
      await outside(); // a second one is running
      const [first, second] = await geofenceAlerts(device.id, fenceId);
      expect(first!.endedAt).not.toBeNull();
      expect(second!.endedAt).toBeNull();

      const renamed = await ctx().api('PUT', `/geofence/update/${fenceId}`, {
        name: 'Big yard',
        alert_type: 'Warning',
        dwell_seconds: 5,
      });
      expect(renamed.statusCode).toBe(200);
      expect((await geofenceAlerts(device.id, fenceId))[1]!.endedAt).toBeNull();

      const startedUpdate = Date.now();
      const retyped = await ctx().api('PUT', `/geofence/update/${fenceId}`, { type: 'Positive' });
      expect(retyped.statusCode).toBe(200);

      const after = await geofenceAlerts(device.id, fenceId);
      expect(after).toHaveLength(2);
      expect(after[0]!.endedAt).toEqual(first!.endedAt); // an ended violation keeps its end
      expect(after[1]!.endedAt).not.toBeNull();
      expect(after[1]!.endedAt!.getTime()).toBeGreaterThanOrEqual(startedUpdate - 1000);
      expect(
        await ctx().database.db.select().from(geofenceStates).where(eq(geofenceStates.geofenceId, fenceId)),
      ).toEqual([]);
      const audit = await ctx().database.db.select().from(auditLog).where(eq(auditLog.entityId, fenceId));
      expect(audit.map((a) => a.action)).toEqual(['create', 'update', 'update']);
      expect(audit[2]!.before).toMatchObject({ type: 'Negative' });
      expect(audit[2]!.after).toMatchObject({ type: 'Positive' });
      await ctx().api('DELETE', `/geofence/delete/${fenceId}`);
    });

    it('ends an open geofence alert stored without a running state, leaving other kinds alone', async () => {
      const fence = circle({ center_lat: LAT + 1, center_lng: LNG + 1 });
      await ctx().api('POST', '/geofence/add', fence);
      const row = (kind: string, endedAt: Date | null = null) => ({
        alertType: 'Critical',
        kind,
        details: `${kind} alert`,
        date: '2026-01-01',
        timestamp: new Date('2026-01-01T10:00:00Z'),
        deviceId: 'no-such-device',
        geofenceId: fence.geofence_id as string,
        endedAt,
      });
      const earlier = new Date('2026-01-01T10:05:00Z');
      const inserted = await ctx()
        .database.db.insert(alerts)
        .values([row('geofence'), row('geofence', earlier), row('manual')])
        .returning({ id: alerts.id });
      expect((await ctx().api('DELETE', `/geofence/delete/${fence.geofence_id}`)).statusCode).toBe(200);
      const stored = await ctx()
        .database.db.select()
        .from(alerts)
        .where(
          inArray(
            alerts.id,
            inserted.map((r) => r.id),
          ),
        )
        .orderBy(alerts.id);
      expect(stored[0]!.endedAt).not.toBeNull();
      expect(stored[1]!.endedAt).toEqual(earlier);
      expect(stored[2]!.endedAt).toBeNull();
    });
  });

  it('needs a session', async () => {
    const res = await ctx().app.inject({ method: 'GET', url: '/api/v1/geofence/all' });
    expect(res.statusCode).toBe(401);
  });
});
