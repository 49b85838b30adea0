import { expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { Overview } from '@prison/shared';
import { describeEachEngine } from '../../../test/test-db';
import { useTestApp } from '../../../test/test-app';
import { alerts, cells, devices, prisoners } from '../../db/schema';

describeEachEngine('operations overview', (engine) => {
  const ctx = useTestApp(engine);

  /** One number from plain SQL, written independently of the service's statement. */
  async function count(query: ReturnType<typeof sql>): Promise<number> {
    const result = (await ctx().database.db.execute(query)) as unknown as { rows: { n: number | string | null }[] };
    return Number(result.rows[0]?.n ?? 0);
  }

  async function seed() {
    const db = ctx().database.db;
    await db.insert(cells).values([
      { cellId: 'A-1', block: 'A', capacity: 4, securityLevel: 'High' },
      { cellId: 'A-2', block: 'A', capacity: 2, securityLevel: 'Low' },
      { cellId: 'B-1', block: 'B', capacity: 3, securityLevel: 'Medium' },
      { cellId: 'C-1', block: 'C', capacity: 5, securityLevel: 'Low' }, // an empty block still has capacity
    ]);
    const lastSeen = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000);
    await db.insert(devices).values([
      { id: 'dev-on-1', name: 'Tracker 1', secretHash: 'x', online: true, lastSeenAt: lastSeen(0) },
      { id: 'dev-on-2', name: 'Tracker 2', secretHash: 'x', online: true, lastSeenAt: lastSeen(0) },
      { id: 'dev-off-1', name: 'Tracker 3', secretHash: 'x', online: false, lastSeenAt: lastSeen(30) },
      { id: 'dev-off-2', name: 'Tracker 4', secretHash: 'x', online: false, lastSeenAt: lastSeen(5) },
      { id: 'dev-off-3', name: 'Tracker 5', secretHash: 'x', online: false }, // never reported
      { id: 'dev-free', name: 'Spare', secretHash: 'x', online: false }, // assigned to nobody: not an offline tracker
      { id: 'dev-released', name: 'Tracker 7', secretHash: 'x', online: true },
    ]);
    const person = (first: string, status: string | null, cellId: string | null, device: string | null = null) => ({
      firstName: first,
      lastName: 'Roll',
      status,
      cellId,
      trackingDeviceId: device,
    });
    const rows = await db
      .insert(prisoners)
      .values([
        person('Ann', 'Incarcerated', 'A-1', 'dev-on-1'), // A: tracked, online, in violation
        person('Ben', 'On Trial', 'A-1', 'dev-off-1'), // A: tracked, offline
        person('Cal', 'Incarcerated', 'A-2'), // A: untracked, in violation (alert outlives the device)
        person('Dee', 'Released', 'A-1', 'dev-released'), // not assigned: takes no place
        person('Eve', 'Transferred', 'A-2'), // not assigned
        person('Fay', 'Incarcerated', 'B-1', 'dev-on-2'), // B: tracked, online, violation resolved
        person('Gus', 'On Trial', 'B-1', 'dev-off-2'), // B: tracked, offline, violation ended
        person('Hal', 'Incarcerated', null, 'dev-off-3'), // no cell: not in the roll, but an offline tracker
        person('Ivy', null, 'B-1'), // no status: not assigned
      ])
      .returning({ id: prisoners.prisonerId, name: prisoners.firstName });
    const id = (name: string) => rows.find((row) => row.name === name)!.id;
    const alert = (
      alertType: string,
      status: string,
      fields: Partial<typeof alerts.$inferInsert> = {},
    ): typeof alerts.$inferInsert => ({
      alertType,
      status,
      kind: 'manual',
      details: `${alertType} ${status}`,
      date: '2026-11-23',
      timestamp: new Date(),
      ...fields,
    });
    await db.insert(alerts).values([
      alert('Critical', 'New', { kind: 'geofence', prisonerId: id('Ann') }),
      alert('Warning', 'Acknowledged', { kind: 'geofence', prisonerId: id('Ann') }), // Ann counted once
      alert('Critical', 'New', { kind: 'geofence', prisonerId: id('Cal') }),
      alert('Critical', 'Resolved', { kind: 'geofence', prisonerId: id('Fay') }),
      alert('Warning', 'New', { kind: 'geofence', prisonerId: id('Gus'), endedAt: new Date() }),
      alert('Critical', 'Acknowledged', { kind: 'sos', prisonerId: id('Fay') }), // not a geofence violation
      alert('Informational', 'Resolved'),
      alert('Warning', 'Resolved'),
      alert('Critical', 'Acknowledged', { kind: 'geofence', prisonerId: id('Hal') }), // no cell: not in the roll
      alert('Informational', 'New', { kind: 'geofence', prisonerId: id('Ben') }), // Ben: in zone, not in violation
      alert('Informational', 'New', { kind: 'geofence', prisonerId: id('Ann') }), // Ann: still in violation
    ]);
  }

  it('answers every number equal to a count taken from the database with plain SQL', async () => {
    const before = await ctx().api('GET', '/overview');
    expect(before.statusCode, before.body).toBe(200);
    expect(before.json<Overview>().blocks).toEqual([]);

    await seed();
    const res = await ctx().api('GET', '/overview');
    expect(res.statusCode, res.body).toBe(200);
    const overview = res.json<Overview>();

    // What the seed means, by hand: the definitions of decision 021.
    expect(overview.prison).toEqual({
      cells: 4,
      capacity: 14,
      assigned: 5,
      tracked: 4,
      online: 2,
      offline: 2,
      in_violation: 2,
      in_zone: 1,
      untracked: 1,
    });
    expect(overview.blocks.map((block) => block.block)).toEqual(['A', 'B', 'C']);
    expect(overview.open_alerts).toEqual([
      { alert_type: 'Informational', open: 2, unacknowledged: 2 },
      { alert_type: 'Warning', open: 2, unacknowledged: 1 },
      { alert_type: 'Critical', open: 4, unacknowledged: 2 },
    ]);
    expect(overview.offline_trackers.total).toBe(3);
    expect(overview.offline_trackers.newest.map((tracker) => [tracker.device_id, tracker.first_name])).toEqual([
      ['dev-off-2', 'Gus'],
      ['dev-off-1', 'Ben'],
      ['dev-off-3', 'Hal'],
    ]);
    expect(overview.offline_trackers.newest[0]!.last_seen_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(overview.offline_trackers.newest[2]!.last_seen_at).toBeNull();

    // And the same numbers from independent SQL, block by block and for the prison.
    const occupying = sql`p.status in ('On Trial', 'Incarcerated')`;
    const openViolation = (levels: string[]) => sql`exists (select 1 from alerts a where a.prisoner_id = p.prisoner_id
      and a.kind = 'geofence' and a.ended_at is null and a.status <> 'Resolved'
      and a.alert_type in (${sql.join(levels.map((level) => sql`${level}`), sql`, `)}))`;
    const violating = openViolation(['Critical', 'Warning']);
    const inZone = sql`${openViolation(['Informational'])} and not ${violating}`;
    for (const block of [...overview.blocks, { ...overview.prison, block: null }]) {
      const inBlock = block.block === null ? sql`true` : sql`c.block = ${block.block}`;
      const prisonersHere = (extra: ReturnType<typeof sql>) =>
        count(sql`select count(*) as n from prisoners p join cells c on c.cell_id = p.cell_id
          left join devices d on d.id = p.tracking_device_id where ${inBlock} and ${occupying} and ${extra}`);
      const expected = {
        cells: await count(sql`select count(*) as n from cells c where ${inBlock}`),
        capacity: await count(sql`select sum(capacity) as n from cells c where ${inBlock}`),
        assigned: await prisonersHere(sql`true`),
        tracked: await prisonersHere(sql`d.id is not null`),
        online: await prisonersHere(sql`d.online`),
        offline: await prisonersHere(sql`d.id is not null and not d.online`),
        in_violation: await prisonersHere(violating),
        in_zone: await prisonersHere(inZone),
        untracked: await prisonersHere(sql`p.tracking_device_id is null`),
      };
      const { block: _name, ...numbers } = block;
      expect(numbers, `block ${block.block ?? 'prison'}`).toEqual(expected);
    }
    for (const level of overview.open_alerts) {
      expect(level.open).toBe(
        await count(sql`select count(*) as n from alerts where alert_type = ${level.alert_type} and resolved_at is null
          and status <> 'Resolved'`),
      );
      expect(level.unacknowledged).toBe(
        await count(sql`select count(*) as n from alerts where alert_type = ${level.alert_type} and status = 'New'`),
      );
    }
    expect(overview.offline_trackers.total).toBe(
      await count(sql`select count(*) as n from devices d where d.online = false
        and exists (select 1 from prisoners p where p.tracking_device_id = d.id)`),
    );
  });
});
