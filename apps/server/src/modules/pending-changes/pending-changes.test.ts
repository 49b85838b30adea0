// Weakening an alarm takes two people (decision 041), on the real app and database, both engines:
// the Perimeter lowered by one administrator stays Critical and alerting until another approves; a refusal keeps
// it; the requester cannot approve; each step is audited. Then by enumeration: each weakening kind waits, each
// strengthening kind applies at once.
import { expect, it } from 'vitest';
import { and, eq, inArray } from 'drizzle-orm';
import { alerts, auditLog, geofences } from '../../db/schema';
import { describeEachEngine } from '../../../test/test-db';
import { loginAnotherAdmin, useTestApp, type TestContext } from '../../../test/test-app';
import { addDevice, addPrisoner } from '../../tracking/tracking-test-kit';

let counter = 0;
const uniqueId = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${++counter}`;

const CENTRE = { lat: 51.5, lng: -0.12 };
/** About 1.1 km north of the centre: outside a 500 m perimeter. */
const OUTSIDE = { lat: 51.51, lng: -0.12 };

const perimeter = (overrides: Record<string, unknown> = {}) => ({
  geofence_id: uniqueId('perimeter'),
  shape: 'Circle',
  name: 'Perimeter',
  type: 'Negative',
  alert_type: 'Critical',
  radius: 500,
  center_lat: CENTRE.lat,
  center_lng: CENTRE.lng,
  dwell_seconds: 0, // alerts at the first fix outside: these tests are about who may weaken, not the dwell
  ...overrides,
});

/** A tracked prisoner whose device reports through the batch endpoint, one fix a second from an hour ago. */
async function trackedPrisoner(ctx: TestContext) {
  const prisoner = await addPrisoner(ctx, 'Ray', `Runner${++counter}`);
  const device = await addDevice(ctx, { prisoner_id: prisoner.id });
  let clock = Date.now() - 3_600_000;
  const at = async ({ lat, lng }: { lat: number; lng: number }) => {
    clock += 1000;
    const fix = { device_id: device.id, secret: device.secret, latitude: lat, longitude: lng, timestamp: new Date(clock).toISOString() };
    const res = await ctx.api('POST', '/ingest/positions', { positions: [fix] });
    expect(res.statusCode, res.body).toBe(200);
  };
  return { prisoner, device, at };
}

const storedGeofence = async (ctx: TestContext, id: string) =>
  (await ctx.api('GET', '/geofence/all')).json().find((g: { geofence_id: string }) => g.geofence_id === id);

describeEachEngine('two people to weaken an alarm', (engine) => {
  const ctx = useTestApp(engine);

  it('the Perimeter lowered to Informational stays Critical and alerting until a second administrator approves; a refusal keeps it; the requester cannot approve; every step is audited', async () => {
    const fence = perimeter();
    expect((await ctx().api('POST', '/geofence/add', fence)).statusCode).toBe(200);
    const { device, at } = await trackedPrisoner(ctx());
    await at(CENTRE);

    // No reason: refused, naming the field, nothing pending.
    const bare = await ctx().api('PUT', `/geofence/update/${fence.geofence_id}`, { alert_type: 'Informational' });
    expect(bare.statusCode).toBe(400);
    expect(bare.json().message).toMatch(/^reason: /);
    expect((await ctx().api('GET', `/pending-changes?target_id=${fence.geofence_id}`)).json().data).toEqual([]);
    // Dots are not a reason.
    expect((await ctx().api('PUT', `/geofence/update/${fence.geofence_id}`, { alert_type: 'Informational', reason: '..........' })).json().message).toMatch(/^reason: must say why in words/);

    const asked = await ctx().api('PUT', `/geofence/update/${fence.geofence_id}`, {
      alert_type: 'Informational',
      reason: 'Night drill: the perimeter alarm is too loud',
    });
    expect(asked.statusCode, asked.body).toBe(202);
    expect(asked.json()).toMatchObject({
      geofence_id: fence.geofence_id,
      alert_type: 'Critical',
      pending: {
        target_type: 'geofence',
        target_id: fence.geofence_id,
        target_name: 'Perimeter',
        kind: 'update',
        changes: ['Alert level: Critical → Informational'],
        reason: 'Night drill: the perimeter alarm is too loud',
        requested_by: 'warden',
        decision: null,
      },
    });
    const firstId = asked.json().pending.id as number;
    expect((await storedGeofence(ctx(), fence.geofence_id)).alert_type).toBe('Critical');
    // A second request while one waits is refused.
    expect((await ctx().api('DELETE', `/geofence/delete/${fence.geofence_id}`, { reason: 'Remove it instead' })).statusCode).toBe(409);

    // Still alerting as Critical: the prisoner walks out.
    await at(OUTSIDE);
    const raised = await ctx()
      .database.db.select()
      .from(alerts)
      .where(and(eq(alerts.deviceId, device.id), eq(alerts.geofenceId, fence.geofence_id)));
    expect(raised.map((a) => a.alertType)).toEqual(['Critical']);

    // The requester cannot approve (nor refuse) their own change.
    const own = await ctx().api('POST', `/pending-changes/${firstId}/approve`, {});
    expect(own.statusCode).toBe(403);
    expect((await ctx().api('POST', `/pending-changes/${firstId}/refuse`, {})).statusCode).toBe(403);

    // A second administrator refuses: the Perimeter stays Critical.
    const second = await loginAnotherAdmin(ctx());
    const refused = await second('POST', `/pending-changes/${firstId}/refuse`, { note: 'Not during a drill' });
    expect(refused.statusCode, refused.body).toBe(200);
    expect(refused.json().change).toMatchObject({ decision: 'refused', decision_note: 'Not during a drill' });
    expect((await second('POST', `/pending-changes/${firstId}/approve`, {})).statusCode).toBe(409);
    expect((await storedGeofence(ctx(), fence.geofence_id)).alert_type).toBe('Critical');

    // Asked again, approved by the second: Informational from then on.
    const again = await ctx().api('PUT', `/geofence/update/${fence.geofence_id}`, {
      alert_type: 'Informational',
      reason: 'The outer fence is being rebuilt; patrols cover it',
    });
    expect(again.statusCode).toBe(202);
    const secondId = again.json().pending.id as number;
    const listed = (await second('GET', '/pending-changes')).json().data as { id: number }[];
    expect(listed.map((c) => c.id)).toContain(secondId);
    expect(listed.map((c) => c.id)).not.toContain(firstId);
    const approved = await second('POST', `/pending-changes/${secondId}/approve`, {});
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json().change).toMatchObject({ decision: 'approved', requested_by: 'warden' });
    expect((await storedGeofence(ctx(), fence.geofence_id)).alert_type).toBe('Informational');
    await at(CENTRE);
    await at(OUTSIDE);
    const after = await ctx()
      .database.db.select()
      .from(alerts)
      .where(and(eq(alerts.deviceId, device.id), eq(alerts.geofenceId, fence.geofence_id)))
      .orderBy(alerts.id);
    expect(after.map((a) => a.alertType)).toEqual(['Critical', 'Informational']);

    const trail = await ctx()
      .database.db.select()
      .from(auditLog)
      .where(
        and(
          inArray(auditLog.entity, ['pending_change', 'geofence']),
          inArray(auditLog.entityId, [String(firstId), String(secondId), fence.geofence_id]),
        ),
      )
      .orderBy(auditLog.id);
    expect(trail.map((row) => [row.entity, row.action, row.actor.startsWith('second') ? 'second' : row.actor])).toEqual([
      ['geofence', 'create', 'warden'],
      ['pending_change', 'request', 'warden'],
      ['pending_change', 'refuse', 'second'],
      ['pending_change', 'request', 'warden'],
      ['geofence', 'update', 'second'],
      ['pending_change', 'approve', 'second'],
    ]);
  });

  // Each kind of change, from a starting geofence, and whether it weakens the alarm.
  interface Case {
    kind: string;
    start?: Record<string, unknown>;
    change: Record<string, unknown> | 'delete';
  }
  const weakening = (prisoners: number[]): Case[] => [
    { kind: 'lower level', change: { alert_type: 'Warning' } },
    { kind: 'longer dwell', change: { dwell_seconds: 300 } },
    { kind: 'wider buffer', change: { buffer_meters: 50 } },
    { kind: 'scope: everyone to chosen prisoners', change: { applies_to: { prisoner_ids: [prisoners[0]] } } },
    { kind: 'scope: fewer prisoners', start: { applies_to: { prisoner_ids: prisoners } }, change: { applies_to: { prisoner_ids: [prisoners[1]] } } },
    { kind: 'a schedule added', change: { schedule: [{ days: [1, 2, 3, 4, 5], start: '09:00', end: '17:00' }] } },
    {
      kind: 'a schedule narrowed',
      start: { schedule: [{ days: [1, 2, 3, 4, 5], start: '09:00', end: '17:00' }] },
      change: { schedule: [{ days: [1, 2, 3], start: '09:00', end: '17:00' }] },
    },
    { kind: 'Negative to Positive', change: { type: 'Positive' } },
    { kind: 'Positive to Negative', start: { type: 'Positive' }, change: { type: 'Negative' } },
    { kind: 'reshape', change: { shape: 'Circle', radius: 500, center_lat: 51.6, center_lng: -0.12 } },
    { kind: 'a rename mixed with a lower level', change: { name: 'Outer fence', alert_type: 'Informational' } },
    { kind: 'delete', change: 'delete' },
  ];
  const strengthening = (prisoners: number[]): Case[] => [
    { kind: 'higher level', start: { alert_type: 'Warning' }, change: { alert_type: 'Critical' } },
    { kind: 'shorter dwell', start: { dwell_seconds: 60 }, change: { dwell_seconds: 0 } },
    { kind: 'narrower buffer', start: { buffer_meters: 20 }, change: { buffer_meters: 5 } },
    { kind: 'scope: chosen prisoners to everyone', start: { applies_to: { prisoner_ids: [prisoners[0]] } }, change: { applies_to: null } },
    { kind: 'scope: more prisoners', start: { applies_to: { prisoner_ids: [prisoners[0]] } }, change: { applies_to: { prisoner_ids: prisoners } } },
    { kind: 'schedule removed', start: { schedule: [{ days: [1], start: '09:00', end: '17:00' }] }, change: { schedule: null } },
    {
      kind: 'schedule widened',
      start: { schedule: [{ days: [1], start: '09:00', end: '17:00' }] },
      change: { schedule: [{ days: [1, 2], start: '08:00', end: '18:00' }] },
    },
    { kind: 'rename', change: { name: 'Outer fence' } },
  ];

  it('each weakening kind waits for approval with the geofence unchanged; without a reason it is a 400 and nothing waits', async () => {
    const prisoners = [(await addPrisoner(ctx())).id, (await addPrisoner(ctx())).id];
    for (const { kind, start, change } of weakening(prisoners)) {
      const fence = perimeter(start);
      expect((await ctx().api('POST', '/geofence/add', fence)).statusCode, kind).toBe(200);
      const before = await storedGeofence(ctx(), fence.geofence_id);
      const send = (body: Record<string, unknown>) =>
        change === 'delete'
          ? ctx().api('DELETE', `/geofence/delete/${fence.geofence_id}`, body)
          : ctx().api('PUT', `/geofence/update/${fence.geofence_id}`, { ...change, ...body });
      const bare = await send({});
      expect(bare.statusCode, `${kind}: ${bare.body}`).toBe(400);
      expect(bare.json().message, kind).toMatch(/^reason: /);
      expect((await ctx().api('GET', `/pending-changes?target_id=${fence.geofence_id}`)).json().data, kind).toEqual([]);

      const asked = await send({ reason: `Testing ${kind}` });
      expect(asked.statusCode, `${kind}: ${asked.body}`).toBe(202);
      expect(asked.json().pending, kind).toMatchObject({ kind: change === 'delete' ? 'delete' : 'update', reason: `Testing ${kind}` });
      expect(await storedGeofence(ctx(), fence.geofence_id), kind).toEqual(before);
      const [row] = await ctx().database.db.select().from(geofences).where(eq(geofences.geofenceId, fence.geofence_id));
      expect(row, kind).toBeDefined();
    }
  });

  it('each strengthening kind applies at once, with no pending change', async () => {
    const prisoners = [(await addPrisoner(ctx())).id, (await addPrisoner(ctx())).id];
    for (const { kind, start, change } of strengthening(prisoners)) {
      const fence = perimeter(start);
      expect((await ctx().api('POST', '/geofence/add', fence)).statusCode, kind).toBe(200);
      const res = await ctx().api('PUT', `/geofence/update/${fence.geofence_id}`, change);
      expect(res.statusCode, `${kind}: ${res.body}`).toBe(200);
      expect(res.json(), kind).toMatchObject(change as Record<string, unknown>);
      expect(await storedGeofence(ctx(), fence.geofence_id), kind).toMatchObject(change as Record<string, unknown>);
      expect((await ctx().api('GET', `/pending-changes?target_id=${fence.geofence_id}`)).json().data, kind).toEqual([]);
    }
  });

  it('ending a keep-apart pair waits for a second administrator; the pair stays active until then', async () => {
    const a = await addPrisoner(ctx());
    const b = await addPrisoner(ctx());
    const pair = (await ctx().api('POST', '/keep-apart', { prisoner_a: a.id, prisoner_b: b.id, reason: 'Threat', scope: 'cell' })).json().pair;
    expect((await ctx().api('POST', `/keep-apart/${pair.id}/end`, { reason: '...' })).statusCode).toBe(400);
    const asked = await ctx().api('POST', `/keep-apart/${pair.id}/end`, { reason: 'Threat withdrawn by the police' });
    expect(asked.statusCode, asked.body).toBe(202);
    expect(asked.json().pair.ended_at).toBeNull();
    expect(asked.json().pending).toMatchObject({ target_type: 'keep_apart', target_id: String(pair.id), kind: 'end' });
    const active = async () =>
      ((await ctx().api('GET', `/keep-apart?prisoner_id=${a.id}&active=true`)).json().data as { id: number }[]).map((p) => p.id);
    expect(await active()).toEqual([pair.id]);
    const own = await ctx().api('POST', `/pending-changes/${asked.json().pending.id}/approve`);
    expect(own.statusCode, own.body).toBe(403);
    const second = await loginAnotherAdmin(ctx());
    const approved = await second('POST', `/pending-changes/${asked.json().pending.id}/approve`);
    expect(approved.statusCode, approved.body).toBe(200);
    expect(await active()).toEqual([]);
    const ended = (await ctx().api('GET', `/keep-apart?prisoner_id=${a.id}`)).json().data[0];
    expect(ended).toMatchObject({ end_reason: 'Threat withdrawn by the police' });
    expect(ended.ended_by).toMatch(/^second/);
  });

  it('refuses geofence ids with bidi, zero-width or other invisible characters, naming the field', async () => {
    for (const bad of ['demo-perimeter\u200b', 'demo\u202Eperimeter', 'demo\u2066x', 'de\uFEFFmo', 'demo\u00ADperimeter', 'demo\u200Dx']) {
      const res = await ctx().api('POST', '/geofence/add', perimeter({ geofence_id: bad }));
      expect(res.statusCode, JSON.stringify(bad)).toBe(400);
      expect(res.json().message).toMatch(/^geofence_id: /);
    }
  });
});
