// The two-person rule is two people (decision 091), on the real app and database, both engines: an administrator
// who creates a second administrator cannot use it to approve their own weakening (nor one re-enabled or given its
// role by them, nor the other way round), a new administrator takes effect only when an existing one approves; a
// weakening of a Critical or Warning zone ends by itself at its end time, audited; a cell move that lifts an alarm
// waits for a second person, and the open violation stays open until it is resolved.
import { expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { API_PREFIX, AUTH_COOKIE } from '@prison/shared';
import { accountGrants, alerts, auditLog, prisoners } from '../../db/schema';
import { describeEachEngine } from '../../../test/test-db';
import { approvedBySecondAdmin, loginAnotherAdmin, useTestApp, type TestContext } from '../../../test/test-app';
import { addDevice, addPrisoner } from '../../tracking/tracking-test-kit';
import { revertGeofenceWeakening } from '../geofences/geofence-service';
import { WeakeningEnds } from './weakening-ends';

let counter = 0;
const unique = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${++counter}`;

const CENTRE = { lat: 51.5, lng: -0.12 };
const perimeter = (overrides: Record<string, unknown> = {}) => ({
  geofence_id: unique('perimeter'),
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

const GIVEN = 'a password another chose 42';
const OWN = 'my own password for this account 42';

/** Logs an account created through POST /admins in (choosing its own password first); answers an `api` like the context's. */
async function loginAs(ctx: TestContext, username: string): Promise<TestContext['api']> {
  const login = async (password: string) =>
    ctx.app.inject({ method: 'POST', url: `${API_PREFIX}/admin/login`, payload: { username, password } });
  let res = await login(OWN);
  if (res.statusCode !== 200) res = await login(GIVEN);
  expect(res.statusCode, res.body).toBe(200);
  const cookie = `${AUTH_COOKIE}=${res.json().token}`;
  const api: TestContext['api'] = (method, url, payload, headers = {}) =>
    ctx.app.inject({ method: method as 'GET', url: `${API_PREFIX}${url}`, payload: payload as object, headers: { cookie, ...headers } });
  if (res.json().passwordChangeRequired) {
    const changed = await api('POST', '/profile/password', { current_password: GIVEN, new_password: OWN });
    expect(changed.statusCode, changed.body).toBe(200);
  }
  return api;
}

const geofenceOf = async (ctx: TestContext, id: string) =>
  (await ctx.api('GET', '/geofence/all')).json().find((g: { geofence_id: string }) => g.geofence_id === id);

describeEachEngine('the two-person rule is two people', (engine) => {
  const ctx = useTestApp(engine);

  it('an administrator who creates a second administrator cannot approve their own weakening with it (403 naming the rule); the new account takes effect only when an existing administrator approves it', async () => {
    const fence = perimeter();
    expect((await ctx().api('POST', '/geofence/add', fence)).statusCode).toBe(200);
    const asked = await ctx().api('PUT', `/geofence/update/${fence.geofence_id}`, { alert_type: 'Informational', reason: 'Night drill: too loud' });
    expect(asked.statusCode, asked.body).toBe(202);
    const changeId = asked.json().pending.id as number;

    // The puppet: created by the requester after the request. It does not take effect by itself.
    const puppet = unique('puppet');
    const created = await ctx().api('POST', '/admins', { username: puppet, password: GIVEN });
    expect(created.statusCode, created.body).toBe(202);
    expect(created.json()).toMatchObject({ role: 'administrator', disabled: true, pending: { target_type: 'admin', kind: 'create' } });
    const refusedLogin = await ctx().app.inject({ method: 'POST', url: `${API_PREFIX}/admin/login`, payload: { username: puppet, password: GIVEN } });
    expect(refusedLogin.statusCode).toBe(401);
    // The requester cannot approve their own new administrator, nor enable it by hand.
    const own = await ctx().api('POST', `/pending-changes/${created.json().pending.id}/approve`, {});
    expect(own.statusCode).toBe(403);
    expect((await ctx().api('POST', `/admins/${created.json().id}/enable`)).statusCode).toBe(409);

    // An existing administrator (not made by the requester) approves the account: now it logs in, and still cannot
    // approve the change of the one who made it.
    const existing = await loginAnotherAdmin(ctx());
    await approvedBySecondAdmin(ctx(), created, existing);
    const asPuppet = await loginAs(ctx(), puppet);
    const refused = await asPuppet('POST', `/pending-changes/${changeId}/approve`, {});
    expect(refused.statusCode, refused.body).toBe(403);
    expect(refused.json().message).toMatch(/^Two-person rule: your account was created by warden, who asked for this change, after this change was asked/);
    expect((await geofenceOf(ctx(), fence.geofence_id)).alert_type).toBe('Critical');

    // Seven days on, the account is a person of its own (the grant aged in the table), and may approve.
    await ctx()
      .database.db.update(accountGrants)
      .set({ at: new Date(Date.now() - 8 * 86_400_000) })
      .where(eq(accountGrants.adminId, created.json().id));
    expect((await asPuppet('POST', `/pending-changes/${changeId}/approve`, {})).statusCode).toBe(200);
    expect((await geofenceOf(ctx(), fence.geofence_id)).alert_type).toBe('Informational');
  });

  it('an account re-enabled or given its role by the requester cannot approve; nor can the one who made the requester; a supervisor cannot approve a new administrator', async () => {
    const fence = perimeter();
    expect((await ctx().api('POST', '/geofence/add', fence)).statusCode).toBe(200);
    // Re-enabled: an administrator made elsewhere, disabled and enabled again by the requester.
    const reEnabledName = unique('re-enabled');
    const beforeDisable = await loginAnotherAdmin(ctx(), reEnabledName);
    const reEnabledId = (await beforeDisable('GET', '/profile')).json().admin_id as number;
    expect((await ctx().api('POST', `/admins/${reEnabledId}/disable`)).statusCode).toBe(200);
    expect((await ctx().api('POST', `/admins/${reEnabledId}/enable`)).statusCode).toBe(200);
    const relogin = await ctx().app.inject({ method: 'POST', url: `${API_PREFIX}/admin/login`, payload: { username: reEnabledName, password: 'another correct horse battery' } });
    expect(relogin.statusCode, relogin.body).toBe(200);
    const asked = await ctx().api('DELETE', `/geofence/delete/${fence.geofence_id}`, { reason: 'Moving the perimeter' });
    expect(asked.statusCode).toBe(202);
    const id = asked.json().pending.id as number;
    const refused = await ctx().app.inject({
      method: 'POST',
      url: `${API_PREFIX}/pending-changes/${id}/approve`,
      payload: {},
      headers: { cookie: `${AUTH_COOKIE}=${relogin.json().token}` },
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toMatch(/^Two-person rule: your account was re-enabled by warden, who asked for this change, within the last 7 days/);

    // Given its role: a records clerk made a supervisor (who may decide changes) by the requester.
    const clerk = unique('officer');
    expect((await ctx().api('POST', '/admins', { username: clerk, password: GIVEN, role: 'records' })).statusCode).toBe(200);
    const clerkId = (await ctx().api('GET', '/admins')).json().admins.find((a: { username: string }) => a.username === clerk).id as number;
    expect((await ctx().api('PUT', `/admins/${clerkId}`, { role: 'supervisor' })).statusCode).toBe(200);
    const asSupervisor = await loginAs(ctx(), clerk);
    const byRole = await asSupervisor('POST', `/pending-changes/${id}/approve`, {});
    expect(byRole.statusCode).toBe(403);
    expect(byRole.json().message).toMatch(/^Two-person rule: your account was (created|given its role) by warden/);

    // The other way round: the supervisor (made by warden) asks; warden cannot approve it.
    const zone = perimeter({ alert_type: 'Warning' });
    expect((await ctx().api('POST', '/geofence/add', zone)).statusCode).toBe(200);
    const bySupervisor = await asSupervisor('PUT', `/geofence/update/${zone.geofence_id}`, { alert_type: 'Informational', reason: 'Asked by the puppet' });
    expect(bySupervisor.statusCode, bySupervisor.body).toBe(202);
    const reverse = await ctx().api('POST', `/pending-changes/${bySupervisor.json().pending.id}/approve`, {});
    expect(reverse.statusCode).toBe(403);
    expect(reverse.json().message).toMatch(/^Two-person rule: the account of .* was (created|given its role) by you/);

    // A new administrator is approved by an administrator: the supervisor, however old, is refused.
    const newAdmin = await ctx().api('POST', '/admins', { username: unique('new-admin'), password: GIVEN });
    await ctx().database.db.update(accountGrants).set({ at: new Date(Date.now() - 8 * 86_400_000) }).where(eq(accountGrants.adminId, clerkId));
    const bySupervisorApproval = await asSupervisor('POST', `/pending-changes/${newAdmin.json().pending.id}/approve`, {});
    expect(bySupervisorApproval.statusCode).toBe(403);
    expect(bySupervisorApproval.json().message).toMatch(/^Two-person rule: a new or raised administrator account is approved by another, existing administrator/);

    // An untouched administrator approves the delete.
    const untouched = await loginAnotherAdmin(ctx());
    expect((await untouched('POST', `/pending-changes/${id}/approve`, {})).statusCode).toBe(200);
  });

  it('raising an account to administrator waits for an existing administrator; the account keeps its role until then', async () => {
    const username = unique('records');
    const made = await ctx().api('POST', '/admins', { username, password: GIVEN, role: 'records' });
    expect(made.statusCode).toBe(200);
    const raise = await ctx().api('PUT', `/admins/${made.json().id}`, { role: 'administrator', name: 'Raised' });
    expect(raise.statusCode, raise.body).toBe(202);
    expect(raise.json()).toMatchObject({ role: 'records', name: username, pending: { target_type: 'admin', kind: 'role', changes: ['Role: records → administrator'] } });
    const asRecords = await loginAs(ctx(), username);
    expect((await asRecords('GET', '/admins')).statusCode).toBe(403);
    await approvedBySecondAdmin(ctx(), raise);
    expect((await asRecords('GET', '/admins')).statusCode).toBe(200);
    const listed = (await ctx().api('GET', '/admins')).json().admins.find((a: { username: string }) => a.username === username);
    expect(listed).toMatchObject({ role: 'administrator', name: 'Raised', pending_change_id: null });
  });

  it('a weakening of a Critical zone asks for an end time (default 8 hours, at most 7 days) and reverts by itself at it, audited; meanwhile it is listed for the banner', async () => {
    const fence = perimeter();
    expect((await ctx().api('POST', '/geofence/add', fence)).statusCode).toBe(200);
    const tooLate = await ctx().api('PUT', `/geofence/update/${fence.geofence_id}`, {
      alert_type: 'Informational',
      reason: 'Drill all week long',
      until: new Date(Date.now() + 8 * 86_400_000).toISOString(),
    });
    expect(tooLate.statusCode).toBe(400);
    expect(tooLate.json().message).toMatch(/^until: /);

    // No end time: 8 hours from the request.
    const byDefault = await ctx().api('PUT', `/geofence/update/${fence.geofence_id}`, { alert_type: 'Informational', reason: 'Night drill tonight' });
    expect(byDefault.statusCode).toBe(202);
    expect(Math.abs(Date.parse(byDefault.json().pending.until) - (Date.now() + 8 * 3_600_000))).toBeLessThan(60_000);
    const second = await loginAnotherAdmin(ctx());
    expect((await second('POST', `/pending-changes/${byDefault.json().pending.id}/refuse`, {})).statusCode).toBe(200);

    const until = new Date(Date.now() + 3_600_000);
    const asked = await ctx().api('PUT', `/geofence/update/${fence.geofence_id}`, {
      alert_type: 'Informational',
      dwell_seconds: 300,
      reason: 'Night drill tonight',
      until: until.toISOString(),
    });
    expect(asked.statusCode, asked.body).toBe(202);
    expect(asked.json().pending.until).toBe(until.toISOString());
    await approvedBySecondAdmin(ctx(), asked, second);
    expect(await geofenceOf(ctx(), fence.geofence_id)).toMatchObject({ alert_type: 'Informational', dwell_seconds: 300 });
    const secondName = (await second('GET', '/profile')).json().username as string;
    const weakened = (await ctx().api('GET', '/pending-changes/weakened')).json().data;
    expect(weakened).toContainEqual(
      expect.objectContaining({ geofence_id: fence.geofence_id, geofence_name: 'Perimeter', level: 'Critical', requested_by: 'warden', approved_by: secondName, until: until.toISOString() }),
    );

    // The server's job with its clock injected: before the end time nothing, at it the zone is Critical again.
    let now = new Date(until.getTime() - 1000);
    const ends = new WeakeningEnds({
      db: ctx().database.db,
      revert: revertGeofenceWeakening,
      isLeader: () => true,
      failed: (error) => {
        throw error;
      },
      reverted: async () => ctx().app.reloadGeofences(),
      now: () => now,
    });
    expect(await ends.tick()).toEqual([]);
    now = new Date(until.getTime() + 1000);
    const reverted = await ends.tick();
    expect(reverted.map((c) => c.id)).toEqual([asked.json().pending.id]);
    expect(reverted[0]!.reverted_at).not.toBeNull();
    expect(await geofenceOf(ctx(), fence.geofence_id)).toMatchObject({ alert_type: 'Critical', dwell_seconds: 0 });
    // The engine was reloaded: a prisoner outside the perimeter raises a Critical alert again.
    const runner = await addPrisoner(ctx(), 'Ray', unique('Runner'));
    const tracker = await addDevice(ctx(), { prisoner_id: runner.id });
    const outside = await ctx().api('POST', '/ingest/positions', {
      positions: [{ device_id: tracker.id, secret: tracker.secret, latitude: 51.51, longitude: CENTRE.lng, timestamp: new Date().toISOString() }],
    });
    expect(outside.statusCode, outside.body).toBe(200);
    const raised = await ctx().database.db.select().from(alerts).where(and(eq(alerts.deviceId, tracker.id), eq(alerts.geofenceId, fence.geofence_id)));
    expect(raised.map((a) => a.alertType)).toEqual(['Critical']);
    expect(await ends.tick()).toEqual([]); // once
    expect((await ctx().api('GET', '/pending-changes/weakened')).json().data.map((w: { id: number }) => w.id)).not.toContain(asked.json().pending.id);
    const audit = await ctx()
      .database.db.select()
      .from(auditLog)
      .where(eq(auditLog.actor, 'system'))
      .orderBy(auditLog.id);
    expect(audit.filter((e) => e.entity === 'pending_change' && e.entityId === String(asked.json().pending.id)).map((e) => e.action)).toEqual(['revert']);
    expect(audit.find((e) => e.entity === 'geofence' && e.entityId === fence.geofence_id && e.action === 'update')?.after).toMatchObject({ alert_type: 'Critical' });
  });

  it('a deleted Warning zone comes back at the end time', async () => {
    const fence = perimeter({ alert_type: 'Warning', name: 'Yard' });
    expect((await ctx().api('POST', '/geofence/add', fence)).statusCode).toBe(200);
    const until = new Date(Date.now() + 600_000);
    const asked = await ctx().api('DELETE', `/geofence/delete/${fence.geofence_id}`, { reason: 'Yard works today', until: until.toISOString() });
    expect(asked.statusCode, asked.body).toBe(202);
    await approvedBySecondAdmin(ctx(), asked);
    expect(await geofenceOf(ctx(), fence.geofence_id)).toBeUndefined();
    const ends = new WeakeningEnds({
      db: ctx().database.db,
      revert: revertGeofenceWeakening,
      isLeader: () => true,
      failed: (error) => {
        throw error;
      },
      reverted: async () => undefined,
      now: () => new Date(until.getTime() + 1),
    });
    expect(await ends.tick()).toHaveLength(1);
    expect(await geofenceOf(ctx(), fence.geofence_id)).toMatchObject({ name: 'Yard', alert_type: 'Warning', radius: 500 });
  });

  it('a cell move out of a block-scoped Critical zone, or made with an open violation, waits for a second person; the violation stays open until resolved', async () => {
    const blockA = unique('A');
    const blockB = unique('B');
    for (const [cell, block] of [[`${blockA}-1`, blockA], [`${blockB}-105`, blockB], [`${blockB}-106`, blockB]]) {
      expect((await ctx().api('POST', '/cell_controls/cells', { cell_id: cell, block, capacity: 4, security_level: 'Low' })).statusCode).toBe(200);
    }
    const prisoner = await addPrisoner(ctx(), 'Quiet', unique('Mover'));
    await ctx().database.db.update(prisoners).set({ cellId: `${blockA}-1` }).where(eq(prisoners.prisonerId, prisoner.id));
    const device = await addDevice(ctx(), { prisoner_id: prisoner.id });
    const zone = perimeter({ type: 'Positive', name: 'Block A yard', applies_to: { blocks: [blockA] } });
    expect((await ctx().api('POST', '/geofence/add', zone)).statusCode).toBe(200);
    await expect.poll(() => ctx().app.tracking.registry.get(device.id)?.block).toBe(blockA);

    // A records clerk moves him: held, he stays in block A; no reason is a 400.
    const clerk = unique('clerk');
    expect((await ctx().api('POST', '/admins', { username: clerk, password: GIVEN, role: 'records' })).statusCode).toBe(200);
    const asClerk = await loginAs(ctx(), clerk);
    const bare = await asClerk('POST', '/cell_controls/assign', { prisoner_id: prisoner.id, cell_id: `${blockB}-105` });
    expect(bare.statusCode).toBe(400);
    expect(bare.json().message).toMatch(/^reason: /);
    const held = await asClerk('POST', '/cell_controls/assign', { prisoner_id: prisoner.id, cell_id: `${blockB}-105`, reason: 'Moved for works in block A' });
    expect(held.statusCode, held.body).toBe(202);
    expect(held.json()).toMatchObject({
      prisoner: { cell_id: `${blockA}-1` },
      pending: { target_type: 'prisoner', kind: 'move', changes: [`Cell: ${blockA}-1 → ${blockB}-105`, 'No longer in the scope of Critical zone Block A yard'] },
    });
    const [row] = await ctx().database.db.select().from(prisoners).where(eq(prisoners.prisonerId, prisoner.id));
    expect(row!.cellId).toBe(`${blockA}-1`);
    // The same through the record's update.
    const viaUpdate = await asClerk('PUT', `/prisoner/update/${prisoner.id}`, { cell_id: `${blockB}-106`, reason: 'Moved for works in block A' });
    expect(viaUpdate.statusCode).toBe(409); // one pending change per prisoner
    // Refused; now he is in violation (inside the Positive zone), and the move is asked again.
    expect((await ctx().api('POST', `/pending-changes/${held.json().pending.id}/refuse`, {})).statusCode).toBe(200);
    const fix = async (at: Date) => {
      const res = await ctx().api('POST', '/ingest/positions', {
        positions: [{ device_id: device.id, secret: device.secret, latitude: CENTRE.lat, longitude: CENTRE.lng, timestamp: at.toISOString() }],
      });
      expect(res.statusCode, res.body).toBe(200);
    };
    const t0 = Date.now() - 600_000;
    await fix(new Date(t0));
    const [violation] = await ctx().database.db.select().from(alerts).where(and(eq(alerts.deviceId, device.id), eq(alerts.geofenceId, zone.geofence_id)));
    expect(violation).toMatchObject({ alertType: 'Critical', endedAt: null, status: 'New' });

    const asked = await asClerk('PUT', `/prisoner/update/${prisoner.id}`, { cell_id: `${blockB}-105`, reason: 'Moved for works in block A' });
    expect(asked.statusCode, asked.body).toBe(202);
    expect(asked.json().pending.changes).toContain('Open Critical violation of Block A yard: it stays open until resolved');
    // The clerk may not approve (not his role), a second person does.
    expect((await asClerk('POST', `/pending-changes/${asked.json().pending.id}/approve`, {})).statusCode).toBe(403);
    await approvedBySecondAdmin(ctx(), asked);
    const [moved] = await ctx().database.db.select().from(prisoners).where(eq(prisoners.prisonerId, prisoner.id));
    expect(moved!.cellId).toBe(`${blockB}-105`);
    await expect.poll(() => ctx().app.tracking.registry.get(device.id)?.block).toBe(blockB);

    // The engine lets the zone go for him, the violation stays open until someone resolves it.
    await fix(new Date(t0 + 1000));
    await fix(new Date(t0 + 2000));
    const [still] = await ctx().database.db.select().from(alerts).where(eq(alerts.id, violation!.id));
    expect(still).toMatchObject({ endedAt: null, status: 'New' });
    expect((await ctx().api('POST', `/alert/${violation!.id}/acknowledge`, { note: 'Seen moved to block B' })).statusCode).toBe(200);
    expect((await ctx().api('POST', `/alert/${violation!.id}/resolve`, { note: 'Moved to block B with approval' })).statusCode).toBe(200);

    // A move within the block, with nothing open, applies at once.
    const within = await ctx().api('POST', '/cell_controls/assign', { prisoner_id: prisoner.id, cell_id: `${blockB}-106` });
    expect(within.statusCode, within.body).toBe(200);
  });
});
