// GET /location/replay: real OsmAnd fixes of prisoners and a staff member played back compactly,
// filtered by block and people, bounded (400 naming the field), within the caseload, with the geofences as they were.
import { expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { alerts, auditLog, cells, prisoners } from '../../db/schema';
import { addDevice, addStaff, osmandGet, useListeningApp } from '../../tracking/tracking-test-kit';
import { describeEachEngine } from '../../../test/test-db';
import { approvedBySecondAdmin } from '../../../test/test-app';
import { createRoleAccounts, sendAs, sessionCookie } from '../../../test/route-access-kit';

const LAT = 51.5007;
const LNG = -0.1246;
const START = Math.floor(Date.now() / 1000) - 600;

describeEachEngine('replay of everyone', (engine) => {
  const ctx = useListeningApp(engine);
  let people: { a1: number; a2: number; b1: number; staffId: number; staffDevice: string };

  async function prisonerIn(cellId: string, last: string) {
    const [row] = await ctx()
      .database.db.insert(prisoners)
      .values({ firstName: 'Replay', lastName: last, status: 'Incarcerated', cellId })
      .returning({ id: prisoners.prisonerId });
    return row!.id;
  }

  /** Five fixes ten seconds apart, each a little further north, through the OsmAnd protocol. */
  async function walk(deviceId: string, offset: number) {
    for (let i = 0; i < 5; i++) {
      const res = await osmandGet(ctx().osmandUrl, { id: deviceId, lat: LAT + offset + i * 0.0001, lon: LNG, timestamp: START + i * 10 });
      expect(res.status).toBe(200);
    }
  }

  const windowQuery = (extra = '') =>
    `/location/replay?from=${new Date((START - 60) * 1000).toISOString()}&to=${new Date((START + 120) * 1000).toISOString()}${extra}`;

  it('plays every tracker of the window as flat [t, lat, lng] arrays with who wore it', async () => {
    await ctx().database.db.insert(cells).values([
      { cellId: 'RP-A1', block: 'A', capacity: 4, securityLevel: 'Low' },
      { cellId: 'RP-B1', block: 'B', capacity: 4, securityLevel: 'Low' },
    ]);
    const a1 = await prisonerIn('RP-A1', 'Alpha');
    const a2 = await prisonerIn('RP-A1', 'Bravo');
    const b1 = await prisonerIn('RP-B1', 'Charlie');
    const staff = await addStaff(ctx(), 'Olive', 'Officer');
    const devices = await Promise.all([
      addDevice(ctx(), { id: 'rp-a1', prisoner_id: a1 }),
      addDevice(ctx(), { id: 'rp-a2', prisoner_id: a2 }),
      addDevice(ctx(), { id: 'rp-b1', prisoner_id: b1 }),
      addDevice(ctx(), { id: 'rp-staff', staff_id: staff.id }),
    ]);
    for (const [i, device] of devices.entries()) await walk(device.id, i * 0.001);
    people = { a1, a2, b1, staffId: staff.id, staffDevice: 'rp-staff' };

    const res = await ctx().api('GET', windowQuery());
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.step_ms).toBe(0);
    expect(body.tracks.map((t: { device_id: string }) => t.device_id)).toEqual(['rp-a1', 'rp-a2', 'rp-b1', 'rp-staff']);
    const first = body.tracks[0];
    expect(first).toMatchObject({ wearer: 'prisoner', prisoner_id: a1, name: 'Replay Alpha', block: 'A', cell_id: 'RP-A1' });
    expect(first.prison_number).toMatch(/\S/);
    expect(first.points).toHaveLength(15);
    // t is milliseconds after `from` (60 s before the first fix), ten seconds apart; the track moves north.
    expect([first.points[0], first.points[3], first.points[12]]).toEqual([60_000, 70_000, 100_000]);
    expect(first.points[1]).toBeCloseTo(LAT, 6);
    expect(first.points[13]).toBeCloseTo(LAT + 0.0004, 6);
    expect(body.tracks[3]).toMatchObject({ wearer: 'staff', staff_id: staff.id, prisoner_id: null, name: 'Olive Officer', block: null, prison_number: null, cell_id: null });

    const audit = await ctx().database.db.select().from(auditLog).where(and(eq(auditLog.action, 'location.replay'), eq(auditLog.entity, 'replay'))).orderBy(auditLog.id);
    expect(audit.at(-1)?.after).toMatchObject({ tracks: 4 });
  });

  it("gives each alert of the window its time and when it was first acknowledged or resolved (null: still open)", async () => {
    const at = (s: number) => new Date((START + s) * 1000);
    const alert = { details: 'Replay lanes', date: at(0).toISOString().slice(0, 10), prisonerId: people.a1 };
    await ctx().database.db.insert(alerts).values([
      { ...alert, alertType: 'Critical', timestamp: at(10), acknowledgedAt: at(40), resolvedAt: at(50), status: 'Resolved' },
      { ...alert, alertType: 'Informational', timestamp: at(14) },
    ]);
    const res = await ctx().api('GET', windowQuery());
    const mine = res.json().alerts.filter((a: { details: string }) => a.details === 'Replay lanes');
    // `from` is 60 s before START.
    expect(mine).toMatchObject([
      { alert_type: 'Critical', t: 70_000, closed_t: 100_000, prisoner_id: people.a1 },
      { alert_type: 'Informational', t: 74_000, closed_t: null },
    ]);
    await ctx().database.db.delete(alerts).where(eq(alerts.details, 'Replay lanes'));
  });

  it('plays a block, or chosen people, only', async () => {
    const block = await ctx().api('GET', windowQuery('&block=A'));
    expect(block.json().tracks.map((t: { device_id: string }) => t.device_id)).toEqual(['rp-a1', 'rp-a2']);
    const chosen = await ctx().api('GET', windowQuery(`&prisoner_ids=${people.b1}&staff_ids=${people.staffId}`));
    expect(chosen.json().tracks.map((t: { device_id: string }) => t.device_id)).toEqual(['rp-b1', 'rp-staff']);
    const outside = await ctx().api('GET', `/location/replay?from=${new Date((START + 200) * 1000).toISOString()}&to=${new Date((START + 300) * 1000).toISOString()}`);
    expect(outside.json().tracks).toEqual([]);
  });

  it('refuses a bad window or list with a 400 naming the field', async () => {
    const from = new Date(START * 1000).toISOString();
    const cases: [string, string][] = [
      [`/location/replay?to=${from}`, 'from'],
      [`/location/replay?from=${from}&to=${new Date((START - 10) * 1000).toISOString()}`, 'to'],
      [`/location/replay?from=${from}&to=${new Date((START + 25 * 3600) * 1000).toISOString()}`, 'to'],
      [`/location/replay?from=${from}&to=${new Date((START + 60) * 1000).toISOString()}&prisoner_ids=1,abc`, 'prisoner_ids'],
      [`/location/replay?from=${from}&to=${new Date((START + 60) * 1000).toISOString()}&staff_ids=${Array.from({ length: 201 }, (_, i) => i + 1).join(',')}`, 'staff_ids'],
    ];
    for (const [url, field] of cases) {
      const res = await ctx().api('GET', url);
      expect(res.statusCode, url).toBe(400);
      expect(res.json().message, url).toContain(field);
    }
  });

  it("plays only the caseload's prisoners (and staff) to an account of one block", async () => {
    const accounts = await createRoleAccounts(ctx().database, { prefix: 'replay', blocks: { officer: ['B'] } });
    const cookie = await sessionCookie(ctx().database, accounts.officer);
    const res = await sendAs(ctx().app, cookie, 'GET', `/api/v1${windowQuery()}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().tracks.map((t: { device_id: string }) => t.device_id)).toEqual(['rp-b1', 'rp-staff']);
    // Naming a prisoner outside the caseload plays nothing of theirs, as for an unknown id.
    const named = await sendAs(ctx().app, cookie, 'GET', `/api/v1${windowQuery(`&prisoner_ids=${people.a1}`)}`);
    expect(named.json().tracks).toEqual([]);
  });

  it('shows the geofences as they were at the start of the window, and each change after it', async () => {
    const zone = { shape: 'Circle', type: 'Negative', alert_type: 'Warning', radius: 20, center_lat: LAT, center_lng: LNG };
    expect((await ctx().api('POST', '/geofence/add', { geofence_id: 'rp-yard', name: 'Yard', ...zone })).statusCode).toBe(200);
    const beforeRename = new Date();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect((await ctx().api('PUT', '/geofence/update/rp-yard', { name: 'Old yard' })).statusCode).toBe(200);
    expect((await ctx().api('POST', '/geofence/add', { geofence_id: 'rp-gate', name: 'Gate', ...zone })).statusCode).toBe(200);
    await approvedBySecondAdmin(ctx(), await ctx().api('DELETE', '/geofence/delete/rp-gate', { reason: 'The gate is bricked up now' }));
    const to = new Date(Date.now() + 1000);

    const res = await ctx().api('GET', `/location/replay?from=${beforeRename.toISOString()}&to=${to.toISOString()}`);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    const ours = <T extends { geofence_id: string }>(list: T[]) => list.filter((g) => g.geofence_id.startsWith('rp-'));
    expect(ours(body.geofences)).toMatchObject([{ geofence_id: 'rp-yard', name: 'Yard' }]);
    const changes = body.geofence_changes as { geofence_id: string; geofence: { name: string } | null }[];
    expect(ours(changes).map((c) => [c.geofence_id, c.geofence?.name ?? null])).toEqual([
      ['rp-yard', 'Old yard'],
      ['rp-gate', 'Gate'],
      ['rp-gate', null],
    ]);
    // Before the yard existed, the replay has no yard.
    const earlier = await ctx().api('GET', `/location/replay?from=${new Date(beforeRename.getTime() - 3_600_000).toISOString()}&to=${new Date(beforeRename.getTime() - 3_000_000).toISOString()}`);
    expect(ours(earlier.json().geofences)).toEqual([]);
  });
});
