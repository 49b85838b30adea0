import { expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import type { BlockOverview, Cell, Prisoner } from '@prison/shared';
import { describeEachEngine } from '../../../test/test-db';
import { useTestApp } from '../../../test/test-app';
import { auditLog } from '../../db/schema';

describeEachEngine('cells and blocks', (engine) => {
  const ctx = useTestApp(engine);
  const api = (method: string, url: string, body?: unknown) => ctx().api(method, url, body);

  async function newCell(cell_id: string, block: string, capacity: number, security_level = 'Low') {
    const res = await api('POST', '/cell_controls/cells', { cell_id, block, capacity, security_level });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().cell as Cell;
  }

  async function newPrisoner(fields: Record<string, unknown>): Promise<Prisoner> {
    const res = await api('POST', '/prisoner/add', {
      first_name: 'Cell',
      last_name: 'Mate',
      date_of_birth: '1984-07-21',
      status: 'Incarcerated',
      ...fields,
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  }

  const cellNow = async (cellId: string) =>
    (await api('GET', `/cell_controls/addOccupant/${cellId}`)).json().cell as Cell;

  it('lists block names, block summaries with their cells, capacity and occupants, and the cells of a block sorted by id', async () => {
    expect((await api('GET', '/cell_controls/blocks')).json()).toEqual({ data: [] });
    expect((await api('GET', '/cell_controls/block-summaries')).json()).toEqual({ data: [] });
    await newCell('B-2', 'B', 2, 'High');
    await newCell('B-1', 'B', 3, 'Medium');
    await newCell('A-1', 'A', 1);
    await newPrisoner({ cell_id: 'B-1' });
    await newPrisoner({ cell_id: 'B-1', status: 'On Trial' });
    await newPrisoner({ cell_id: 'B-2', status: 'Transferred', override_reason: 'Last cell kept on the record' }); // takes no place
    expect((await api('GET', '/cell_controls/blocks')).json()).toEqual({ data: ['A', 'B'] });
    const blocks = (await api('GET', '/cell_controls/block-summaries')).json();
    expect(blocks).toEqual({
      data: [
        { block: 'A', cells: 1, capacity: 1, occupants: 0 },
        { block: 'B', cells: 2, capacity: 5, occupants: 2 },
      ],
    });
    const cells = (await api('GET', '/cell_controls/block?block=B')).json();
    expect(cells).toEqual({
      data: [
        { cell_id: 'B-1', block: 'B', capacity: 3, current_occupants: 2, security_level: 'Medium' },
        { cell_id: 'B-2', block: 'B', capacity: 2, current_occupants: 0, security_level: 'High' },
      ],
    });
    expect((await api('GET', '/cell_controls/block?block=NONE')).json()).toEqual({ data: [] });
    const missing = await api('GET', '/cell_controls/block');
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toMatch(/^block/);
  });

  it('answers addOccupant with 200 and the spec message without counting anyone twice; 404 for an unknown cell', async () => {
    await newCell('AO-1', 'AO', 2);
    await newPrisoner({ cell_id: 'AO-1' });
    for (let i = 0; i < 2; i++) {
      const res = await api('GET', '/cell_controls/addOccupant/AO-1');
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        message: 'Cell occupant updated successfully!',
        cell: { cell_id: 'AO-1', block: 'AO', capacity: 2, current_occupants: 1, security_level: 'Low' },
      });
    }
    const unknown = await api('GET', '/cell_controls/addOccupant/NOPE');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ message: 'Cell NOPE not found' });
  });

  it('shows the occupancy picture with the prisoners in each cell', async () => {
    await newCell('OV-1', 'OV', 2, 'High');
    await newCell('OV-2', 'OV', 1);
    const p = await newPrisoner({ first_name: 'Olga', last_name: 'Vance', cell_id: 'OV-1' });
    await newPrisoner({ first_name: 'Gone', cell_id: 'OV-2', status: 'Released', override_reason: 'Last cell kept on the record' });
    const overview = (await api('GET', '/cell_controls/overview')).json().data as BlockOverview[];
    const ov = overview.find((b) => b.block === 'OV')!;
    expect(ov).toEqual({
      block: 'OV',
      capacity: 3,
      occupants: 1,
      cells: [
        {
          cell_id: 'OV-1',
          block: 'OV',
          capacity: 2,
          current_occupants: 1,
          security_level: 'High',
          occupants: [{ prisoner_id: p.prisoner_id, prison_number: p.prison_number, first_name: 'Olga', last_name: 'Vance', status: 'Incarcerated' }],
          keep_apart_conflicts: [],
        },
        { cell_id: 'OV-2', block: 'OV', capacity: 1, current_occupants: 0, security_level: 'Low', occupants: [], keep_apart_conflicts: [] },
      ],
    });
    expect(overview.map((b) => b.block)).toEqual([...overview.map((b) => b.block)].sort());
  });

  it('creates a cell (409 on a taken id, 400 naming the field) and audits it', async () => {
    await newCell('CR-1', 'CR', 2);
    const dup = await api('POST', '/cell_controls/cells', {
      cell_id: 'CR-1',
      block: 'CR',
      capacity: 1,
      security_level: 'Low',
    });
    expect(dup.statusCode).toBe(409);
    expect(dup.json()).toEqual({ message: 'cell_id: cell CR-1 already exists' });
    for (const [body, field] of [
      [{ cell_id: 'CR-2', block: 'CR', capacity: 0, security_level: 'Low' }, 'capacity'],
      [{ cell_id: 'CR-2', block: 'CR', capacity: 1.5, security_level: 'Low' }, 'capacity'],
      [{ cell_id: 'CR-2', block: 'CR', capacity: 1, security_level: 'Extreme' }, 'security_level'],
      [{ cell_id: 'CR 2', block: 'CR', capacity: 1, security_level: 'Low' }, 'cell_id'],
      [{ cell_id: 'CR-2', block: '', capacity: 1, security_level: 'Low' }, 'block'],
    ] as const) {
      const res = await api('POST', '/cell_controls/cells', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().message).toMatch(new RegExp(`^${field}: `));
    }
    expect((await api('GET', '/cell_controls/addOccupant/CR-2')).statusCode).toBe(404);
    // Two creations of one id at once: one wins, the other gets the same 409 (not a 500).
    const racing = await Promise.all(
      [1, 2].map(() =>
        api('POST', '/cell_controls/cells', { cell_id: 'CR-3', block: 'CR', capacity: 1, security_level: 'Low' }),
      ),
    );
    expect(racing.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    const audit = await ctx()
      .database.db.select()
      .from(auditLog)
      .where(and(eq(auditLog.entity, 'cell'), eq(auditLog.entityId, 'CR-1'))).orderBy(auditLog.id);
    expect(audit).toMatchObject([{ action: 'create', after: { cell_id: 'CR-1', capacity: 2 } }]);
  });

  it('edits a cell, refusing a capacity below its occupants with 409', async () => {
    await newCell('ED-1', 'ED', 3);
    await newPrisoner({ cell_id: 'ED-1' });
    await newPrisoner({ cell_id: 'ED-1' });
    const tooSmall = await api('PUT', '/cell_controls/cells/ED-1', { capacity: 1 });
    expect(tooSmall.statusCode).toBe(409);
    expect(tooSmall.json().message).toMatch(/ED-1 holds 2 prisoners/);
    const ok = await api('PUT', '/cell_controls/cells/ED-1', { capacity: 2, security_level: 'High', block: 'ED2' });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().cell).toEqual({
      cell_id: 'ED-1',
      block: 'ED2',
      capacity: 2,
      current_occupants: 2,
      security_level: 'High',
    });
    expect((await api('PUT', '/cell_controls/cells/ED-1', { capacity: 'many' })).statusCode).toBe(400);
    expect((await api('PUT', '/cell_controls/cells/NOPE', { capacity: 2 })).statusCode).toBe(404);
    // A body naming no field changes nothing and writes no audit entry (it was a 500: an UPDATE with nothing to set).
    const nothing = await api('PUT', '/cell_controls/cells/ED-1', {});
    expect(nothing.statusCode, nothing.body).toBe(200);
    expect(nothing.json().cell).toMatchObject({ cell_id: 'ED-1', block: 'ED2', capacity: 2 });
    const audit = await ctx()
      .database.db.select()
      .from(auditLog)
      .where(and(eq(auditLog.entity, 'cell'), eq(auditLog.entityId, 'ED-1'), eq(auditLog.action, 'update'))).orderBy(auditLog.id);
    expect(audit).toMatchObject([{ before: { capacity: 3, block: 'ED' }, after: { capacity: 2, block: 'ED2' } }]);
  });

  it('removes an empty cell, and refuses one that still holds prisoners with 409', async () => {
    await newCell('RM-1', 'RM', 2);
    await newCell('RM-2', 'RM', 2);
    await newPrisoner({ cell_id: 'RM-1' });
    await newPrisoner({ cell_id: 'RM-1', status: 'On Trial' });
    const held = await api('DELETE', '/cell_controls/cells/RM-1');
    expect(held.statusCode).toBe(409);
    expect(held.json()).toEqual({ message: 'Cell RM-1 still holds 2 prisoners' });
    const gone = await api('DELETE', '/cell_controls/cells/RM-2');
    expect(gone.statusCode).toBe(200);
    expect((await api('GET', '/cell_controls/addOccupant/RM-2')).statusCode).toBe(404);
    expect((await api('DELETE', '/cell_controls/cells/RM-2')).statusCode).toBe(404);
  });

  it('removes a cell whose only records are released or transferred prisoners, clearing their cell with an audit entry', async () => {
    await newCell('RM-3', 'RM', 1);
    const occupant = await newPrisoner({ cell_id: 'RM-3' });
    const released = await newPrisoner({ cell_id: 'RM-3', status: 'Released', override_reason: 'Last cell kept on the record' });
    const transferred = await newPrisoner({ cell_id: 'RM-3', status: 'Transferred', override_reason: 'Last cell kept on the record' });
    const held = await api('DELETE', '/cell_controls/cells/RM-3');
    expect(held.json()).toEqual({ message: 'Cell RM-3 still holds 1 prisoner' });
    // Nothing changed by the refusal.
    expect((await api('GET', `/prisoner/prisonerid/${released.prisoner_id}`)).json().data.cell_id).toBe('RM-3');

    await api('PUT', `/prisoner/update/${occupant.prisoner_id}`, { status: 'Released' });
    expect((await api('DELETE', '/cell_controls/cells/RM-3')).statusCode).toBe(200);
    for (const p of [occupant, released, transferred]) {
      const now = (await api('GET', `/prisoner/prisonerid/${p.prisoner_id}`)).json().data;
      expect(now).toMatchObject({ cell_id: null, cell_block: null });
    }
    const cleared = await ctx()
      .database.db.select()
      .from(auditLog)
      .where(and(eq(auditLog.entity, 'prisoner'), eq(auditLog.action, 'clear_cell'))).orderBy(auditLog.id);
    expect(cleared.map((a) => a.entityId).sort()).toEqual(
      [occupant, released, transferred].map((p) => String(p.prisoner_id)).sort(),
    );
    expect(cleared[0]).toMatchObject({ before: { cell_id: 'RM-3' }, after: { cell_id: null } });
  });

  it('moves a prisoner between cells with the capacity check', async () => {
    await newCell('MV-1', 'MV', 1);
    await newCell('MV-2', 'MV', 1);
    const a = await newPrisoner({ cell_id: 'MV-1' });
    const b = await newPrisoner({ cell_id: 'MV-2' });
    const full = await api('POST', '/cell_controls/assign', { prisoner_id: a.prisoner_id, cell_id: 'MV-2' });
    expect(full.statusCode).toBe(409);
    expect(full.json()).toEqual({ message: 'Cell MV-2 is full', rule: 'capacity' });
    await api('PUT', `/prisoner/update/${b.prisoner_id}`, { status: 'Released' });
    const moved = await api('POST', '/cell_controls/assign', { prisoner_id: a.prisoner_id, cell_id: 'MV-2' });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json()).toMatchObject({
      message: 'Cell occupant updated successfully!',
      prisoner: { prisoner_id: a.prisoner_id, cell_id: 'MV-2', cell_block: 'MV' },
      cell: { cell_id: 'MV-2', current_occupants: 1 },
    });
    expect((await cellNow('MV-1')).current_occupants).toBe(0);
    // Assigning to the cell one is already in is not a second place.
    expect(
      (await api('POST', '/cell_controls/assign', { prisoner_id: a.prisoner_id, cell_id: 'MV-2' })).statusCode,
    ).toBe(200);
    expect((await api('POST', '/cell_controls/assign', { prisoner_id: 999999, cell_id: 'MV-2' })).statusCode).toBe(404);
    const noCell = await api('POST', '/cell_controls/assign', { prisoner_id: a.prisoner_id, cell_id: 'NOPE' });
    expect(noCell.statusCode).toBe(400);
    expect(noCell.json()).toEqual({ message: 'cell_id: cell NOPE does not exist' });
    expect((await api('POST', '/cell_controls/assign', { cell_id: 'MV-1' })).json().message).toMatch(/^prisoner_id: /);
  });

  // On PostgreSQL these requests run on separate pooled connections at once; without the row lock
  // (SELECT ... FOR UPDATE on the cell) several of them pass the count and the cell overfills.
  it('lets exactly one of ten parallel creations into the last free place succeed', async () => {
    await newCell('RACE-1', 'RACE', 3);
    await newPrisoner({ cell_id: 'RACE-1' });
    await newPrisoner({ cell_id: 'RACE-1' });
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        api('POST', '/prisoner/add', {
          first_name: `Racer${i}`,
          last_name: 'Race',
          date_of_birth: '1990-01-01',
          status: 'On Trial',
          cell_id: 'RACE-1',
        }),
      ),
    );
    const codes = results.map((r) => r.statusCode).sort();
    expect(codes).toEqual([200, ...Array(9).fill(409)]);
    for (const r of results.filter((r) => r.statusCode === 409))
      expect(r.json()).toEqual({ message: 'Cell RACE-1 is full', rule: 'capacity' });
    expect(await cellNow('RACE-1')).toMatchObject({ capacity: 3, current_occupants: 3 });
  });

  it('lets exactly one of ten parallel moves into the last free place succeed', async () => {
    await newCell('RACE-2', 'RACE', 2);
    await newPrisoner({ cell_id: 'RACE-2' });
    const movers = [];
    for (let i = 0; i < 10; i++) movers.push(await newPrisoner({ first_name: `Mover${i}`, cell_id: null }));
    const results = await Promise.all(
      movers.map((m) => api('POST', '/cell_controls/assign', { prisoner_id: m.prisoner_id, cell_id: 'RACE-2' })),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, ...Array(9).fill(409)]);
    expect(await cellNow('RACE-2')).toMatchObject({ capacity: 2, current_occupants: 2 });
  });
});
