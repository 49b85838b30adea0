import { describe, expect, it } from 'vitest';
import { and, eq, inArray } from 'drizzle-orm';
import { geofenceAnswer, rectangleCorners, toGeoPoint } from '@prison/shared';
import { alerts, auditLog, geofenceStates } from '../../db/schema';
import { describeEachEngine } from '../../../test/test-db';
import { testConfig, useTestApp, writeApproved } from '../../../test/test-app';
import { buildApp } from '../../app';
import { addDevice, addPrisoner } from '../../tracking/tracking-test-kit';
import type { TestContext } from '../../../test/test-app';
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
  // No dwell: a fix across the boundary counts at once, as these tests expect.
  dwell_seconds: 0,
  ...overrides,
});

/** A tracked prisoner whose device reports through the gateway batch endpoint, one fix a second from an hour ago. */
async function trackedPrisonerAt(ctx: TestContext, firstName: string) {
  const prisoner = await addPrisoner(ctx, firstName, `Walker${++counter}`);
  const device = await addDevice(ctx, { prisoner_id: prisoner.id });
  let clock = Date.now() - 3_600_000;
  const at = async (latitude: number, longitude: number) => {
    clock += 1000;
    const fix = {
      device_id: device.id,
      secret: device.secret,
      latitude,
      longitude,
      timestamp: new Date(clock).toISOString(),
    };
    const res = await ctx.api('POST', '/ingest/positions', { positions: [fix] });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().stored).toBe(1);
  };
  return { device, at };
}

const geofenceAlerts = (ctx: TestContext, deviceId: string, geofenceId: string) =>
  ctx.database.db
    .select()
    .from(alerts)
    .where(and(eq(alerts.deviceId, deviceId), eq(alerts.kind, 'geofence'), eq(alerts.geofenceId, geofenceId)))
    .orderBy(alerts.id);

const polygon = (coordinates: [number, number][], overrides: Record<string, unknown> = {}) => ({
  geofence_id: uniqueId('polygon'),
  shape: 'Polygon',
  name: 'Yard',
  type: 'Negative',
  alert_type: 'Critical',
  coordinates,
  dwell_seconds: 0,
  ...overrides,
});

