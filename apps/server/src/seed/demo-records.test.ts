import { afterAll, beforeAll, expect, it } from 'vitest';
import { count, countDistinct, eq, isNotNull, sql } from 'drizzle-orm';
import { PRISONER_STATUSES, isCountryName } from '@prison/shared';
import { createTestDatabase, describeEachEngine, describeOnPglite } from '../../test/test-db';
import type { Database } from '../db/client';
import { auditLog, cells, incidents, keepApartPairs, prisoners, staff } from '../db/schema';
import { DEMO_COUNTS, seedDemoRecords } from './demo-records';

describeEachEngine('demo records seed', (engine) => {
  let database: Database;
  beforeAll(async () => {
    database = await createTestDatabase(engine);
    expect(await seedDemoRecords(database.db)).toEqual({ seeded: true });
  }, 120_000);
  afterAll(async () => {
    await database.close();
  });

  it('seeds a believable prison', async () => {
    const db = database.db;
    const [[c], [p], [s], [i]] = await Promise.all([
      db.select({ n: count(), blocks: countDistinct(cells.block) }).from(cells),
      db.select({ n: count(), countries: countDistinct(prisoners.nationalId) }).from(prisoners),
      db
        .select({
          police: sql<number>`count(*) filter (where role = 'Police')::int`,
          guards: sql<number>`count(*) filter (where role = 'Guard')::int`,
        })
        .from(staff),
      db.select({ n: count() }).from(incidents),
    ]);
    expect(c).toEqual({ n: DEMO_COUNTS.cells, blocks: 3 });
    expect(p!.n).toBe(DEMO_COUNTS.prisoners);
    expect(p!.countries).toBeGreaterThan(10);
    expect(s).toEqual({ police: DEMO_COUNTS.police, guards: DEMO_COUNTS.guards });
    expect(i!.n).toBe(DEMO_COUNTS.incidents);

    const statuses = await db
      .select({ status: prisoners.status, n: count() })
      .from(prisoners)
      .groupBy(prisoners.status);
    expect(statuses.map((r) => r.status).sort()).toEqual([...PRISONER_STATUSES].sort());
    const records = await db.select().from(prisoners);
    for (const r of records) {
      expect(isCountryName(r.nationalId!)).toBe(true);
      expect(r.dateOfBirth! < r.entryDate!).toBe(true);
      if (r.releaseDate) expect(r.releaseDate >= r.entryDate!).toBe(true);
    }
    expect(new Set(records.map((r) => `${r.firstName} ${r.lastName}`)).size).toBeGreaterThan(100);
    const guardRanks = await db
      .selectDistinct({ rank: staff.rank })
      .from(staff)
      .where(sql`role = 'Guard'`);
    expect(guardRanks.map((r) => r.rank).sort()).toEqual(['Security', 'Supervisor']);
    // Everything went through the services, so everything is audited.
    const [audited] = await db.select({ n: count() }).from(auditLog);
    const [overrides] = await db.select({ n: count() }).from(auditLog).where(eq(auditLog.action, 'override_cell_rule'));
    expect(audited!.n).toBe(
      DEMO_COUNTS.cells + DEMO_COUNTS.prisoners + DEMO_COUNTS.police + DEMO_COUNTS.guards + DEMO_COUNTS.incidents +
        DEMO_COUNTS.keepApartPairs + overrides!.n,
    );
  });

  it('fills no cell beyond its capacity, and fills some completely', async () => {
    // Counted here independently of the cell service.
    const rows = await database.db
      .select({
        cell_id: cells.cellId,
        capacity: cells.capacity,
        occupants: sql<number>`count(${prisoners.prisonerId}) filter (where ${prisoners.status} in ('On Trial', 'Incarcerated'))::int`,
      })
      .from(cells)
      .leftJoin(prisoners, eq(prisoners.cellId, cells.cellId))
      .groupBy(cells.cellId, cells.capacity);
    expect(rows).toHaveLength(DEMO_COUNTS.cells);
    for (const row of rows) expect(row.occupants, row.cell_id).toBeLessThanOrEqual(row.capacity);
    expect(rows.filter((r) => r.occupants === r.capacity).length).toBeGreaterThanOrEqual(10);
    expect(rows.some((r) => r.occupants === 0 || r.occupants < r.capacity)).toBe(true);
    const capacities = new Set(rows.map((r) => r.capacity));
    expect([...capacities].sort()).toEqual([1, 2, 3, 4]);
    const [assigned] = await database.db.select({ n: count() }).from(prisoners).where(isNotNull(prisoners.cellId));
    expect(assigned!.n).toBeGreaterThan(100);
  });

  it('obeys the cell rules: one sex per cell, Other alone and by override, cells only for occupying statuses, pairs apart', async () => {
    const db = database.db;
    const rows = await db
      .select({ id: prisoners.prisonerId, gender: prisoners.gender, status: prisoners.status, cell: prisoners.cellId, block: cells.block })
      .from(prisoners)
      .leftJoin(cells, eq(cells.cellId, prisoners.cellId));
    const byCell = new Map<string, typeof rows>();
    for (const row of rows) if (row.cell) byCell.set(row.cell, [...(byCell.get(row.cell) ?? []), row]);
    expect(byCell.size).toBeGreaterThan(30);
    for (const [cell, occupants] of byCell) {
      expect(occupants.every((o) => o.status === 'On Trial' || o.status === 'Incarcerated'), cell).toBe(true);
      expect(new Set(occupants.map((o) => o.gender)).size, cell).toBe(1);
      if (occupants.some((o) => o.gender === 'Other')) expect(occupants.length, cell).toBe(1);
    }
    const others = rows.filter((r) => r.gender === 'Other' && r.cell);
    const overrides = await db.select().from(auditLog).where(eq(auditLog.action, 'override_cell_rule')).orderBy(auditLog.id);
    expect(overrides.map((o) => Number(o.entityId)).sort()).toEqual(others.map((o) => o.id).sort());
    const pairs = await db.select().from(keepApartPairs);
    expect(pairs.length).toBe(DEMO_COUNTS.keepApartPairs);
    const where = new Map(rows.map((r) => [r.id, r]));
    for (const pair of pairs) {
      const [a, b] = [where.get(pair.prisonerA)!, where.get(pair.prisonerB)!];
      expect(a.cell).not.toBe(b.cell);
      if (pair.scope === 'block') expect(a.block).not.toBe(b.block);
    }
  });

  it('does nothing on a database that already holds records', async () => {
    expect(await seedDemoRecords(database.db)).toEqual({ seeded: false });
    const [p] = await database.db.select({ n: count() }).from(prisoners);
    expect(p!.n).toBe(DEMO_COUNTS.prisoners);
  });
});

describeOnPglite('demo records seed is reproducible', () => {
  it('creates the same records for the same day', async () => {
    const now = new Date('2026-03-02T09:00:00Z');
    const snapshot = async () => {
      const database = await createTestDatabase('pglite');
      try {
        await seedDemoRecords(database.db, now);
        const rows = await database.db
          .select({
            id: prisoners.prisonerId,
            first: prisoners.firstName,
            last: prisoners.lastName,
            dob: prisoners.dateOfBirth,
            cell: prisoners.cellId,
            status: prisoners.status,
            release: prisoners.releaseDate,
          })
          .from(prisoners)
          .orderBy(prisoners.prisonerId);
        const recent = await database.db
          .select({ date: incidents.date, who: incidents.prisonerName })
          .from(incidents)
          .orderBy(incidents.id);
        return { rows, recent };
      } finally {
        await database.close();
      }
    };
    const [first, second] = [await snapshot(), await snapshot()];
    expect(second).toEqual(first);
    expect(first.recent.at(-1)!.date).toBe('2026-03-01'); // incidents are dated around the seed day
  }, 120_000);
});