describeEachEngine('geofence API', (engine) => {
  const ctx = useTestApp(engine);

  it('adds a circle with the defaults, lists it, and loads it into the engine', async () => {
    const input = circle({ alert_type: undefined, dwell_seconds: undefined });
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
      dwell_seconds: 10,
      buffer_meters: 0,
      applies_to: null,
      schedule: null,
    });
    const list = await ctx().api('GET', '/geofence/all');
    expect(list.statusCode).toBe(200);
    expect(list.json()).toContainEqual(res.json());
    expect(
      ctx()
        .app.geofenceEngine.geofences()
        .map((g) => g.geofence_id),
    ).toContain(input.geofence_id);
    // Inside for the default dwell of 10 s: the violation starts.
    const device = uniqueId('device');
    const entered = Date.now();
    ctx().app.geofenceEngine.evaluate(device, 51.5, -0.12, new Date(entered));
    const transitions = ctx().app.geofenceEngine.evaluate(device, 51.5, -0.12, new Date(entered + 10_000));
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

    const audit = await ctx().database.db.select().from(auditLog).where(eq(auditLog.entityId, u.geofence_id)).orderBy(auditLog.id);
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
      [circle({ dwell_seconds: 301 }), /^dwell_seconds: /],
      [circle({ dwell_seconds: 2.5 }), /^dwell_seconds: /],
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
    // A type swap weakens the alarm: it applies once a second administrator approves (decision 041).
    const res = await writeApproved(ctx(), 'PUT', `/geofence/update/${input.geofence_id}`, {
      name: 'Kitchen',
      type: 'Negative',
      alert_type: 'Critical',
      dwell_seconds: 10,
    });
    expect(res.statusCode).toBe(200);
    const list = (await ctx().api('GET', '/geofence/all')).json() as { geofence_id: string }[];
    expect(list.find((g) => g.geofence_id === input.geofence_id)).toMatchObject({
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
    const audit = await ctx().database.db.select().from(auditLog).where(eq(auditLog.entityId, input.geofence_id)).orderBy(auditLog.id);
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
    const res = await writeApproved(ctx(), 'DELETE', `/geofence/delete/${input.geofence_id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe('Change to Workshop approved and applied.');
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
    const audit = await ctx().database.db.select().from(auditLog).where(eq(auditLog.entityId, input.geofence_id)).orderBy(auditLog.id);
    expect(audit.find((a) => a.action === 'delete')!.before).toMatchObject({ name: 'Workshop' });
    const again = await ctx().api('DELETE', `/geofence/delete/${input.geofence_id}`, { reason: 'Delete it again' });
    expect(again.statusCode).toBe(404);
    expect(again.json().message).toBe(`Geofence ${input.geofence_id} not found`);
  });

  it('tells browsers that geofences changed', async () => {
    const topics: string[] = [];
    const realtime = ctx().app.realtime;
    const { toBrowsers, toLocalBrowsers } = realtime;
    // Alert changes go through the cluster's alert feed, which emits to each process's own browsers (decision 039).
    realtime.toBrowsers = realtime.toLocalBrowsers = () =>
      ({ emit: (_event: string, topic: string) => topics.push(topic) }) as unknown as ReturnType<typeof toBrowsers>;
    try {
      await ctx().api('POST', '/geofence/add', circle());
    } finally {
      Object.assign(realtime, { toBrowsers, toLocalBrowsers });
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

    async function trackedPrisoner() {
      const { device, at } = await trackedPrisonerAt(ctx(), 'Fence');
      return { device, inside: () => at(LAT, LNG), outside: () => at(LAT + 0.01, LNG) };
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

    it('deleting a geofence ends its running violations, and only its own', async () => {
      const doomed = await negativeFence('Doomed yard');
      const kept = await negativeFence('Kept yard');
      const { device, inside, outside } = await trackedPrisoner();
      await inside();
      await outside();
      const [open] = await geofenceAlerts(ctx(), device.id, doomed);
      expect(open).toMatchObject({ endedAt: null, status: 'New' });
      expect(await geofenceAlerts(ctx(), device.id, kept)).toMatchObject([{ endedAt: null }]);

      const startedDelete = Date.now();
      expect((await writeApproved(ctx(), 'DELETE', `/geofence/delete/${doomed}`)).statusCode).toBe(200);

      const [ended] = await geofenceAlerts(ctx(), device.id, doomed);
      expect(ended!.endedAt).not.toBeNull();
      expect(ended!.endedAt!.getTime()).toBeGreaterThanOrEqual(startedDelete - 1000);
      expect(ended!.endedAt!.getTime()).toBeLessThanOrEqual(Date.now() + 1000);
      expect(ended).toMatchObject({ status: 'New', details: open!.details }); // ended, not acknowledged or resolved
      // Another zone's violation runs on.
      expect(await geofenceAlerts(ctx(), device.id, kept)).toMatchObject([{ endedAt: null }]);
      const audit = await ctx().database.db.select().from(auditLog).where(eq(auditLog.entityId, doomed)).orderBy(auditLog.id);
      expect(audit.map((a) => a.action)).toEqual(['create', 'delete']);

      // Still outside: nothing new for the deleted zone, nothing re-opened.
      await outside();
      expect(await geofenceAlerts(ctx(), device.id, doomed)).toMatchObject([{ id: open!.id, endedAt: ended!.endedAt }]);
      await writeApproved(ctx(), 'DELETE', `/geofence/delete/${kept}`);
    });

    it('changing the type of a geofence ends its running violations; other edits do not', async () => {
      const fenceId = await negativeFence('Exercise yard');
      const { device, inside, outside } = await trackedPrisoner();
      await inside();
      await outside();
      await inside(); // the first violation ends when the prisoner comes back
      // Resolved, so the next violation is an alert of its own rather than a repeat of this one.
      const [done] = await geofenceAlerts(ctx(), device.id, fenceId);
      await ctx().database.db.update(alerts).set({ status: 'Resolved' }).where(eq(alerts.id, done!.id));
      await outside(); // a second one is running
      const [first, second] = await geofenceAlerts(ctx(), device.id, fenceId);
      expect(first!.endedAt).not.toBeNull();
      expect(second!.endedAt).toBeNull();

      const renamed = await writeApproved(ctx(), 'PUT', `/geofence/update/${fenceId}`, {
        name: 'Big yard',
        alert_type: 'Warning',
        dwell_seconds: 5,
      });
      expect(renamed.statusCode).toBe(200);
      expect((await geofenceAlerts(ctx(), device.id, fenceId))[1]!.endedAt).toBeNull();

      const startedUpdate = Date.now();
      const retyped = await writeApproved(ctx(), 'PUT', `/geofence/update/${fenceId}`, { type: 'Positive' });
      expect(retyped.statusCode).toBe(200);

      const after = await geofenceAlerts(ctx(), device.id, fenceId);
      expect(after).toHaveLength(2);
      expect(after[0]!.endedAt).toEqual(first!.endedAt); // an ended violation keeps its end
      expect(after[1]!.endedAt).not.toBeNull();
      expect(after[1]!.endedAt!.getTime()).toBeGreaterThanOrEqual(startedUpdate - 1000);
      expect(
        await ctx().database.db.select().from(geofenceStates).where(eq(geofenceStates.geofenceId, fenceId)),
      ).toEqual([]);
      const audit = await ctx().database.db.select().from(auditLog).where(eq(auditLog.entityId, fenceId)).orderBy(auditLog.id);
      expect(audit.map((a) => a.action)).toEqual(['create', 'update', 'update']);
      expect(audit[2]!.before).toMatchObject({ type: 'Negative' });
      expect(audit[2]!.after).toMatchObject({ type: 'Positive' });
      await writeApproved(ctx(), 'DELETE', `/geofence/delete/${fenceId}`);
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
      expect((await writeApproved(ctx(), 'DELETE', `/geofence/delete/${fence.geofence_id}`)).statusCode).toBe(200);
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

  describe('changing the shape', () => {
    // Far from every other fence of this file. 0.001 degree of latitude is about 111 m.
    const LAT = 44.5;
    const LNG = 14.5;

    const trackedPrisoner = () => trackedPrisonerAt(ctx(), 'Shape');

    const stored = async (geofenceId: string) =>
      (await ctx().api('GET', '/geofence/all'))
        .json()
        .find((g: { geofence_id: string }) => g.geofence_id === geofenceId);

    it("changes a circle's radius, audited and keeping its id, and fixes are judged against the new circle", async () => {
      const fence = circle({ name: 'Chapel', center_lat: LAT, center_lng: LNG, radius: 100 });
      expect((await ctx().api('POST', '/geofence/add', fence)).statusCode).toBe(200);
      const { device, at } = await trackedPrisoner();
      // About 300 m north: outside the 100 m circle, so no alert.
      await at(LAT + 0.0027, LNG);
      expect(await geofenceAlerts(ctx(), device.id, fence.geofence_id)).toEqual([]);

      // A reshape waits for a second administrator (decision 041).
      const res = await writeApproved(ctx(), 'PUT', `/geofence/update/${fence.geofence_id}`, {
        shape: 'Circle',
        radius: 500,
        center_lat: LAT,
        center_lng: LNG,
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(await stored(fence.geofence_id)).toMatchObject({
        geofence_id: fence.geofence_id,
        name: 'Chapel',
        shape: 'Circle',
        radius: 500,
        center_lat: LAT,
        center_lng: LNG,
        coordinates: null,
      });
      const inEngine = ctx()
        .app.geofenceEngine.geofences()
        .find((g) => g.geofence_id === fence.geofence_id);
      expect(inEngine).toMatchObject({ radius: 500 });
      const audit = await ctx().database.db.select().from(auditLog).where(eq(auditLog.entityId, fence.geofence_id)).orderBy(auditLog.id);
      expect(audit.map((a) => a.action)).toEqual(['create', 'update']);
      expect(audit[1]!.before).toMatchObject({ radius: 100 });
      expect(audit[1]!.after).toMatchObject({ radius: 500 });

      // The same spot is inside the 500 m circle: the Positive zone's alert is raised.
      await at(LAT + 0.0027, LNG);
      expect(await geofenceAlerts(ctx(), device.id, fence.geofence_id)).toMatchObject([{ endedAt: null }]);
      await writeApproved(ctx(), 'DELETE', `/geofence/delete/${fence.geofence_id}`);
    });

    it("moves a polygon's points: the running violation ends and fixes are judged against the new polygon", async () => {
      const west = LNG + 0.01;
      const fence = polygon(
        [
          [LAT, west],
          [LAT + 0.002, west],
          [LAT + 0.002, west + 0.002],
          [LAT, west + 0.002],
        ],
        { name: 'Laundry', type: 'Positive', alert_type: 'Warning' },
      );
      expect((await ctx().api('POST', '/geofence/add', fence)).statusCode).toBe(200);
      const { device, at } = await trackedPrisoner();
      const first = [LAT + 0.001, west + 0.001] as const; // inside the first square
      const second = [LAT + 0.001, west + 0.005] as const; // inside the moved one only
      await at(...first);
      const [open] = await geofenceAlerts(ctx(), device.id, fence.geofence_id);
      expect(open).toMatchObject({ endedAt: null });

      // The same square, 0.004 degrees further east (a triangle, so the number of points changes too).
      const moved: [number, number][] = [
        [LAT, west + 0.004],
        [LAT + 0.003, west + 0.005],
        [LAT, west + 0.006],
      ];
      const res = await writeApproved(ctx(), 'PUT', `/geofence/update/${fence.geofence_id}`, {
        shape: 'Polygon',
        coordinates: moved,
      });
      expect(res.statusCode, res.body).toBe(200);
      const answered = moved.map(toGeoPoint);
      expect(await stored(fence.geofence_id)).toMatchObject({ shape: 'Polygon', name: 'Laundry', coordinates: answered, radius: null });
      // The old zone's violation is over; its state is gone with it.
      const [ended] = await geofenceAlerts(ctx(), device.id, fence.geofence_id);
      expect(ended!.endedAt).not.toBeNull();
      expect(
        await ctx().database.db.select().from(geofenceStates).where(eq(geofenceStates.geofenceId, fence.geofence_id)),
      ).toEqual([]);

      // Where the old square was is outside the new polygon: nothing new.
      await at(...first);
      expect(await geofenceAlerts(ctx(), device.id, fence.geofence_id)).toHaveLength(1);
      // Inside the new polygon: a violation again, folded into the zone's alert still open (seen twice, running).
      await at(...second);
      const after = await geofenceAlerts(ctx(), device.id, fence.geofence_id);
      expect(after).toHaveLength(1);
      expect(after[0]).toMatchObject({ id: ended!.id, endedAt: null, repeatCount: 1 });
      await writeApproved(ctx(), 'DELETE', `/geofence/delete/${fence.geofence_id}`);
    });

    it('turns a circle into a rectangle, clearing the circle fields', async () => {
      const fence = circle({ center_lat: LAT + 1, center_lng: LNG + 1 });
      await ctx().api('POST', '/geofence/add', fence);
      const corners = rectangleCorners(LAT + 1, LNG + 1, LAT + 1.001, LNG + 1.002);
      const res = await writeApproved(ctx(), 'PUT', `/geofence/update/${fence.geofence_id}`, {
        shape: 'Rectangle',
        coordinates: corners,
        name: 'Gate',
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(await stored(fence.geofence_id)).toMatchObject({
        shape: 'Rectangle',
        name: 'Gate',
        coordinates: corners.map(toGeoPoint),
        radius: null,
        center_lat: null,
        center_lng: null,
      });
    });

    it('refuses bad geometry with 400 naming the field, changing nothing', async () => {
      const square: [number, number][] = [
        [LAT + 2, LNG + 2],
        [LAT + 2.001, LNG + 2],
        [LAT + 2.001, LNG + 2.001],
        [LAT + 2, LNG + 2.001],
      ];
      const fence = polygon(square, { name: 'Kept' });
      expect((await ctx().api('POST', '/geofence/add', fence)).statusCode).toBe(200);
      const original = await stored(fence.geofence_id);
      const ring = (n: number) =>
        Array.from({ length: n }, (_, i): [number, number] => [
          LAT + 2 + 0.01 * Math.sin((2 * Math.PI * i) / n),
          LNG + 2 + 0.01 * Math.cos((2 * Math.PI * i) / n),
        ]);
      const cases: [Record<string, unknown>, RegExp][] = [
        [
          {
            shape: 'Polygon',
            coordinates: [
              [0, 0],
              [1, 1],
              [1, 0],
              [0, 1],
            ],
          },
          new RegExp(`^${EDGES_CROSS_MESSAGE}$`),
        ],
        // A valid rename with a bad shape changes neither.
        [
          {
            name: 'Renamed',
            shape: 'Polygon',
            coordinates: [
              [0, 0],
              [1, 1],
              [1, 0],
              [0, 1],
            ],
          },
          new RegExp(`^${EDGES_CROSS_MESSAGE}$`),
        ],
        [
          {
            shape: 'Polygon',
            coordinates: [
              [0, 0],
              [0, 1],
            ],
          },
          /^coordinates: a polygon needs at least 3 points/,
        ],
        [{ shape: 'Polygon', coordinates: ring(1001) }, /^coordinates: a polygon has at most 1000 points/],
        [
          {
            shape: 'Polygon',
            coordinates: [
              [0, -100],
              [1, 0],
              [0, 100],
            ],
          },
          /^coordinates: a polygon must span less than 180 degrees/,
        ],
        [
          {
            shape: 'Polygon',
            coordinates: [
              [0, 0],
              [0, 200],
              [1, 0],
            ],
          },
          /^coordinates\.1\.1: /,
        ],
        [
          {
            shape: 'Rectangle',
            coordinates: [
              [0, 0],
              [0, 1],
              [1, 2],
              [1, 0],
            ],
          },
          /^coordinates: the 4 corners must form a rectangle/,
        ],
        [{ shape: 'Rectangle', coordinates: square.slice(0, 3) }, /^coordinates: a rectangle has 4 corners/],
        [{ shape: 'Circle', radius: 0, center_lat: LAT, center_lng: LNG }, /^radius: /],
        [{ shape: 'Circle', radius: 50, center_lat: 91, center_lng: LNG }, /^center_lat: /],
        [{ shape: 'Circle', radius: 50, center_lat: LAT }, /^center_lng: /],
        [{ shape: 'Triangle', coordinates: square }, /^shape: /],
        // Geometry without its shape is refused, not dropped unseen.
        [{ radius: 50 }, /^radius: shape is required to change the geometry/],
        [{ name: 'Renamed', coordinates: square }, /^coordinates: shape is required to change the geometry/],
      ];
      for (const [body, message] of cases) {
        const res = await ctx().api('PUT', `/geofence/update/${fence.geofence_id}`, body);
        expect(res.statusCode, JSON.stringify(body).slice(0, 200)).toBe(400);
        expect(res.json().message, JSON.stringify(body).slice(0, 200)).toMatch(message);
      }
      expect(await stored(fence.geofence_id)).toEqual(original);
      const inEngine = ctx()
        .app.geofenceEngine.geofences()
        .find((g) => g.geofence_id === fence.geofence_id);
      expect(inEngine && geofenceAnswer(inEngine)).toEqual(original);
      const audit = await ctx().database.db.select().from(auditLog).where(eq(auditLog.entityId, fence.geofence_id)).orderBy(auditLog.id);
      expect(audit.map((a) => a.action)).toEqual(['create']);
    });
  });

  it('documents the update with its optional shape in the API documentation', async () => {
    const res = await ctx().app.inject({ method: 'GET', url: '/api/docs/json', headers: { cookie: ctx().cookie } });
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    const body = JSON.stringify(res.json().paths['/api/v1/geofence/update/{id}'].put.requestBody);
    for (const field of ['"radius"', '"coordinates"', '"Polygon"', '"Rectangle"']) expect(body).toContain(field);
  });

  it('needs a session', async () => {
    const res = await ctx().app.inject({ method: 'GET', url: '/api/v1/geofence/all' });
    expect(res.statusCode).toBe(401);
  });
});
